import {describe, expect, it} from 'vitest'
import {Purchase} from '../../src/api/schemas/purchase.js'
import {shiftDays} from '../../src/sandbox/domain/schedule.js'
import {call, sandbox} from './helpers.js'
import {eventsOf as events, receiver} from './receiver.js'
import {TODAY, advance, registerHook, subscribed} from './recurring-helpers.js'

describe('a scripted month', () => {
  it('bills a daily subscription every day for 35 days and delivers pending then successful, in order', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const hooks = await receiver()
    await registerHook(gateway, hooks.url, {authentication_username: 'hook-user', authentication_password: 'hook-secret'})
    const {customer, subscription} = await subscribed(gateway)

    const advanced = await advance(gateway, {days: 35})
    expect(advanced.status).toBe(200)
    expect(advanced.body.response).toStrictEqual({from: TODAY, today: '2026-12-27', days: 35, events: 70, charges_approved: 35, charges_declined: 0, deliveries_queued: 70})

    const deliveries = await hooks.received(70)
    expect(deliveries.map((delivery) => delivery.event)).toStrictEqual(
      Array.from({length: 35}, () => ['charge:pending', 'charge:successful']).flat(),
    )
    const customerObject = {email: 'jo@example.com', first_name: 'Jo', last_name: 'Citizen', reference: 'jo', id: customer.body.response.id}
    const sub = subscription.body.response
    const pendingElement = {id: sub.id, frequency: 'Daily', start_date: TODAY, end_date: null, reference: 'jo-gold', customer: customerObject}
    for (const [index, delivery] of deliveries.entries()) {
      const day = shiftDays(TODAY, Math.floor(index / 2))
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
    expect((await call(gateway, 'GET', '/_sandbox/clock', {auth: null})).body.response).toMatchObject({today: '2026-12-27', processing_window_ms: 2000})
  })
})


describe('the retry chain', () => {
  it('retries a declined charge three times on the following days, then abandons it until the next date', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const hooks = await receiver()
    await registerHook(gateway, hooks.url)
    await subscribed(gateway, {frequency: 'Monthly', card: '4557012345678902'})

    const statuses: string[] = []
    for (let day = 0; day < 4; day++) {
      await advance(gateway, {days: 1})
      statuses.push((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold')).body.response.last_status)
    }
    expect(statuses).toStrictEqual(['Failed (1), Pending', 'Failed (2), Pending', 'Failed (3), Pending', 'Failed (3), Aborted'])

    const deliveries = await hooks.received(5)
    expect(events(deliveries)).toStrictEqual(['charge:pending', 'charge:retry', 'charge:retry', 'charge:retry', 'charge:failed'])
    const charged = deliveries.slice(1).map((delivery) => delivery.payload[0])
    expect(charged.map((element) => element.subscription.last_status)).toStrictEqual(statuses)
    for (const element of charged) {
      expect(element.response).toMatchObject({successful: true, response: {successful: false, message: 'Declined', source: 'Recurring'}})
    }
    expect(charged.map((element) => element.response.response.transaction_date.slice(0, 10))).toStrictEqual([
      TODAY,
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
    ])

    const subscription = (await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold')).body.response
    expect(subscription).toMatchObject({is_active: true, next_billing_date: '2026-12-22'})
    expect((await advance(gateway, {to: '2026-12-22'})).body.response.events).toBe(0)
    expect((await advance(gateway, {days: 1})).body.response.events).toBe(2)
    expect(events(await hooks.received(7)).slice(5)).toStrictEqual(['charge:pending', 'charge:retry'])
  })

  it('declines by the cents of the plan amount', async () => {
    const gateway = await sandbox()
    await subscribed(gateway, {frequency: 'Weekly', amount: 10051, card: '4242424242424242'})
    await advance(gateway, {days: 1})
    expect((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold')).body.response).toMatchObject({
      last_status: 'Failed (1), Pending',
      next_billing_date: TODAY,
    })
    const purchase = (await call(gateway, 'GET', `/v1.0/purchases/jo-gold-${TODAY}`)).body.response
    expect(purchase).toMatchObject({successful: false, message: 'Insufficient Funds', response_code: '51', source: 'Recurring', amount: 10051})
  })

  it('ends the chain when a retry is approved, and bills next at the first date after it', async () => {
    const gateway = await sandbox()
    await subscribed(gateway, {frequency: 'Daily', card: '4557012345678902'})
    await advance(gateway, {days: 2})
    expect((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold')).body.response.last_status).toBe('Failed (2), Pending')

    const newCard = {card_number: '4005550000000001', expiry_date: '02/2030', cvv: '123'}
    expect((await call(gateway, 'PUT', '/v1.0/customers/jo', {body: {card: newCard}})).status).toBe(200)
    expect((await advance(gateway, {days: 1})).body.response.events).toBe(1)
    expect((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold')).body.response).toMatchObject({
      last_status: 'Successful',
      next_billing_date: '2026-11-25',
    })
    const retried = (await call(gateway, 'GET', '/v1.0/purchases/jo-gold-2026-11-24')).body.response
    expect(retried).toMatchObject({successful: true, card_number: '400555XXXXXX0001', source: 'Recurring'})
  })
})

describe('card expiry', () => {
  it('sends card:expiring 30 days before the end of the expiry month, then card:expired, which stops the subscription', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const hooks = await receiver()
    await registerHook(gateway, hooks.url)
    const {customer} = await subscribed(gateway, {frequency: 'Monthly', expiry: '12/2026'})

    await advance(gateway, {to: '2026-12-01'})
    expect(events(await hooks.received(2))).toStrictEqual(['charge:pending', 'charge:successful'])
    expect((await advance(gateway, {days: 1})).body.response.events).toBe(1)
    await advance(gateway, {to: '2027-01-05'})

    const deliveries = await hooks.received(6)
    expect(events(deliveries)).toStrictEqual([
      'charge:pending',
      'charge:successful',
      'card:expiring',
      'charge:pending',
      'charge:successful',
      'card:expired',
    ])
    const customerObject = {email: 'jo@example.com', first_name: 'Jo', last_name: 'Citizen', reference: 'jo', id: customer.body.response.id}
    expect(deliveries[2]?.payload).toStrictEqual([customerObject])
    expect(deliveries[5]?.payload).toStrictEqual([customerObject])
    expect((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold')).body.response.is_active).toBe(false)

    expect((await advance(gateway, {to: '2027-03-01'})).body.response.events).toBe(0)
  })

  it('sends card:expiring once, from the first day inside the window', async () => {
    const gateway = await sandbox()
    await subscribed(gateway, {frequency: 'Annually', expiry: '12/2026'})
    // The card's last day, 2026-12-31, is within 30 days from 2026-12-01; until then only the yearly charge.
    expect((await advance(gateway, {to: '2026-12-01'})).body.response.events).toBe(2)
    expect((await advance(gateway, {to: '2026-12-03'})).body.response.events).toBe(1)
  })

  it('sends no card:expired for a customer without an active subscription', async () => {
    const gateway = await sandbox()
    await subscribed(gateway, {frequency: 'Annually', expiry: '11/2026'})
    await call(gateway, 'PUT', '/v1.0/subscriptions/jo-gold', {body: {is_active: false}})
    // card:expiring only: the subscription is stopped, so the card passing is not news.
    expect((await advance(gateway, {days: 20})).body.response.events).toBe(1)
  })
})

describe('stopping and resuming', () => {
  it('does not bill a stopped subscription, and bills a resumed one from its next date on or after today', async () => {
    const gateway = await sandbox()
    await subscribed(gateway, {frequency: 'Weekly'})
    await advance(gateway, {days: 1})
    const stopped = await call(gateway, 'PUT', '/v1.0/subscriptions/jo-gold.json', {body: {is_active: false}})
    expect(stopped.body.response).toMatchObject({is_active: false, next_billing_date: '2026-11-29'})
    expect((await advance(gateway, {days: 20})).body.response.events).toBe(0)

    const resumed = await call(gateway, 'PUT', `/v1.0/subscriptions/${stopped.body.response.id}.json`, {body: {is_active: true}})
    expect(resumed.status).toBe(200)
    expect(resumed.body.response).toMatchObject({is_active: true, next_billing_date: '2026-12-13'})
    expect((await advance(gateway, {to: '2026-12-13'})).body.response.events).toBe(0)
    expect((await advance(gateway, {days: 1})).body.response.events).toBe(2)
  })
})
