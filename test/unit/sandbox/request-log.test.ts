import {describe, expect, it} from 'vitest'
import type {Exchange} from '../../../src/sandbox/server/http.js'
import {RequestLog, entryOf, requestLogBeside} from '../../../src/sandbox/server/request-log.js'

const exchange = (fields: Partial<Exchange> = {}): Exchange => ({method: 'POST', pathname: '/v1.0/purchases', status: 200, ms: 1.234, requestId: 'req-1', ...fields})

describe('a request log entry', () => {
  it('takes the reference and the masked card of the body, nothing else of it', () => {
    const entry = entryOf(exchange({merchant: 'TEST', input: {card_number: 4242424242424242, cvv: '123', reference: 'order-1', card_holder: 'Jo'}, body: {errors: []}}))
    expect(entry).toStrictEqual({time: expect.any(String), merchant: 'TEST', method: 'POST', path: '/v1.0/purchases', status: 200, ms: 1.2, request_id: 'req-1', reference: 'order-1', card_number: '424242XXXXXX4242', error: null})
  })

  it("finds a customer's nested card, else the answered record's", () => {
    expect(entryOf(exchange({input: {card: {card_number: '5123 4567 8901 2346', cvv: '1'}}})).card_number).toBe('512345XXXXXX2346')
    expect(entryOf(exchange({input: {card_token: 'abc'}, body: {response: {card_number: '512345XXXXXX2346'}}})).card_number).toBe('512345XXXXXX2346')
  })

  it('masks card numbers anywhere in the path, reference and error (in a token\'s place, as a token), and cuts long text', () => {
    const entry = entryOf(exchange({pathname: '/v1.0/credit_cards/4242424242424242', input: {reference: `paid-4242424242424242-${'x'.repeat(300)}`}, body: {errors: ['Card 4242424242424242 could not be found']}}))
    expect(entry.path).toBe('/v1.0/credit_cards/************4242')
    expect(entry.reference).toHaveLength(120)
    expect(entry.reference).toMatch(/^paid-424242XXXXXX4242-x+…$/)
    expect(entry.error).toBe('Card ************4242 could not be found')
  })

  it("puts a fault's doing before the gateway's error", () => {
    expect(entryOf(exchange({status: null, fault: 'dropped', body: {errors: ['x']}})).error).toBe('dropped')
  })
})

describe('the log in memory', () => {
  it('keeps the latest entries and says how many a follower missed', async () => {
    const log = await RequestLog.open({kept: 3, report: () => {}})
    for (let index = 1; index <= 5; index++) log.add(exchange({requestId: `req-${index}`}))
    const ids = (page: {entries: {request_id: string}[]}) => page.entries.map((entry) => entry.request_id)
    expect(ids(log.page({}))).toStrictEqual(['req-3', 'req-4', 'req-5'])
    expect(log.page({after: 1})).toMatchObject({next: 5, missed: 1})
    expect(ids(log.page({after: 1}))).toStrictEqual(['req-3', 'req-4', 'req-5'])
    expect(log.page({after: 3})).toMatchObject({missed: 0})
    expect(ids(log.page({limit: 1}))).toStrictEqual(['req-5'])
  })

  it('leaves out its own control requests', async () => {
    const log = await RequestLog.open({report: () => {}})
    log.add(exchange({method: 'GET', pathname: '/_sandbox/requests'}))
    expect(log.page({})).toStrictEqual({entries: [], next: 0, missed: 0})
  })
})

it('sits beside the state file', () => {
  expect(requestLogBeside('/srv/gw/gateway.json')).toBe('/srv/gw/gateway.requests.ndjson')
  expect(requestLogBeside('/srv/gw/state')).toBe('/srv/gw/state.requests.ndjson')
})
