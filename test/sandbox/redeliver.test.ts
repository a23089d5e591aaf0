import {describe, expect, it} from 'vitest'
import {RUN_BOUND_MS, until} from '../until.js'
import {call, sandbox} from './helpers.js'
import {eventsOf, receiver} from './receiver.js'

type Gateway = Awaited<ReturnType<typeof sandbox>>

const deliveries = async (gateway: Gateway, query = '') => (await call(gateway, 'GET', `/_sandbox/deliveries${query}`, {auth: null})).body.response
const trigger = (gateway: Gateway, event: string, webhook?: string) => call(gateway, 'POST', '/_sandbox/trigger', {body: {event, ...(webhook ? {webhook} : {})}, auth: null})
const redeliver = (gateway: Gateway, id: string) => call(gateway, 'POST', `/_sandbox/deliveries/${id}/redeliver`, {auth: null})

describe('web hook deliveries: listed with their last answer, and sent again', () => {
  it('lists a delivery its receiver refused as failed, and redelivers it as a new one that arrives', async () => {
    const gateway = await sandbox({webhookBackoffMs: 10, webhookAttempts: 2})
    const hooks = await receiver()
    hooks.status = 500
    await trigger(gateway, 'card:expiring', hooks.url)
    await until('the delivery to fail', async () => (await deliveries(gateway))[0]?.status === 'failed')

    const [failed] = await deliveries(gateway, '?status=failed')
    expect(failed).toStrictEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event: 'card:expiring',
      hook: hooks.url,
      hook_id: null,
      status: 'failed',
      attempts: 2,
      last_error: 'HTTP 500',
      last_answer: 'HTTP 500',
      last_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      redelivery_of: null,
      payload: [expect.objectContaining({reference: expect.any(String)})],
    })
    expect(await deliveries(gateway, '?status=delivered')).toStrictEqual([])
    expect(await deliveries(gateway, '?event=charge:failed')).toStrictEqual([])

    hooks.status = 200
    const again = await redeliver(gateway, failed.id)
    expect(again.status).toBe(200)
    expect(again.body.response).toMatchObject({event: 'card:expiring', hook: hooks.url, status: 'pending', attempts: 0, redelivery_of: failed.id, payload: failed.payload})
    expect(again.body.response.id).not.toBe(failed.id)
    const [received] = await hooks.received(1)
    expect(received).toMatchObject({event: 'card:expiring', payload: failed.payload})
    await until('one delivery delivered', async () => (await deliveries(gateway, '?status=delivered')).length === 1)
    const [delivered] = await deliveries(gateway, '?status=delivered')
    expect(delivered).toMatchObject({id: again.body.response.id, attempts: 1, last_error: null, last_answer: 'HTTP 200', redelivery_of: failed.id})
    // The failed one stays as it was.
    expect((await deliveries(gateway, '?status=failed')).map((entry: {id: string}) => entry.id)).toStrictEqual([failed.id])
  })

  it('tries a queued delivery at once instead of after its wait', async () => {
    // A wait longer than the test waits for the delivery: it arrives only if tried at once.
    const gateway = await sandbox({webhookBackoffMs: 10 * RUN_BOUND_MS})
    const hooks = await receiver()
    hooks.status = 503
    await trigger(gateway, 'card:expired', hooks.url)
    await until('a first attempt', async () => (await deliveries(gateway))[0]?.attempts === 1)
    const [waiting] = await deliveries(gateway)
    expect(waiting).toMatchObject({status: 'pending', last_answer: 'HTTP 503', last_error: 'HTTP 503'})

    hooks.status = 200
    const again = await redeliver(gateway, waiting.id)
    expect(again.body.response).toMatchObject({id: waiting.id, status: 'pending'})
    expect(eventsOf(await hooks.received(1))).toStrictEqual(['card:expired'])
    await until('the delivery delivered', async () => (await deliveries(gateway))[0]?.status === 'delivered')
  })

  it('refuses an unknown delivery (404) and one whose web hook was deleted (400)', async () => {
    const gateway = await sandbox({webhookBackoffMs: 10, webhookAttempts: 1})
    const unknown = await redeliver(gateway, 'no-such-delivery')
    expect(unknown.status).toBe(404)
    expect(unknown.body.errors).toStrictEqual(['No delivery no-such-delivery: gw sandbox deliveries lists them (finished ones only since the gateway started, the latest 500)'])

    const hooks = await receiver()
    hooks.status = 500
    const hook = (await call(gateway, 'POST', '/v1.0/web_hooks', {body: {name: 'app', address: hooks.url, events: '*', mode: 'Test'}})).body.response
    await trigger(gateway, 'card:expiring')
    await until('the delivery to fail', async () => (await deliveries(gateway))[0]?.status === 'failed')
    const [failed] = await deliveries(gateway)
    await call(gateway, 'DELETE', `/v1.0/web_hooks/${hook.id}`)
    const refused = await redeliver(gateway, failed.id)
    expect(refused.status).toBe(400)
    expect(refused.body.errors).toStrictEqual([`Delivery ${failed.id} went to web hook ${hook.id}, which was deleted: register ${hooks.url} again to receive its events`])
  })

  it('refuses a filter it cannot read', async () => {
    const answer = await call(await sandbox(), 'GET', '/_sandbox/deliveries?status=lost', {auth: null})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual(['status: Invalid option: expected one of "pending"|"delivered"|"failed"'])
  })
})
