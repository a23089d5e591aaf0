import {describe, expect, it} from 'vitest'
import {PaymentPlan} from '../../src/api/schemas/payment-plan.js'
import {call, sandbox} from './helpers.js'
import {eventsOf, receiver} from './receiver.js'
import {CUSTOMER, advance, createCustomer, registerHook} from './recurring-helpers.js'

// The fixed clock's today is Sunday 2026-11-22; a weekly plan on Fridays from the 27th.
const PLAN = {payment_method: 'Credit Card', setup_fee: 0, amount: 100, start_date: '2026-11-25', frequency: 'Weekly', anniversary: 5, total_count: 5, total_amount: 500}
const DECLINED_CARD = '4557012345678902'

type Gateway = Awaited<ReturnType<typeof sandbox>>

async function planFor(gateway: Gateway, reference: string, card = '5123456789012346', fields: Record<string, unknown> = {}) {
  const customer = await createCustomer(gateway, {reference: `${reference}-customer`, card: {...CUSTOMER.card, card_number: card}})
  const plan = await call(gateway, 'POST', '/v1.0/payment_plans', {body: {...PLAN, customer: customer.body.response.id, reference, ...fields}})
  if (plan.status !== 201) throw new Error(plan.text)
  return {customer: customer.body.response, plan: plan.body.response}
}

const planNamed = async (gateway: Gateway, reference: string) => (await call(gateway, 'GET', `/v1.0/payment_plans/${reference}`)).body.response

describe('the billing clock and payment plans', () => {
  it('runs a payment on its day: one approved and one declined by the test-card rules, status, result and records filled, a web hook each', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const hooks = await receiver()
    await registerHook(gateway, hooks.url)
    await planFor(gateway, 'approved')
    await planFor(gateway, 'declined', DECLINED_CARD)

    const advanced = await advance(gateway, {to: '2026-11-28'})
    expect(advanced.body.response).toStrictEqual({from: '2026-11-22', today: '2026-11-28', days: 6, events: 2, charges_approved: 1, charges_declined: 1, deliveries_queued: 2})

    const approved = await planNamed(gateway, 'approved')
    const [made] = approved.payments
    expect(made).toStrictEqual({
      id: expect.stringMatching(/^071-PT-/),
      payment_plan: approved.id,
      reference: 'approved-0001',
      amount: 100,
      currency: null,
      scheduled_date: '2026-11-27',
      payment_method: 'Credit Card',
      status: 'Completed',
      result: 'Approved',
      records: [
        {
          id: expect.stringMatching(/^071-P-/),
          reference: 'approved-0001',
          amount: 100,
          currency: 'AUD',
          successful: true,
          message: 'Approved',
          response_code: '00',
          authorization: expect.stringMatching(/^\d{6}$/),
          transaction_date: expect.stringMatching(/^2026-11-27T/),
        },
      ],
    })
    expect(approved.payments.slice(1).map((payment: {status: string}) => payment.status)).toStrictEqual(Array(4).fill('Scheduled'))
    expect(PaymentPlan.parse(approved)).toEqual(approved)
    const purchase = (await call(gateway, 'GET', `/v1.0/purchases/${made.records[0].id}`)).body.response
    expect(purchase).toMatchObject({reference: 'approved-0001', amount: 100, successful: true, source: 'Recurring', transaction_date: made.records[0].transaction_date})

    const declined = (await planNamed(gateway, 'declined')).payments[0]
    expect(declined).toMatchObject({reference: 'declined-0001', status: 'Retrying', result: 'Declined', records: [{successful: false, response_code: '05', message: 'Declined', authorization: null}]})

    const deliveries = await hooks.received(2)
    expect(eventsOf(deliveries).sort()).toStrictEqual(['payment_plan_payment:completed', 'payment_plan_payment:declined'])
    const completed = deliveries.find((delivery) => delivery.event === 'payment_plan_payment:completed')!
    expect(completed.payload).toStrictEqual([
      {
        payment_plan: expect.objectContaining({id: approved.id, reference: 'approved', status: 'Active'}),
        payment: made,
        response: {successful: true, response: purchase, errors: [], test: true},
      },
    ])
    expect(completed.payload[0].payment_plan).not.toHaveProperty('payments')
  })

  it('tries a declined payment again every retry_interval days, three times, then leaves it Declined', async () => {
    const gateway = await sandbox()
    await planFor(gateway, 'declined', DECLINED_CARD, {total_count: 1, total_amount: 100, retry_interval: 2})
    await advance(gateway, {to: '2026-12-10'})
    const [payment] = (await planNamed(gateway, 'declined')).payments
    expect(payment).toMatchObject({status: 'Declined', result: 'Declined'})
    expect(payment.records.map((attempt: {transaction_date: string}) => attempt.transaction_date.slice(0, 10))).toStrictEqual(['2026-11-27', '2026-11-29', '2026-12-01', '2026-12-03'])
  })

  it('a plan without a count keeps 12 payments to come: each one made brings the next, to its end date', async () => {
    const gateway = await sandbox()
    await planFor(gateway, 'open', undefined, {total_count: undefined, total_amount: undefined, end_date: '2027-03-05'})
    expect((await planNamed(gateway, 'open')).payments).toHaveLength(12)
    await advance(gateway, {to: '2026-11-28'})
    const plan = await planNamed(gateway, 'open')
    expect(plan.payments.map((payment: {status: string}) => payment.status)).toStrictEqual(['Completed', ...Array(12).fill('Scheduled')])
    expect(plan.payments.at(-1)).toMatchObject({reference: 'open-0013', scheduled_date: '2027-02-19'})
    await advance(gateway, {to: '2026-12-12'})
    expect((await planNamed(gateway, 'open')).payments.at(-1)).toMatchObject({reference: 'open-0015', scheduled_date: '2027-03-05'})
    await advance(gateway, {to: '2026-12-19'})
    expect((await planNamed(gateway, 'open')).payments).toHaveLength(15)
  })

  it('bills no suspended or cancelled plan; a payment waiting for a retry ends Declined when its plan is suspended', async () => {
    const gateway = await sandbox()
    await planFor(gateway, 'suspended')
    await planFor(gateway, 'cancelled')
    await planFor(gateway, 'retrying', DECLINED_CARD)
    await call(gateway, 'PUT', '/v1.0/payment_plans/suspended', {body: {new_status: 'Suspended'}})
    await call(gateway, 'DELETE', '/v1.0/payment_plans/cancelled')
    expect((await advance(gateway, {to: '2026-11-28'})).body.response).toMatchObject({charges_approved: 0, charges_declined: 1})
    const suspended = (await call(gateway, 'PUT', '/v1.0/payment_plans/retrying', {body: {new_status: 'Suspended'}})).body.response
    expect(suspended.payments).toStrictEqual([expect.objectContaining({reference: 'retrying-0001', status: 'Declined', records: [expect.objectContaining({successful: false})]})])
    expect((await advance(gateway, {to: '2027-01-31'})).body.response).toMatchObject({charges_approved: 0, charges_declined: 0})
    // Made Active again, it numbers its new payments on from the one it made.
    const active = (await call(gateway, 'PUT', '/v1.0/payment_plans/retrying', {body: {new_status: 'Active'}})).body.response
    expect(active.payments.map((payment: {reference: string}) => payment.reference)).toStrictEqual(['retrying-0001', 'retrying-0002', 'retrying-0003', 'retrying-0004', 'retrying-0005'])
    expect(active.payments[1].scheduled_date).toBe('2027-02-05')
  })

  it("a payment whose customer was deleted is an Error, with payment_plan_payment:error and no charge", async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const hooks = await receiver()
    await registerHook(gateway, hooks.url, {events: ['payment_plan_payment:error']})
    const {customer} = await planFor(gateway, 'orphan')
    await call(gateway, 'DELETE', `/v1.0/customers/${customer.id}`)
    expect((await advance(gateway, {to: '2026-11-28'})).body.response).toMatchObject({events: 1, charges_approved: 0, charges_declined: 0, deliveries_queued: 1})
    const [payment] = (await planNamed(gateway, 'orphan')).payments
    expect(payment).toMatchObject({status: 'Error', result: `Customer ${customer.id} could not be found`, records: []})
    const [delivery] = await hooks.received(1)
    expect(delivery).toMatchObject({event: 'payment_plan_payment:error', payload: [{payment, response: null}]})
  })
})

describe('POST /_sandbox/trigger, payment plan events', () => {
  it.each([
    ['payment_plan_payment:completed', 'Completed', 'Approved'],
    ['payment_plan_payment:declined', 'Retrying', 'Insufficient Funds'],
  ])('%s: a sample of the merchant\'s own plan, its purchase real; the plan left as it is', async (event, status, result) => {
    const gateway = await sandbox()
    const hooks = await receiver()
    const {plan} = await planFor(gateway, 'weekly')
    const answer = await call(gateway, 'POST', '/_sandbox/trigger', {body: {event, webhook: hooks.url}, auth: null})
    expect(answer.status).toBe(200)
    const [sample] = answer.body.response.payload
    expect(sample.payment).toMatchObject({id: plan.payments[0].id, status, result, records: [expect.objectContaining({amount: 100})]})
    expect((await call(gateway, 'GET', `/v1.0/purchases/${sample.response.response.id}`)).status).toBe(200)
    expect(await hooks.received(1)).toMatchObject([{event, payload: [sample]}])
    expect(await planNamed(gateway, 'weekly')).toStrictEqual(plan)
  })

  it('makes a customer and a plan to sample when the merchant has none, and sends the error event without a purchase', async () => {
    const gateway = await sandbox()
    const hooks = await receiver()
    const answer = await call(gateway, 'POST', '/_sandbox/trigger', {body: {event: 'payment_plan_payment:error', webhook: hooks.url}, auth: null})
    const [sample] = answer.body.response.payload
    expect(sample).toMatchObject({payment_plan: {reference: expect.stringMatching(/^sample-payment-plan-/)}, payment: {status: 'Error'}, response: null})
    expect((await call(gateway, 'GET', '/v1.0/purchases')).body.total_records).toBe(0)
  })

  it('a web hook may take only the payment plan events', async () => {
    const gateway = await sandbox()
    const answer = await registerHook(gateway, 'http://127.0.0.1:9/hooks', {events: ['payment_plan_payment:completed', 'payment_plan_payment:declined']})
    expect(answer.status).toBe(200)
    expect(answer.body.response.events).toStrictEqual(['payment_plan_payment:completed', 'payment_plan_payment:declined'])
  })
})
