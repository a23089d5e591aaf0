import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {CARD_JSON, CARDS, ref, type Sandbox, startSandbox} from './helpers.js'
import {until} from '../until.js'
import {type Delivery, freePort, type Receiver, startReceiver} from './receiver.js'
import {addDays, advance, createCustomer, createPlan, createSubscription, type CustomerRecord, heldToday, sandboxToday, type SubscriptionRecord} from './recurring-helpers.js'

// Each test runs its own gateway and receiver: the order of events is the thing under test.
const running: {stop(): Promise<void>}[] = []
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.stop()
})

async function gateway(args: string[] = [], home?: NodeJS.ProcessEnv): Promise<Sandbox> {
  const sandbox = await startSandbox(args, home)
  running.push(sandbox)
  return sandbox
}

async function receiver(port?: number): Promise<Receiver> {
  const started = await startReceiver(port)
  running.push({stop: () => started.close()})
  return started
}

/** Once the gateway has no delivery pending it sends no more: what a receiver has then is all it gets. */
async function settled(sandbox: Sandbox): Promise<void> {
  await until('no delivery pending', async () => (((await sandbox.control('GET', '/_sandbox/deliveries?status=pending')) as {response: unknown[]}).response.length === 0 ? true : undefined))
}

const customerObject = (customer: CustomerRecord) => ({email: customer.email, first_name: customer.first_name, last_name: customer.last_name, reference: customer.reference, id: customer.id})

const subscriptionFields = (subscription: SubscriptionRecord & {end_date?: string | null}, customer: CustomerRecord) => ({
  id: subscription.id,
  frequency: subscription.frequency,
  start_date: subscription.start_date,
  end_date: subscription.end_date ?? null,
  reference: subscription.reference,
  customer: customerObject(customer),
})

const events = (deliveries: Delivery[]) => deliveries.map((delivery) => delivery.event)

/** One charge's payload element: the subscription, and the purchase in its response envelope. */
const charge = (delivery: Delivery) => delivery.payload[0] as {subscription: Record<string, unknown>; response: {successful: boolean; errors: string[]; response: Record<string, unknown>}}

/** A plan, a customer and a daily subscription from the gateway's today. */
async function dailySubscriber(sandbox: Sandbox, {card = CARDS.visa as string, amount = 1000} = {}) {
  // Held, as a midnight between it and the subscription made it yesterday (seen under libfaketime).
  const today = await heldToday(sandbox)
  const plan = await createPlan(sandbox, {amount})
  const customer = await createCustomer(sandbox, {card})
  const subscription = await createSubscription(sandbox, {customer: customer.reference, plan: plan.reference, frequency: 'daily', startDate: today})
  return {today, plan, customer, subscription}
}

describe('gw sandbox clock', () => {
  it('shows today, and moves it forward by days or to a date', async () => {
    const sandbox = await gateway()
    const today = await sandboxToday(sandbox)
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(await advance(sandbox, 3)).toMatchObject({from: today, today: addDays(today, 3), days: 3, events: 0})
    const to = await sandbox.gw(['sandbox', 'clock', 'advance', '--to', addDays(today, 10), '--json'])
    expect(to.code).toBe(0)
    expect(to.json).toMatchObject({from: addDays(today, 3), today: addDays(today, 10), days: 7})
    const table = await sandbox.gw(['sandbox', 'clock'])
    expect(table.stdout).toContain(addDays(today, 10))
  })

  it('never moves back, and needs exactly one of --days and --to', async () => {
    const sandbox = await gateway()
    const today = await sandboxToday(sandbox)
    const back = await sandbox.gw(['sandbox', 'clock', 'advance', '--to', addDays(today, -1)])
    expect(back.code).toBe(7)
    expect(back.stderr).toContain('Error:')
    expect(await sandboxToday(sandbox)).toBe(today)
    const neither = await sandbox.gw(['sandbox', 'clock', 'advance'])
    expect(neither.code).toBe(2)
    expect(neither.stderr).toContain('Exactly one of the following must be provided: --days, --to')
    expect((await sandbox.gw(['sandbox', 'clock', 'advance', '--days', '0'])).code).toBe(2)
    expect((await sandbox.gw(['sandbox', 'clock', 'advance', '--to', '2027-02-30'])).code).toBe(2)
  })
})

describe('a scripted month of a daily subscription', () => {
  it('bills every day: charge:pending then charge:successful, 35 times, with the contract payloads and X-Service-Mode', async () => {
    const hooks = await receiver()
    const sandbox = await gateway(['--webhook', hooks.url, '--webhook-backoff', '50'])
    const {today, plan, customer, subscription} = await dailySubscriber(sandbox)

    expect(await advance(sandbox, 35)).toEqual({from: today, today: addDays(today, 35), days: 35, events: 70, charges_approved: 35, charges_declined: 0, deliveries_queued: 70})
    const deliveries = await hooks.waitFor(70)
    expect(events(deliveries)).toEqual(Array.from({length: 35}, () => ['charge:pending', 'charge:successful']).flat())
    for (const delivery of deliveries) {
      expect(delivery.headers['x-service-mode']).toBe('Sandbox')
      expect(delivery.headers['content-type']).toMatch(/^application\/json/)
      expect(delivery.payload).toHaveLength(1)
    }

    const [pending, successful] = deliveries as [Delivery, Delivery]
    expect(pending.payload[0]).toEqual(subscriptionFields(subscription, customer))
    const first = charge(successful)
    expect(first.subscription).toMatchObject(subscriptionFields(subscription, customer))
    expect(first.response).toMatchObject({successful: true, errors: []})
    expect(first.response.response).toMatchObject({successful: true, message: 'Approved', amount: plan.amount, source: 'Recurring', card_number: '424242XXXXXX4242'})
    // The charge is a real purchase at the gateway.
    const purchase = await sandbox.gw(['purchase', 'get', String(first.response.response.id), '--json'])
    expect(purchase.code).toBe(0)
    expect(purchase.json).toMatchObject({source: 'Recurring', amount: plan.amount})

    expect((await sandbox.gw(['subscription', 'get', subscription.reference, '--json'])).json).toMatchObject({is_active: true, next_billing_date: addDays(today, 35)})
    await settled(sandbox)
    expect(hooks.deliveries).toHaveLength(70)
  })

  it.each([
    ['a card that declines', {card: CARDS.declined as string, amount: 1000}, 'Declined'],
    ['an amount ending in .51', {card: CARDS.visa as string, amount: 10051}, 'Insufficient Funds'],
  ])('runs the retry chain for %s: three charge:retry, then charge:failed with Failed (3), Aborted', async (_, subscriber, message) => {
    const hooks = await receiver()
    const sandbox = await gateway(['--webhook', hooks.url, '--webhook-backoff', '50'])
    const today = await heldToday(sandbox)
    const plan = await createPlan(sandbox, {amount: subscriber.amount})
    const customer = await createCustomer(sandbox, {card: subscriber.card})
    // Weekly, so the chain ends before the next billing date comes round.
    const subscription = await createSubscription(sandbox, {customer: customer.id, plan: plan.id, frequency: 'Weekly', startDate: today})

    expect(await advance(sandbox, 5)).toMatchObject({events: 5, charges_approved: 0, charges_declined: 4, deliveries_queued: 5})
    const deliveries = await hooks.waitFor(5)
    expect(events(deliveries)).toEqual(['charge:pending', 'charge:retry', 'charge:retry', 'charge:retry', 'charge:failed'])
    expect(deliveries.slice(1).map((delivery) => charge(delivery).subscription.last_status)).toEqual(['Failed (1), Pending', 'Failed (2), Pending', 'Failed (3), Pending', 'Failed (3), Aborted'])
    for (const delivery of deliveries.slice(1)) {
      expect(charge(delivery).subscription).toMatchObject(subscriptionFields(subscription, customer))
      expect(charge(delivery).response.response).toMatchObject({successful: false, message, source: 'Recurring', amount: plan.amount})
    }
    const after = (await sandbox.gw(['subscription', 'get', subscription.reference, '--json'])).json
    expect(after).toMatchObject({last_status: 'Failed (3), Aborted', is_active: true, next_billing_date: addDays(today, 7)})
  })

  it('sends card:expiring then card:expired for a card ending within 31 days, and stops the subscription', async () => {
    const hooks = await receiver()
    const sandbox = await gateway(['--webhook', hooks.url, '--webhook-backoff', '50'])
    const today = await sandboxToday(sandbox)
    // Tomorrow's month: on a month's last day, a card ending this month is already over when the day's run comes.
    const tomorrow = addDays(today, 1)
    const expiry = `${tomorrow.slice(5, 7)}/${tomorrow.slice(0, 4)}`
    const plan = await createPlan(sandbox)
    const customer = await createCustomer(sandbox, {expiry})
    // Not due within the window, so the only events are the card's.
    const subscription = await createSubscription(sandbox, {customer: customer.id, plan: plan.id, frequency: 'Monthly', startDate: addDays(today, 60)})

    expect((await advance(sandbox, 35)).events).toBe(2)
    const deliveries = await hooks.waitFor(2)
    expect(events(deliveries)).toEqual(['card:expiring', 'card:expired'])
    for (const delivery of deliveries) expect(delivery.payload).toEqual([customerObject(customer)])
    expect((await sandbox.gw(['subscription', 'get', subscription.reference, '--json'])).json).toMatchObject({is_active: false})
  })

  it('delivers every event, once and in order, to a receiver that was down for a while', async () => {
    const port = await freePort()
    const sandbox = await gateway(['--webhook', `http://127.0.0.1:${port}/hooks`, '--webhook-backoff', '50'])
    await dailySubscriber(sandbox)
    expect((await advance(sandbox, 3)).events).toBe(6)
    // Refused until the first attempt has failed: the backoff holds the rest.
    await until('a refused attempt', async () => (((await sandbox.control('GET', '/_sandbox/deliveries')) as {response: {attempts: number}[]}).response[0]?.attempts ? true : undefined))
    const hooks = await receiver(port)
    const deliveries = await hooks.waitFor(6)
    await settled(sandbox)
    expect(hooks.deliveries).toHaveLength(6)
    expect(events(deliveries)).toEqual(['charge:pending', 'charge:successful', 'charge:pending', 'charge:successful', 'charge:pending', 'charge:successful'])
    // The gateway's own account: the first event took several attempts, and all six arrived.
    const report = (await sandbox.control('GET', '/_sandbox/deliveries')) as {response: {status: string; attempts: number}[]}
    expect(report.response.map((delivery) => delivery.status)).toEqual(Array(6).fill('delivered'))
    expect(report.response[0]!.attempts).toBeGreaterThan(1)
  })

  it('keeps its state with --state across a restart in the middle of the month', async () => {
    const hooks = await receiver()
    const state = join(mkdtempSync(join(tmpdir(), 'gw-state-')), 'gateway.json')
    const args = ['--state', state, '--webhook', hooks.url, '--webhook-backoff', '50']
    const first = await gateway(args)
    const {today, customer, subscription} = await dailySubscriber(first)
    expect((await advance(first, 10)).events).toBe(20)
    await hooks.waitFor(20)
    await first.stop()

    const second = await gateway(args, first.home)
    expect(await sandboxToday(second)).toBe(addDays(today, 10))
    expect((await second.gw(['customer', 'get', customer.reference, '--json'])).json).toMatchObject({id: customer.id})
    expect(await advance(second, 25)).toMatchObject({from: addDays(today, 10), today: addDays(today, 35), events: 50})
    const deliveries = await hooks.waitFor(70)
    await settled(second)
    expect(events(hooks.deliveries)).toEqual(Array.from({length: 35}, () => ['charge:pending', 'charge:successful']).flat())
    expect(new Set(deliveries.filter((d) => d.event === 'charge:successful').map((d) => charge(d).response.response.id)).size).toBe(35)
    expect((await second.gw(['subscription', 'get', subscription.reference, '--json'])).json).toMatchObject({next_billing_date: addDays(today, 35)})
  })
})

describe('gw sandbox trigger', () => {
  it.each([
    ['charge:pending', 'pending'],
    ['charge:successful', 'charge'],
    ['charge:retry', 'charge'],
    ['charge:failed', 'charge'],
    ['card:expiring', 'customer'],
    ['card:expired', 'customer'],
  ] as const)('delivers a sample %s built from real records to --webhook', async (event, shape) => {
    const hooks = await receiver()
    const sandbox = await gateway()
    const {customer, subscription} = await dailySubscriber(sandbox)
    const result = await sandbox.gw(['sandbox', 'trigger', event, '--webhook', hooks.url, '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const triggered = result.json as {event: string; delivered_to: string[]; payload: Record<string, unknown>[]}
    expect(triggered).toMatchObject({event, delivered_to: [hooks.url]})
    const [delivery] = await hooks.waitFor(1)
    expect(delivery).toMatchObject({event, payload: triggered.payload})
    expect(delivery!.headers['x-service-mode']).toBe('Sandbox')
    const element = delivery!.payload[0] as Record<string, unknown>
    if (shape === 'customer') expect(element).toEqual(customerObject(customer))
    if (shape === 'pending') expect(element).toEqual(subscriptionFields(subscription, customer))
    if (shape === 'charge') {
      expect((element.subscription as Record<string, unknown>).customer).toEqual(customerObject(customer))
      expect(element.response).toMatchObject({successful: true, response: {source: 'Recurring'}})
    }
  })

  it('sends X-Service-Mode Live from a gateway in live mode', async () => {
    const hooks = await receiver()
    const sandbox = await gateway(['--mode', 'live'])
    // A live profile takes no card from argv: the customer's card comes on stdin.
    const customer = await sandbox.gw(['customer', 'create', '--first-name', 'Jane', '--last-name', 'Citizen', '--reference', ref('cust'), '--email', 'jane@example.com', '--card', '-', '--yes'], {stdin: CARD_JSON})
    expect(customer.code, customer.stderr).toBe(0)
    const result = await sandbox.gw(['sandbox', 'trigger', 'card:expiring', '--webhook', hooks.url])
    expect(result.code).toBe(0)
    const [delivery] = await hooks.waitFor(1)
    expect(delivery!.headers['x-service-mode']).toBe('Live')
  })

  it('refuses an event the contract does not list (exit 2)', async () => {
    const sandbox = await gateway()
    const result = await sandbox.gw(['sandbox', 'trigger', 'charge:refunded'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Expected charge:refunded to be one of: charge:pending, charge:successful, charge:retry, charge:failed, card:expiring, card:expired')
  })
})
