import {describe, expect, it} from 'vitest'
import {Subscription} from '../../src/api/schemas/subscription.js'
import {formatDateTime} from '../../src/sandbox/domain/clock.js'
import {ACME_AUTH, NOW, call, sandbox} from './helpers.js'
import {TODAY, advance, createCustomer, createPlan, createSubscription} from './recurring-helpers.js'

async function withPlanAndCustomer() {
  const gateway = await sandbox()
  const plan = (await createPlan(gateway)).body.response
  const customer = (await createCustomer(gateway)).body.response
  return {gateway, plan, customer}
}

const refused = (fields: Record<string, unknown>) => ({
  id: null,
  customer: 'jo',
  plan: 'gold',
  frequency: 'Daily',
  start_date: TODAY,
  end_date: null,
  next_billing_date: null,
  reference: 'jo-gold',
  last_status: null,
  is_active: false,
  created_at: null,
  ...fields,
})

describe('POST /v1.0/subscriptions', () => {
  it('creates a subscription: 201, Scheduled, first billed on its start date', async () => {
    const {gateway, plan, customer} = await withPlanAndCustomer()
    const answer = await createSubscription(gateway, {frequency: 'bi-annually', start_date: '2027-01-31'})
    expect(answer.status).toBe(201)
    expect(answer.body).toStrictEqual({
      successful: true,
      response: {
        id: expect.stringMatching(/^071-S-[A-Z0-9]{8}$/),
        customer: customer.id,
        plan: plan.id,
        frequency: 'Bi-Annually',
        start_date: '2027-01-31',
        end_date: null,
        next_billing_date: '2027-01-31',
        reference: 'jo-gold',
        last_status: 'Scheduled',
        is_active: true,
        created_at: formatDateTime(NOW),
      },
      errors: [],
      test: true,
    })
    expect(Subscription.parse(answer.body.response)).toEqual(answer.body.response)
    expect((await call(gateway, 'GET', '/v1.0/plans/gold')).body.response.subscription_count).toBe(1)
  })

  it('takes the customer and plan by id as well as by reference, and is_active false as sent', async () => {
    const {gateway, plan, customer} = await withPlanAndCustomer()
    const answer = await createSubscription(gateway, {customer: customer.id, plan: plan.id, is_active: false})
    expect(answer.status).toBe(201)
    expect(answer.body.response).toMatchObject({customer: customer.id, plan: plan.id, is_active: false, last_status: 'Scheduled'})
  })

  it.each(['Daily', 'Weekly', 'Fortnightly', 'Monthly', 'Quarterly', 'Bi-Annually', 'Annually'])('accepts %s in any case', async (frequency) => {
    const {gateway} = await withPlanAndCustomer()
    const answer = await createSubscription(gateway, {frequency: frequency.toUpperCase()})
    expect(answer.status).toBe(201)
    expect(answer.body.response.frequency).toBe(frequency)
  })

  it('refuses a blank reference: 400, id null and is_active false', async () => {
    const {gateway} = await withPlanAndCustomer()
    const answer = await createSubscription(gateway, {reference: ''})
    expect(answer.status).toBe(400)
    expect(answer.body).toStrictEqual({successful: false, response: refused({reference: ''}), errors: ["Reference can't be blank"], test: true})
  })

  it.each([
    [{customer: ''}, "Customer can't be blank"],
    [{customer: 'nobody'}, 'Customer nobody could not be found'],
    [{plan: ''}, "Plan can't be blank"],
    [{plan: 'silver'}, 'Plan silver could not be found'],
    [{frequency: ''}, "Frequency can't be blank"],
    [{frequency: 'Hourly'}, 'Frequency is not included in the list (Daily, Weekly, Fortnightly, Monthly, Quarterly, Bi-Annually, Annually)'],
    [{start_date: ''}, "Start date can't be blank"],
    [{start_date: '2026-02-30'}, 'Start date must be a date as YYYY-MM-DD'],
    [{start_date: '22/11/2026'}, 'Start date must be a date as YYYY-MM-DD'],
    [{start_date: '2026-11-21'}, "Start date can't be before today (2026-11-22)"],
  ])('refuses %o', async (fields, message) => {
    const {gateway} = await withPlanAndCustomer()
    const answer = await createSubscription(gateway, fields)
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual([message])
    expect(answer.body.response).toMatchObject({id: null, is_active: false})
  })

  it('refuses a reference the merchant already used', async () => {
    const {gateway} = await withPlanAndCustomer()
    await createSubscription(gateway)
    const again = await createSubscription(gateway)
    expect(again.status).toBe(400)
    expect(again.body.errors).toStrictEqual(['Reference has already been taken'])
  })

  it('cannot use another merchant customer or plan', async () => {
    const {gateway, plan, customer} = await withPlanAndCustomer()
    const answer = await createSubscription(gateway, {customer: customer.id, plan: plan.id}, ACME_AUTH)
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual([`Customer ${customer.id} could not be found`, `Plan ${plan.id} could not be found`])
  })

  it('refuses a start date before the virtual today', async () => {
    const {gateway} = await withPlanAndCustomer()
    await advance(gateway, {days: 10})
    const answer = await createSubscription(gateway, {start_date: '2026-12-01'})
    expect(answer.body.errors).toStrictEqual(["Start date can't be before today (2026-12-02)"])
  })
})

describe('GET /v1.0/subscriptions/{reference}.json', () => {
  it('finds a subscription by reference, and by id', async () => {
    const {gateway} = await withPlanAndCustomer()
    const created = (await createSubscription(gateway)).body.response
    for (const key of ['jo-gold', created.id]) {
      const answer = await call(gateway, 'GET', `/v1.0/subscriptions/${key}.json`)
      expect(answer.status).toBe(200)
      expect(answer.body.response).toStrictEqual(created)
    }
  })

  it('answers 404 Record not found, and 403 for another merchant subscription', async () => {
    const {gateway} = await withPlanAndCustomer()
    const created = (await createSubscription(gateway)).body.response
    const unknown = await call(gateway, 'GET', '/v1.0/subscriptions/nothing.json')
    expect(unknown.status).toBe(404)
    expect(unknown.body.errors).toStrictEqual(['Record not found'])
    expect((await call(gateway, 'GET', `/v1.0/subscriptions/${created.id}.json`, {auth: ACME_AUTH})).status).toBe(403)
    expect((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold.json', {auth: ACME_AUTH})).status).toBe(404)
  })
})

describe('PUT /v1.0/subscriptions/{id}.json', () => {
  it('stops and restarts a subscription', async () => {
    const {gateway} = await withPlanAndCustomer()
    const created = (await createSubscription(gateway)).body.response
    const stopped = await call(gateway, 'PUT', `/v1.0/subscriptions/${created.id}.json`, {body: {is_active: false}})
    expect(stopped.status).toBe(200)
    expect(stopped.body.response).toStrictEqual({...created, is_active: false})
    const restarted = await call(gateway, 'PUT', `/v1.0/subscriptions/${created.id}.json`, {body: {is_active: true}})
    expect(restarted.body.response).toStrictEqual(created)
  })

  it.each([
    [{}, "Is active can't be blank"],
    [{is_active: 'no'}, 'Is active must be true or false'],
    [{is_active: 1}, 'Is active must be true or false'],
  ])('refuses %o', async (body, message) => {
    const {gateway} = await withPlanAndCustomer()
    const created = (await createSubscription(gateway)).body.response
    const answer = await call(gateway, 'PUT', `/v1.0/subscriptions/${created.id}.json`, {body})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual([message])
  })

  it('answers 404 for an unknown subscription and 403 for another merchant subscription', async () => {
    const {gateway} = await withPlanAndCustomer()
    const created = (await createSubscription(gateway)).body.response
    expect((await call(gateway, 'PUT', '/v1.0/subscriptions/071-S-NOPE0000.json', {body: {is_active: false}})).status).toBe(404)
    const foreign = await call(gateway, 'PUT', `/v1.0/subscriptions/${created.id}.json`, {body: {is_active: false}, auth: ACME_AUTH})
    expect(foreign.status).toBe(403)
    expect((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold')).body.response.is_active).toBe(true)
  })
})
