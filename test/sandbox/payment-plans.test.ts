import {describe, expect, it} from 'vitest'
import {PaymentPlan} from '../../src/api/schemas/payment-plan.js'
import {countedPlan} from '../fixtures/recorded-plans-debits.js'
import type {Dialect} from '../../src/sandbox/dialect.js'
import {formatDateTime} from '../../src/sandbox/domain/clock.js'
import {ACME_AUTH, NOW, call, sandbox} from './helpers.js'
import {createCustomer} from './recurring-helpers.js'

// The fixed clock's today is Sunday 2026-11-22.
const PLAN = {
  payment_method: 'Credit Card',
  customer: 'jo',
  reference: 'weekly-jo',
  setup_fee: 0,
  amount: 100,
  start_date: '2026-11-25',
  frequency: 'Weekly',
  anniversary: 5,
  total_count: 5,
  total_amount: 500,
}

async function withCustomer(dialect: Dialect = 'contract') {
  const gateway = await sandbox({dialect})
  const customer = (await createCustomer(gateway)).body.response
  return {gateway, customer}
}

const createPlan = (gateway: Awaited<ReturnType<typeof sandbox>>, fields: Record<string, unknown> = {}, auth?: string) =>
  call(gateway, 'POST', '/v1.0/payment_plans', {body: {...PLAN, ...fields}, auth})

const ID = (type: string) => expect.stringMatching(new RegExp(`^071-${type}-[A-Z0-9]{8}$`))

/** A payment to come, as the recorded answers show one. */
const scheduledPayment = (plan: string, reference: string, date: string, currency: string | null) => ({
  id: ID('PT'),
  payment_plan: plan,
  reference,
  amount: 100,
  currency,
  scheduled_date: date,
  payment_method: 'Credit Card',
  status: 'Scheduled',
  result: null,
  records: [],
})

const dates = (plan: {payments: {scheduled_date: string}[]}) => plan.payments.map((payment) => payment.scheduled_date)

describe('POST /v1.0/payment_plans', () => {
  it.each<[Dialect, string | null]>([
    ['contract', null],
    ['live', 'AUD'],
  ])('%s: 201, the record and its schedule as recorded: every Friday from the first after the start, references -0001 on, currency %s', async (dialect, currency) => {
    const {gateway, customer} = await withCustomer(dialect)
    const answer = await createPlan(gateway)
    expect(answer.status).toBe(201)
    const id = answer.body.response.id
    expect(answer.body).toStrictEqual({
      successful: true,
      response: {
        id: ID('PP'),
        customer: customer.id,
        amount: 100,
        currency,
        setup_fee: 0,
        frequency: 'Weekly',
        anniversary: 5,
        start_date: '2026-11-25',
        end_date: null,
        total_count: 5,
        total_amount: 500,
        payment_method: 'Credit Card',
        reference: 'weekly-jo',
        description: null,
        status: 'Active',
        status_reason: 'None',
        created_at: formatDateTime(NOW),
        failed_payment_fee: 0,
        retry_interval: 3,
        status_change_date: null,
        payments: ['2026-11-27', '2026-12-04', '2026-12-11', '2026-12-18', '2026-12-25'].map((date, index) => scheduledPayment(id, `weekly-jo-000${index + 1}`, date, currency)),
      },
      errors: [],
      test: true,
    })
    // Field for field in the recorded order: --json prints the record as the gateway sent it.
    expect(Object.keys(answer.body.response)).toStrictEqual(Object.keys(countedPlan))
    expect(Object.keys(answer.body.response.payments[0])).toStrictEqual(Object.keys(countedPlan.payments[0]!))
    expect(PaymentPlan.parse(answer.body.response)).toStrictEqual(answer.body.response)
    expect(new Set(answer.body.response.payments.map((payment: {id: string}) => payment.id)).size).toBe(5)
  })

  it('takes a null currency as none sent, and keeps a description', async () => {
    const {gateway} = await withCustomer()
    const answer = await createPlan(gateway, {currency: null, description: 'Weekly box', test: true})
    expect(answer.body.response).toMatchObject({currency: null, description: 'Weekly box'})
  })

  it('keeps a currency sent, on the plan and its payments, in both dialects', async () => {
    for (const dialect of ['contract', 'live'] as const) {
      const {gateway} = await withCustomer(dialect)
      const plan = (await createPlan(gateway, {currency: 'nzd'})).body.response
      expect([plan.currency, ...plan.payments.map((payment: {currency: string}) => payment.currency)]).toStrictEqual(Array(6).fill('NZD'))
    }
  })

  it.each([
    ['a start date long past: from the first Friday after today', '2015-07-16', '2026-11-27'],
    ['a Wednesday start: that Friday', '2026-12-09', '2026-12-11'],
    ['a Sunday start: the Friday after', '2027-01-03', '2027-01-08'],
    ['a Friday start: that day', '2026-12-04', '2026-12-04'],
  ])('%s', async (_, start, first) => {
    const {gateway} = await withCustomer()
    const plan = (await createPlan(gateway, {start_date: start, reference: start})).body.response
    expect(plan.start_date).toBe(start)
    expect(plan.payments[0].scheduled_date).toBe(first)
  })

  it('with an end date and no count, lists the next 12 payments, as recorded (total_count and total_amount null)', async () => {
    const {gateway} = await withCustomer()
    const answer = await createPlan(gateway, {start_date: '2027-01-04', end_date: '2027-04-04', total_count: undefined, total_amount: undefined})
    expect(answer.status).toBe(201)
    expect(answer.body.response).toMatchObject({end_date: '2027-04-04', total_count: null, total_amount: null})
    expect(dates(answer.body.response)).toStrictEqual([
      '2027-01-08', '2027-01-15', '2027-01-22', '2027-01-29', '2027-02-05', '2027-02-12',
      '2027-02-19', '2027-02-26', '2027-03-05', '2027-03-12', '2027-03-19', '2027-03-26',
    ])
    expect(answer.body.response.payments.at(-1).reference).toBe('weekly-jo-0012')
  })

  it.each([
    ['Fortnightly on Mondays (1)', {frequency: 'Fortnightly', anniversary: 1}, ['2026-11-30', '2026-12-14', '2026-12-28']],
    ['Weekly on Sundays, 0 or 7 alike', {anniversary: 0}, ['2026-11-29', '2026-12-06', '2026-12-13']],
    ['Weekly on Sundays (7)', {anniversary: 7}, ['2026-11-29', '2026-12-06', '2026-12-13']],
    ['Monthly on the 31st: a shorter month on its last day', {frequency: 'monthly', anniversary: 31}, ['2026-11-30', '2026-12-31', '2027-01-31']],
    ['Quarterly on the 15th', {frequency: 'Quarterly', anniversary: 15}, ['2026-12-15', '2027-03-15', '2027-06-15']],
    ['Bi-Annually on the 1st', {frequency: 'Bi-Annually', anniversary: 1}, ['2026-12-01', '2027-06-01', '2027-12-01']],
    ['Annually on the 29th, February short', {frequency: 'Annually', anniversary: 29, start_date: '2027-02-01'}, ['2027-02-28', '2028-02-29', '2029-02-28']],
    ['Daily, whatever the anniversary', {frequency: 'Daily', anniversary: 99}, ['2026-11-25', '2026-11-26', '2026-11-27']],
  ])('schedules %s', async (_, fields, expected) => {
    const {gateway} = await withCustomer()
    const answer = await createPlan(gateway, {...fields, total_count: 3, total_amount: 300})
    expect(answer.status).toBe(201)
    expect(dates(answer.body.response)).toStrictEqual(expected)
  })

  it('an empty body is 404 with the blank customer in the message (two spaces), as recorded', async () => {
    const {gateway} = await withCustomer()
    const answer = await call(gateway, 'POST', '/v1.0/payment_plans', {body: {}})
    expect(answer.status).toBe(404)
    expect(answer.body).toStrictEqual({successful: false, response: {}, errors: ['Customer  could not be found'], test: true})
  })

  it('takes the customer by id too; another merchant\'s customer is not found', async () => {
    const {gateway, customer} = await withCustomer()
    expect((await createPlan(gateway, {customer: customer.id})).status).toBe(201)
    const foreign = await createPlan(gateway, {customer: customer.id, reference: 'acme'}, ACME_AUTH)
    expect(foreign.status).toBe(404)
    expect(foreign.body.errors).toStrictEqual([`Customer ${customer.id} could not be found`])
  })

  it.each<[Record<string, unknown>, string[]]>([
    [{reference: '', amount: 0, frequency: 'Hourly'}, ["Reference can't be blank", 'Amount must be greater than 0', 'Frequency is not included in the list (Daily, Weekly, Fortnightly, Monthly, Quarterly, Bi-Annually, Annually)']],
    [{anniversary: 8}, ['Anniversary must be from 0 to 7 for a Weekly plan: the day of the week, 1 Monday to 7 Sunday (0 is Sunday too)']],
    [{frequency: 'Monthly', anniversary: 0}, ['Anniversary must be from 1 to 31 for a Monthly plan: the day of the month']],
    [{total_count: undefined, total_amount: undefined}, ['Total count or end date must be given: how many payments, or the day they end']],
    [{total_amount: 400}, ['Total amount must be the amount times the total count (500)']],
    [{total_count: 10_000, total_amount: undefined}, ['Total count must be less than or equal to 9999']],
    [{start_date: '2026-02-30', end_date: 'soon'}, ['Start date must be a date as YYYY-MM-DD', 'End date must be a date as YYYY-MM-DD']],
    [{currency: 'XXX', payment_method: 'Direct Debit'}, ['Payment method is not included in the list (Credit Card)', 'Currency XXX is not valid for this merchant. Permitted currencies: USD, AUD, NZD, GBP, EUR, JPY, CHF, CAD, HKD, and SGD']],
    [{amount: '1.00'}, ['Amount must be an integer']],
    [{end_date: '2026-11-26', total_count: undefined, total_amount: undefined}, ['End date 2026-11-26 is before the first payment day']],
  ])('refuses %o with 422 and an empty record', async (fields, errors) => {
    const {gateway} = await withCustomer()
    const answer = await createPlan(gateway, fields)
    expect(answer.status).toBe(422)
    expect(answer.body).toStrictEqual({successful: false, response: {}, errors, test: true})
    expect((await call(gateway, 'GET', '/v1.0/payment_plans')).body.total_records).toBe(0)
  })

  it('refuses a reference the merchant has used; another merchant may use it', async () => {
    const {gateway} = await withCustomer()
    await createPlan(gateway)
    expect((await createPlan(gateway)).body.errors).toStrictEqual(['Reference has already been taken'])
    await createCustomer(gateway, {}, ACME_AUTH)
    expect((await createPlan(gateway, {}, ACME_AUTH)).status).toBe(201)
  })
})

describe('GET /v1.0/payment_plans', () => {
  it('finds a plan by reference, as recorded, and by id; an unknown one is 404; another merchant\'s 403', async () => {
    const {gateway} = await withCustomer()
    const plan = (await createPlan(gateway)).body.response
    for (const key of ['weekly-jo', plan.id]) expect((await call(gateway, 'GET', `/v1.0/payment_plans/${key}`)).body).toStrictEqual({successful: true, response: plan, errors: [], test: true})
    expect((await call(gateway, 'GET', '/v1.0/payment_plans/nope')).body).toStrictEqual({successful: false, response: {}, errors: ['Could not find Payment Plan'], test: true})
    expect((await call(gateway, 'GET', `/v1.0/payment_plans/${plan.id}`, {auth: ACME_AUTH})).status).toBe(403)
  })

  it.each<[Dialect, Record<string, unknown>]>([
    ['contract', {records: 2, total_records: 3, pages: 2, current_page: 1}],
    ['live', {total_records: 3, page: 0, total_pages: 2}],
  ])('%s: lists newest first, a page at a time, in the list envelope', async (dialect, paging) => {
    const {gateway} = await withCustomer(dialect)
    for (const reference of ['a', 'b', 'c']) await createPlan(gateway, {reference})
    const answer = await call(gateway, 'GET', '/v1.0/payment_plans?limit=2&offset=0')
    expect(answer.body).toMatchObject({successful: true, ...paging})
    expect(answer.body.response.map((plan: {reference: string}) => plan.reference)).toStrictEqual(['c', 'b'])
    expect(answer.body.response[0].currency).toBe(dialect === 'live' ? 'AUD' : null)
  })
})

describe('PUT and DELETE /v1.0/payment_plans/{id}', () => {
  it('suspends: status Suspended, reason Other, the schedule emptied; activated: a new schedule, new ids, references from -0001, the same dates', async () => {
    const {gateway} = await withCustomer()
    const plan = (await createPlan(gateway)).body.response
    const suspended = await call(gateway, 'PUT', `/v1.0/payment_plans/${plan.id}`, {body: {new_status: 'Suspended'}})
    expect(suspended.status).toBe(200)
    expect(suspended.body.response).toStrictEqual({...plan, status: 'Suspended', status_reason: 'Other', payments: []})
    // The Ruby library sends the whole record, stale status included, with new_status.
    const activated = await call(gateway, 'PUT', `/v1.0/payment_plans/${plan.id}`, {body: {...suspended.body.response, new_status: 'Active', test: true}})
    expect(activated.status).toBe(200)
    const active = activated.body.response
    expect(active).toMatchObject({status: 'Active', status_reason: 'None', status_change_date: null})
    expect(dates(active)).toStrictEqual(dates(plan))
    expect(active.payments.map((payment: {reference: string}) => payment.reference)).toStrictEqual(plan.payments.map((payment: {reference: string}) => payment.reference))
    const before = new Set(plan.payments.map((payment: {id: string}) => payment.id))
    expect(active.payments.filter((payment: {id: string}) => before.has(payment.id))).toStrictEqual([])
    expect((await call(gateway, 'GET', '/v1.0/payment_plans/weekly-jo')).body.response).toStrictEqual(active)
  })

  it('activated after its dates passed, bills from today on, not for the days it was suspended', async () => {
    const {gateway} = await withCustomer()
    const plan = (await createPlan(gateway)).body.response
    await call(gateway, 'PUT', `/v1.0/payment_plans/${plan.id}`, {body: {new_status: 'Suspended'}})
    await call(gateway, 'POST', '/_sandbox/clock/advance', {body: {to: '2026-12-15'}, auth: null})
    const active = (await call(gateway, 'PUT', `/v1.0/payment_plans/${plan.id}`, {body: {new_status: 'active'}})).body.response
    expect(dates(active)).toStrictEqual(['2026-12-18', '2026-12-25', '2027-01-01', '2027-01-08', '2027-01-15'])
  })

  it('answers a plan already in the status asked for as it is; refuses another status or none with 422', async () => {
    const {gateway} = await withCustomer()
    const plan = (await createPlan(gateway)).body.response
    expect((await call(gateway, 'PUT', '/v1.0/payment_plans/weekly-jo', {body: {new_status: 'Active'}})).body.response).toStrictEqual(plan)
    for (const [body, error] of [
      [{}, "New status can't be blank"],
      [{new_status: 'Cancelled'}, 'New status is not included in the list (Active, Suspended)'],
    ] as const) {
      const answer = await call(gateway, 'PUT', '/v1.0/payment_plans/weekly-jo', {body})
      expect(answer.status).toBe(422)
      expect(answer.body).toStrictEqual({successful: false, response: {}, errors: [error], test: true})
    }
  })

  it('cancels: status Cancelled, reason Other, the schedule emptied; it cannot be made Active again', async () => {
    const {gateway} = await withCustomer()
    const plan = (await createPlan(gateway)).body.response
    const cancelled = await call(gateway, 'DELETE', `/v1.0/payment_plans/${plan.id}`)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.response).toStrictEqual({...plan, status: 'Cancelled', status_reason: 'Other', payments: []})
    expect((await call(gateway, 'DELETE', `/v1.0/payment_plans/${plan.id}`)).body.response).toStrictEqual(cancelled.body.response)
    const again = await call(gateway, 'PUT', `/v1.0/payment_plans/${plan.id}`, {body: {new_status: 'Active'}})
    expect(again.status).toBe(422)
    expect(again.body.errors).toStrictEqual(['Payment plan weekly-jo is Cancelled: it can be neither Active nor Suspended again'])
    expect(again.body.response).toStrictEqual(cancelled.body.response)
    expect((await call(gateway, 'DELETE', '/v1.0/payment_plans/nope')).status).toBe(404)
  })

})
