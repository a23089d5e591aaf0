import {describe, expect, it} from 'vitest'
import {Purchase} from '../../src/api/schemas/purchase.js'
import {call, sandbox} from './helpers.js'
import {receiver} from './receiver.js'
import {TODAY, advance, registerHook, subscribed} from './recurring-helpers.js'

const dayAfter = (date: string, days: number) => {
  const time = new Date(`${date}T00:00:00Z`)
  time.setUTCDate(time.getUTCDate() + days)
  return time.toISOString().slice(0, 10)
}

describe('a scripted month', () => {
  it('bills a daily subscription every day for 35 days and delivers pending then successful, in order', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const hooks = await receiver()
    await registerHook(gateway, hooks.url, {authentication_username: 'hook-user', authentication_password: 'hook-secret'})
    const {customer, subscription} = await subscribed(gateway)

    const advanced = await advance(gateway, {days: 35})
    expect(advanced.status).toBe(200)
    expect(advanced.body.response).toStrictEqual({from: TODAY, today: '2026-12-27', days: 35, events: 70})

    const deliveries = await hooks.received(70)
    expect(deliveries.map((delivery) => delivery.event)).toStrictEqual(
      Array.from({length: 35}, () => ['charge:pending', 'charge:successful']).flat(),
    )
    const customerObject = {email: 'jo@example.com', first_name: 'Jo', last_name: 'Citizen', reference: 'jo', id: customer.body.response.id}
    const sub = subscription.body.response
    const pendingElement = {id: sub.id, frequency: 'Daily', start_date: TODAY, end_date: null, reference: 'jo-gold', customer: customerObject}
    for (const [index, delivery] of deliveries.entries()) {
      const day = dayAfter(TODAY, Math.floor(index / 2))
      expect(delivery.headers['x-service-mode']).toBe('Sandbox')
      expect(delivery.headers['content-type']).toBe('application/json')
      expect(delivery.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:hook-secret').toString('base64')}`)
      if (delivery.event === 'charge:pending') {
        expect(delivery.payload).toStrictEqual([pendingElement])
        continue
      }
      expect(delivery.payload).toHaveLength(1)
      const [{subscription: charged, response}] = delivery.payload
      expect(charged).toStrictEqual({...pendingElement, last_status: 'Successful'})
      expect(response).toMatchObject({successful: true, errors: [], test: true})
      expect(response.response).toMatchObject({
        amount: 1000,
        successful: true,
        message: 'Approved',
        source: 'Recurring',
        reference: `jo-gold-${day}`,
        card_token: customer.body.response.card_token,
        currency: 'AUD',
      })
      expect(response.response.transaction_date.slice(0, 10)).toBe(day)
      expect(Purchase.parse(response.response)).toEqual(response.response)
    }

    const lastCharge = deliveries[69]?.payload[0].response.response
    const fetched = await call(gateway, 'GET', `/v1.0/purchases/${lastCharge.id}`)
    expect(fetched.body.response).toStrictEqual(lastCharge)
    const after = await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold.json')
    expect(after.body.response).toMatchObject({last_status: 'Successful', next_billing_date: '2026-12-27', is_active: true})
    expect((await call(gateway, 'GET', '/_sandbox/clock', {auth: null})).body.response).toStrictEqual({today: '2026-12-27'})
  })
})
