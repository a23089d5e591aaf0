import {describe, expect, it} from 'vitest'
import {allEndpoints, endpointAt, endpoints, paramsAt, writes} from '../../../src/api/endpoints.js'

describe('endpointAt: a hand-written request finds its endpoint and safety facts', () => {
  it.each([
    ['POST', '/v1.0/purchases', endpoints.purchases.create],
    ['post', '/v1.0/purchases/', endpoints.purchases.create],
    ['GET', '/v1.0/purchases/071-P-ABCDEFGH', endpoints.purchases.get],
    ['GET', '/v1.0/purchases/order-1.json', endpoints.purchases.get],
    ['POST', '/v1.0/refunds?x=1', endpoints.refunds.create],
    ['GET', '/v1.0/plans.json', endpoints.plans.list],
    ['GET', '/v1.0/plans', endpoints.plans.list],
    ['DELETE', '/v1.0/customers/071-C-1.json', endpoints.customers.delete],
    ['DELETE', '/v1.0/customers/071-C-1', endpoints.customers.delete],
    ['PUT', '/v1.0/subscriptions/071-S-1.json', endpoints.subscriptions.update],
    ['DELETE', '/v1.0/web_hooks/071-WH-1', endpoints.webHooks.delete],
    ['GET', '/v1.0/purchases', endpoints.purchases.list],
    ['GET', '/v1.0/subscriptions.json', endpoints.subscriptions.list],
  ])('%s %s', (method, path, endpoint) => {
    expect(endpointAt(method, path)).toBe(endpoint)
  })

  it('tells two endpoints of one method and path apart by the body sent: an extension from an increment, an unmatched refund from a refund of a purchase', () => {
    expect(endpointAt('PUT', '/v1.0/purchases/071-P-1', {extend: true})).toBe(endpoints.purchases.extend)
    expect(endpointAt('PUT', '/v1.0/purchases/071-P-1', {amount: 1500})).toBe(endpoints.purchases.increment)
    expect(endpointAt('PUT', '/v1.0/purchases/071-P-1', {})).toBe(endpoints.purchases.increment)
    expect(endpointAt('PUT', '/v1.0/purchases/071-P-1')).toBe(endpoints.purchases.increment)
    const card = {card_holder: 'Jane Citizen', card_number: '4111111111111111', card_expiry: '12/2030', cvv: '123'}
    expect(endpointAt('POST', '/v1.0/refunds', {amount: 100, reference: 'r-1', ...card})).toBe(endpoints.refunds.unmatched)
    expect(endpointAt('POST', '/v1.0/refunds', {amount: 100, reference: 'r-1', transaction_id: '071-P-1'})).toBe(endpoints.refunds.create)
  })

  it.each([
    ['POST', '/v1.0/purchases/1'],
    ['PATCH', '/v1.0/purchases/1'],
    ['GET', '/v1.0/purchases/a/b'],
  ])('%s %s is not in the table', (method, path) => {
    expect(endpointAt(method, path)).toBeUndefined()
  })
})

describe('paramsAt: the id a hand-written path names, for a live confirmation', () => {
  it.each([
    [endpoints.customers.delete, '/v1.0/customers/071-C-1.json', {id: '071-C-1'}],
    [endpoints.customers.delete, '/v1.0/customers/071-C-1', {id: '071-C-1'}],
    [endpoints.webHooks.delete, '/v1.0/web_hooks/071-WH-1/?x=1', {id: '071-WH-1'}],
    [endpoints.subscriptions.update, '/v1.0/subscriptions/sub%2F1.json', {id: 'sub/1'}],
    [endpoints.purchases.create, '/v1.0/purchases', {}],
  ])('%#: %s', (endpoint, path, params) => {
    expect(paramsAt(endpoint, path)).toEqual(params)
  })
})

describe('the safety facts of the table', () => {
  it('only the purchase and refund POSTs (a refund matched or not) move money by reference, and each is confirmed by amount', () => {
    const money = allEndpoints().filter((endpoint) => endpoint.movesMoney)
    expect(money.map((endpoint) => `${endpoint.method} ${endpoint.path} ${endpoint.confirm}`)).toEqual(['POST /v1.0/purchases amount', 'POST /v1.0/refunds amount', 'POST /v1.0/refunds amount'])
  })

  it('captures and increments are confirmed by amount, voids by id, and every follow-up is looked up by its id', () => {
    const followUps = allEndpoints().filter((endpoint) => endpoint.followsUp)
    expect(followUps.map((endpoint) => `${endpoint.method} ${endpoint.path} ${endpoint.confirm ?? 'none'} ${endpoint.followsUp!.noun}`)).toEqual([
      'POST /v1.0/purchases/{id}/capture amount purchase',
      'POST /v1.0/purchases/void id purchase',
      'PUT /v1.0/purchases/{id} amount purchase',
      'PUT /v1.0/purchases/{id} none purchase',
      'POST /v1.0/refunds/void id refund',
    ])
  })

  it("deletes, voids and stopping a subscription's or payment plan's billing are confirmed by id", () => {
    const byId = allEndpoints().filter((endpoint) => endpoint.confirm === 'id')
    expect(byId.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort()).toEqual([
      'DELETE /v1.0/customers/{id}.json',
      'DELETE /v1.0/direct_debits/{id}',
      'DELETE /v1.0/payment_plans/{id}',
      'DELETE /v1.0/web_hooks/{id}',
      'POST /v1.0/purchases/void',
      'POST /v1.0/refunds/void',
      'PUT /v1.0/payment_plans/{id}',
      'PUT /v1.0/subscriptions/{id}.json',
    ])
  })

  it('what sets up or debits money without a card answer (payment plans, direct debits) is confirmed by amount, a debit read in dollars', () => {
    const byAmount = allEndpoints().filter((endpoint) => endpoint.confirm === 'amount' && !endpoint.movesMoney && !endpoint.followsUp)
    expect(byAmount.map((endpoint) => `${endpoint.method} ${endpoint.path}${endpoint.dollars ? ' dollars' : ''}`)).toEqual(['POST /v1.0/payment_plans', 'POST /v1.0/direct_debits dollars'])
  })

  it('every method but GET writes', () => {
    for (const endpoint of allEndpoints()) expect(writes(endpoint)).toBe(endpoint.method !== 'GET')
  })
})
