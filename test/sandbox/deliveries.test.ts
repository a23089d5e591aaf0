import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {until} from '../until.js'
import {call, sandbox} from './helpers.js'
import {stateIn, stateOnDisk} from './state-file.js'
import {eventsOf as events, receiver} from './receiver.js'
import {advance, registerHook, subscribed} from './recurring-helpers.js'

const DAILY_EVENTS = (days: number) => Array.from({length: days}, () => ['charge:pending', 'charge:successful']).flat()

async function deliveryLog(base: Awaited<ReturnType<typeof sandbox>>) {
  return (await call(base, 'GET', '/_sandbox/deliveries', {auth: null})).body.response
}

describe('web hook delivery', () => {
  it('gets every event to a receiver that was down for a while, in the order they happened', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const down = await receiver()
    const {port} = new URL(down.url)
    await down.close()
    await registerHook(gateway, down.url)
    await subscribed(gateway)

    await advance(gateway, {days: 3})
    await until('a second attempt', async () => (await deliveryLog(gateway))[0]?.attempts >= 2)
    const log = await deliveryLog(gateway)
    expect(log).toHaveLength(6)
    expect(log[0]).toMatchObject({hook: down.url, event: 'charge:pending', status: 'pending', last_error: 'ECONNREFUSED'})
    expect(log.slice(1).map((entry: {attempts: number}) => entry.attempts)).toStrictEqual([0, 0, 0, 0, 0])

    const back = await receiver(Number(port))
    expect(events(await back.received(6))).toStrictEqual(DAILY_EVENTS(3))
    await until('every delivery delivered', async () => (await deliveryLog(gateway)).every((entry: {status: string}) => entry.status === 'delivered'))
  })

  it('retries a receiver that answers with an error status, and records the attempts', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const hooks = await receiver()
    hooks.status = 503
    await registerHook(gateway, hooks.url)
    await subscribed(gateway)
    await advance(gateway, {days: 1})
    await until('a second attempt', async () => (await deliveryLog(gateway))[0]?.attempts >= 2)
    hooks.status = 200
    expect(events(await hooks.received(2))).toStrictEqual(DAILY_EVENTS(1))
    await until('every delivery delivered', async () => (await deliveryLog(gateway)).every((entry: {status: string}) => entry.status === 'delivered'))
    const [first] = await deliveryLog(gateway)
    expect(first.attempts).toBeGreaterThanOrEqual(3)
    expect(first.last_error).toBeNull()
  })

  it("writes a charge's decimal_amount as a float, as the gateway's answers are", async () => {
    const gateway = await sandbox()
    const hooks = await receiver()
    await registerHook(gateway, hooks.url, {events: ['charge:successful']})
    await subscribed(gateway)
    await advance(gateway, {days: 1})
    const [charge] = await hooks.received(1)
    expect(charge?.text).toContain('"decimal_amount":10.0,')
  })

  it('gives a delivery up after its last attempt and goes on with the next', async () => {
    const gateway = await sandbox({webhookBackoffMs: 20, webhookAttempts: 3})
    const hooks = await receiver()
    hooks.status = 500
    await registerHook(gateway, hooks.url)
    await subscribed(gateway)
    await advance(gateway, {days: 1})
    await until('the delivery to fail', async () => (await deliveryLog(gateway))[0]?.status === 'failed')
    hooks.status = 200
    expect(events(await hooks.received(1))).toStrictEqual(['charge:successful'])
    const [failed] = await deliveryLog(gateway)
    expect(failed).toMatchObject({event: 'charge:pending', status: 'failed', attempts: 3, last_error: 'HTTP 500'})
  })

  it('gives up on an attempt the receiver does not answer in time', async () => {
    const gateway = await sandbox({webhookBackoffMs: 20, webhookAttempts: 1, webhookTimeoutMs: 100})
    const hooks = await receiver()
    hooks.delayMs = 1000
    await registerHook(gateway, hooks.url)
    await subscribed(gateway)
    await advance(gateway, {days: 1})
    await until('the delivery to fail', async () => (await deliveryLog(gateway))[0]?.status === 'failed')
    expect((await deliveryLog(gateway))[0].last_error).toBe('no answer within 100 ms')
  })

  it('never makes the clock wait for a slow receiver', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const hooks = await receiver()
    hooks.delayMs = 2000
    await registerHook(gateway, hooks.url)
    await subscribed(gateway)
    const started = Date.now()
    const advanced = await advance(gateway, {days: 30})
    expect(advanced.body.response.events).toBe(60)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('delivers only the events a hook registered for, and nothing to a deleted hook', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const charges = await receiver()
    const gone = await receiver()
    await registerHook(gateway, charges.url, {events: ['charge:successful']})
    const deleted = await registerHook(gateway, gone.url)
    expect((await call(gateway, 'DELETE', `/v1.0/web_hooks/${deleted.body.response.id}`)).status).toBe(200)
    await subscribed(gateway)
    await advance(gateway, {days: 2})
    expect(events(await charges.received(2))).toStrictEqual(['charge:successful', 'charge:successful'])
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(gone.deliveries).toStrictEqual([])
    expect(charges.deliveries).toHaveLength(2)
  })

  it('drops what was queued for a hook when it is deleted', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const down = await receiver()
    const {port} = new URL(down.url)
    await down.close()
    const hook = (await registerHook(gateway, down.url)).body.response
    await subscribed(gateway)
    await advance(gateway, {days: 2})
    expect(await deliveryLog(gateway)).toHaveLength(4)
    await call(gateway, 'DELETE', `/v1.0/web_hooks/${hook.id}`)
    const back = await receiver(Number(port))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(back.deliveries).toStrictEqual([])
    expect((await deliveryLog(gateway)).filter((entry: {status: string}) => entry.status === 'pending')).toStrictEqual([])
  })

  it('registers the hooks given at start for TEST, in the sandbox mode', async () => {
    const hooks = await receiver()
    const gateway = await sandbox({mode: 'live', webhooks: [hooks.url], webhookBackoffMs: 50})
    const listed = await call(gateway, 'GET', '/v1.0/web_hooks')
    expect(listed.body).toStrictEqual({
      successful: true,
      response: [
        {
          id: expect.stringMatching(/^071-WH-[A-Z0-9]{8}$/),
          name: 'gw sandbox start',
          address: hooks.url,
          events: '*',
          mode: 'Live',
          authentication_username: null,
          authentication_password: '',
          is_active: null,
        },
      ],
      errors: [],
      test: false,
    })
    await subscribed(gateway)
    await advance(gateway, {days: 1})
    const [pending] = await hooks.received(2)
    expect(pending?.headers['x-service-mode']).toBe('Live')
    expect(pending?.headers.authorization).toBeUndefined()
  })
})

describe('state file', () => {
  it('survives a restart in the middle of the month: the date, the subscriptions and the deliveries still queued', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'state.json')
    const first = await sandbox({stateFile, webhookBackoffMs: 50})
    const down = await receiver()
    const {port} = new URL(down.url)
    await down.close()
    await registerHook(first, down.url)
    await subscribed(first)
    await advance(first, {days: 10})
    await first.close()
    expect(stateIn(stateFile).snapshot()).toMatchObject({today: '2026-12-02', deliveries: expect.any(Array)})

    const back = await receiver(Number(port))
    const second = await sandbox({stateFile, webhookBackoffMs: 50})
    expect((await call(second, 'GET', '/_sandbox/clock', {auth: null})).body.response).toMatchObject({today: '2026-12-02', processing_window_ms: 2000})
    expect(events(await back.received(20))).toStrictEqual(DAILY_EVENTS(10))
    // Deliveries save the queue on their own, without waiting for a request.
    await until('no delivery in the state file', async () => (stateOnDisk(stateFile).snapshot().deliveries ?? []).length === 0)

    expect((await advance(second, {days: 25})).body.response).toStrictEqual({from: '2026-12-02', today: '2026-12-27', days: 25, events: 50, charges_approved: 25, charges_declined: 0, deliveries_queued: 50})
    const deliveries = await back.received(70)
    expect(events(deliveries)).toStrictEqual(DAILY_EVENTS(35))
    const references = deliveries.filter((_, index) => index % 2 === 1).map((delivery) => delivery.payload[0].response.response.reference)
    expect(new Set(references).size).toBe(35)
    expect((await call(second, 'GET', '/v1.0/subscriptions/jo-gold')).body.response.next_billing_date).toBe('2026-12-27')
  })
})
