import {describe, expect, it} from 'vitest'
import {Plan} from '../../src/api/schemas/plan.js'
import {formatDateTime} from '../../src/sandbox/domain/clock.js'
import {ACME_AUTH, NOW, call, sandbox} from './helpers.js'
import {PLAN, createCustomer, createPlan, createSubscription} from './recurring-helpers.js'

const plan = (fields: Record<string, unknown> = {}) => ({
  id: expect.stringMatching(/^071-PL-[A-Z0-9]{8}$/),
  name: 'Gold',
  reference: 'gold',
  description: 'Gold membership',
  amount: 1000,
  currency: 'AUD',
  subscription_count: 0,
  created_at: formatDateTime(NOW),
  ...fields,
})

const refused = (fields: Record<string, unknown>) => ({
  id: null,
  name: null,
  reference: null,
  description: null,
  amount: null,
  currency: null,
  subscription_count: null,
  created_at: null,
  ...fields,
})

describe('POST /v1.0/plans', () => {
  it('creates a plan: 201, in AUD, with no subscriptions', async () => {
    const gateway = await sandbox()
    const answer = await createPlan(gateway)
    expect(answer.status).toBe(201)
    expect(answer.body).toStrictEqual({successful: true, response: plan(), errors: [], test: true})
    expect(Plan.parse(answer.body.response)).toEqual(answer.body.response)
  })

  it.each([
    ['name', "Name can't be blank"],
    ['amount', "Amount can't be blank"],
    ['reference', "Reference can't be blank"],
    ['description', "Description can't be blank"],
  ])('refuses a plan without %s: 400, id null', async (field, message) => {
    const gateway = await sandbox()
    const answer = await createPlan(gateway, {[field]: field === 'amount' ? null : ' '})
    expect(answer.status).toBe(400)
    expect(answer.body.successful).toBe(false)
    expect(answer.body.errors).toStrictEqual([message])
    expect(answer.body.response.id).toBeNull()
  })

  it('lists every problem at once and echoes what was sent', async () => {
    const gateway = await sandbox()
    const answer = await call(gateway, 'POST', '/v1.0/plans', {body: {name: 'Gold', amount: 0}})
    expect(answer.status).toBe(400)
    expect(answer.body).toStrictEqual({
      successful: false,
      response: refused({name: 'Gold', amount: 0}),
      errors: ['Amount must be greater than 0', "Reference can't be blank", "Description can't be blank"],
      test: true,
    })
  })

  it('refuses a reference the merchant already used, but not one another merchant used', async () => {
    const gateway = await sandbox()
    await createPlan(gateway)
    const again = await createPlan(gateway, {name: 'Other'})
    expect(again.status).toBe(400)
    expect(again.body.errors).toStrictEqual(['Reference has already been taken'])
    expect(again.body.response).toStrictEqual(refused({...PLAN, name: 'Other'}))
    expect((await createPlan(gateway, {}, ACME_AUTH)).status).toBe(201)
  })

  it('refuses an amount that is not an integer', async () => {
    const gateway = await sandbox()
    const answer = await createPlan(gateway, {amount: '10.00'})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual(['Amount must be an integer'])
  })
})

describe('GET /v1.0/plans.json', () => {
  async function withPlans(count: number) {
    const gateway = await sandbox()
    for (let index = 1; index <= count; index++) await createPlan(gateway, {reference: `plan-${index}`, name: `Plan ${index}`})
    return gateway
  }
  const references = (answer: {body: {response: {reference: string}[]}}) => answer.body.response.map((record) => record.reference)
  const paging = (answer: {body: Record<string, unknown>}) => {
    const {records, total_records: total, pages, current_page: current} = answer.body
    return {records, total_records: total, pages, current_page: current}
  }

  it('answers the 10 newest first, as the live gateway lists, with the paging fields at the top of the envelope', async () => {
    const gateway = await withPlans(12)
    const answer = await call(gateway, 'GET', '/v1.0/plans.json')
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body)).toStrictEqual(['successful', 'response', 'errors', 'test', 'records', 'total_records', 'pages', 'current_page'])
    expect(paging(answer)).toStrictEqual({records: 10, total_records: 12, pages: 2, current_page: 1})
    expect(references(answer)).toStrictEqual(Array.from({length: 10}, (_, index) => `plan-${12 - index}`))
    expect(answer.body.response[0]).toStrictEqual(plan({reference: 'plan-12', name: 'Plan 12'}))
  })

  it.each([
    ['?page=2', {records: 2, total_records: 12, pages: 2, current_page: 2}, ['plan-2', 'plan-1']],
    ['?page=3&per_page=5', {records: 2, total_records: 12, pages: 3, current_page: 3}, ['plan-2', 'plan-1']],
    ['?page=2&limit=4', {records: 4, total_records: 12, pages: 3, current_page: 2}, ['plan-8', 'plan-7', 'plan-6', 'plan-5']],
    ['?offset=10&limit=5', {records: 2, total_records: 12, pages: 3, current_page: 3}, ['plan-2', 'plan-1']],
    ['?offset=0&limit=1', {records: 1, total_records: 12, pages: 12, current_page: 1}, ['plan-12']],
    ['?page=5', {records: 0, total_records: 12, pages: 2, current_page: 5}, []],
  ])('pages with %s', async (query, fields, expected) => {
    const gateway = await withPlans(12)
    const answer = await call(gateway, 'GET', `/v1.0/plans${query}`)
    expect(paging(answer)).toStrictEqual(fields)
    expect(references(answer)).toStrictEqual(expected)
  })

  it('gives at most 50 a page', async () => {
    const gateway = await withPlans(52)
    const answer = await call(gateway, 'GET', '/v1.0/plans.json?limit=100')
    expect(paging(answer)).toStrictEqual({records: 50, total_records: 52, pages: 2, current_page: 1})
  })

  it.each([['page=0', 'page must be a whole number of 1 or more'], ['limit=ten', 'limit must be a whole number of 1 or more'], ['offset=-1', 'offset must be a whole number of 0 or more']])(
    'refuses %s',
    async (query, message) => {
      const gateway = await withPlans(1)
      const answer = await call(gateway, 'GET', `/v1.0/plans.json?${query}`)
      expect(answer.status).toBe(400)
      expect(answer.body.errors).toStrictEqual([message])
    },
  )

  it('lists only the merchant own plans; an empty list is one empty page', async () => {
    const gateway = await withPlans(2)
    const answer = await call(gateway, 'GET', '/v1.0/plans.json', {auth: ACME_AUTH})
    expect(answer.body).toStrictEqual({
      successful: true,
      response: [],
      errors: [],
      test: true,
      records: 0,
      total_records: 0,
      pages: 1,
      current_page: 1,
    })
  })
})

describe('GET /v1.0/plans/{id}', () => {
  it('finds a plan by id or reference, with or without .json', async () => {
    const gateway = await sandbox()
    const created = (await createPlan(gateway)).body.response
    for (const path of [`/v1.0/plans/${created.id}`, `/v1.0/plans/${created.id}.json`, '/v1.0/plans/gold', '/v1.0/plans/gold.json']) {
      const answer = await call(gateway, 'GET', path)
      expect(answer.status).toBe(200)
      expect(answer.body.response).toStrictEqual(created)
    }
  })

  it('answers 404 Record not found for an unknown plan, 403 for another merchant plan and 404 for its reference', async () => {
    const gateway = await sandbox()
    const created = (await createPlan(gateway)).body.response
    const unknown = await call(gateway, 'GET', '/v1.0/plans/071-PL-NOPE0000')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toStrictEqual({successful: false, response: null, errors: ['Record not found'], test: true})
    const foreign = await call(gateway, 'GET', `/v1.0/plans/${created.id}`, {auth: ACME_AUTH})
    expect(foreign.status).toBe(403)
    expect(foreign.body.errors).toStrictEqual(['You do not have permissions to access this record'])
    expect((await call(gateway, 'GET', '/v1.0/plans/gold', {auth: ACME_AUTH})).status).toBe(404)
  })
})

describe('PUT /v1.0/plans/{id}', () => {
  it('changes name and description, answering with currency and subscription_count', async () => {
    const gateway = await sandbox()
    const created = (await createPlan(gateway)).body.response
    const answer = await call(gateway, 'PUT', `/v1.0/plans/${created.id}`, {body: {name: 'Platinum', description: 'Better'}})
    expect(answer.status).toBe(200)
    expect(answer.body.response).toStrictEqual(plan({id: created.id, name: 'Platinum', description: 'Better'}))
    expect((await call(gateway, 'GET', '/v1.0/plans/gold')).body.response).toStrictEqual(answer.body.response)
  })

  it('refuses a blank name with 501 and the plan unchanged', async () => {
    const gateway = await sandbox()
    const created = (await createPlan(gateway)).body.response
    const answer = await call(gateway, 'PUT', `/v1.0/plans/${created.id}`, {body: {name: '', description: 'Changed'}})
    expect(answer.status).toBe(501)
    expect(answer.body).toStrictEqual({successful: false, response: created, errors: ["Name can't be blank"], test: true})
    expect((await call(gateway, 'GET', '/v1.0/plans/gold')).body.response).toStrictEqual(created)
  })

  it('refuses an update with nothing to change', async () => {
    const gateway = await sandbox()
    await createPlan(gateway)
    const answer = await call(gateway, 'PUT', '/v1.0/plans/gold', {body: {}})
    expect(answer.status).toBe(501)
    expect(answer.body.errors).toStrictEqual(['Give name or description to update'])
  })

  it('changes amount and reference while no subscription uses the plan, and refuses to once one does', async () => {
    const gateway = await sandbox()
    const created = (await createPlan(gateway, {reference: 'draft'})).body.response
    const early = await call(gateway, 'PUT', '/v1.0/plans/draft', {body: {amount: 1500, reference: 'gold'}})
    expect(early.status).toBe(200)
    expect(early.body.response).toMatchObject({amount: 1500, reference: 'gold'})

    await createCustomer(gateway)
    expect((await createSubscription(gateway, {plan: created.id})).status).toBe(201)
    const inUse = (await call(gateway, 'GET', '/v1.0/plans/gold')).body.response
    expect(inUse).toStrictEqual(plan({id: created.id, amount: 1500, subscription_count: 1}))

    const answer = await call(gateway, 'PUT', '/v1.0/plans/gold', {body: {amount: 2000, reference: 'gold-2'}})
    expect(answer.status).toBe(501)
    expect(answer.body.errors).toStrictEqual([
      'Amount cannot be changed once the plan has subscriptions',
      'Reference cannot be changed once the plan has subscriptions',
    ])
    expect(answer.body.response).toStrictEqual(inUse)
    expect((await call(gateway, 'PUT', '/v1.0/plans/gold', {body: {name: 'Still fine', amount: 1500}})).status).toBe(200)
  })

  // The state file masks both alike (x411111XXXXXX1111y); they are two references all the same.
  it('keeps references that hold card numbers masked alike apart: a plan takes neither the other plan\'s, nor its own by the other', async () => {
    const gateway = await sandbox()
    const first = (await createPlan(gateway, {reference: 'x4111111000071111y'})).body.response
    const second = await createPlan(gateway, {reference: 'x4111111111111111y', amount: 2000})
    expect(second.status).toBe(201)
    const taken = await call(gateway, 'PUT', `/v1.0/plans/${first.id}`, {body: {reference: 'x4111111111111111y'}})
    expect(taken.status).toBe(501)
    expect(taken.body.errors).toStrictEqual(['Reference has already been taken'])
    expect((await call(gateway, 'PUT', '/v1.0/plans/x4111111000071111y', {body: {name: 'Same reference', reference: 'x4111111000071111y'}})).status).toBe(200)
    expect((await call(gateway, 'GET', '/v1.0/plans/x4111111000071111y')).body.response).toMatchObject({id: first.id, name: 'Same reference', amount: 1000})
    expect((await call(gateway, 'GET', '/v1.0/plans/x4111111111111111y')).body.response).toMatchObject({id: second.body.response.id, amount: 2000})
  })

  it('answers 404 for an unknown plan and 403 for another merchant plan', async () => {
    const gateway = await sandbox()
    const created = (await createPlan(gateway)).body.response
    expect((await call(gateway, 'PUT', '/v1.0/plans/nope', {body: {name: 'X'}})).status).toBe(404)
    expect((await call(gateway, 'PUT', `/v1.0/plans/${created.id}`, {body: {name: 'X'}, auth: ACME_AUTH})).status).toBe(403)
  })
})
