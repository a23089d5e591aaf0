import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {toNdjsonLine} from '../../../src/output/json.js'
import {type EventEntry, eventJsonLine, eventLine, selectHeaders} from '../../../src/webhooks/format.js'

const receivedAt = new Date(2026, 10, 22, 14, 2, 11).toISOString()
const charge: EventEntry = {
  received_at: receivedAt,
  event: 'charge:successful',
  mode: 'Sandbox',
  payload: [{subscription: {id: 'S1', customer: {id: 'C1'}}, response: {successful: true, response: {id: 'P1', amount: 1000, currency: 'AUD', successful: true, message: 'Approved'}}}],
  headers: {'x-service-mode': 'Sandbox'},
}

describe('eventLine', () => {
  const cases: [string, EventEntry, Parameters<typeof eventLine>[1], string][] = [
    ['a charge', charge, {color: false}, '14:02:11  charge:successful  Sandbox  subscription S1 customer C1 purchase P1 10.00 AUD Approved\n'],
    ['a forwarded charge', charge, {color: false, forward: {status: 200, ms: 12}}, '14:02:11  charge:successful  Sandbox  subscription S1 customer C1 purchase P1 10.00 AUD Approved  → 200 in 12 ms\n'],
    ['a failed forward', charge, {color: false, forward: {error: 'connection refused', ms: 3}}, '14:02:11  charge:successful  Sandbox  subscription S1 customer C1 purchase P1 10.00 AUD Approved  → not forwarded: connection refused (3 ms)\n'],
    ['a failed charge', {...charge, event: 'charge:failed', payload: [{subscription: {id: 'S1', last_status: 'Failed (3), Aborted'}, response: {successful: true, response: {id: 'P2', amount: 1000, currency: 'AUD', successful: false, message: 'Declined'}}}]}, {color: false}, '14:02:11  charge:failed  Sandbox  subscription S1 purchase P2 10.00 AUD Declined (Failed (3), Aborted)\n'],
    ['a card event', {...charge, event: 'card:expired', mode: 'Live', payload: [{id: 'C9', email: 'x@y.z'}]}, {color: false}, '14:02:11  card:expired  Live  customer C9\n'],
    ['several subscriptions', {...charge, event: 'charge:pending', payload: [{id: 'S1', customer: {id: 'C1'}}, {id: 'S2', customer: {id: 'C2'}}]}, {color: false}, '14:02:11  charge:pending  Sandbox  subscription S1 customer C1; subscription S2 customer C2\n'],
    ['an unknown event without mode', {...charge, event: 'x:y', mode: null, payload: []}, {color: false}, '14:02:11  x:y  (unknown event)  -\n'],
  ]
  it.each(cases)('%s', (_, entry, options, expected) => {
    expect(eventLine(entry, options)).toBe(expected)
  })

  it('colours the event and the outcome on a terminal', () => {
    const line = eventLine({...charge, event: 'charge:retry', payload: [{response: {response: {successful: false, message: 'Declined'}}}]}, {color: true})
    expect(line).toContain('\u001B[31mcharge:retry\u001B[39m')
    expect(line).toContain('\u001B[31mDeclined\u001B[39m')
  })
})

describe('eventJsonLine', () => {
  it('is one line holding received_at, event, mode, payload and headers, in that order', () => {
    const line = eventJsonLine(charge).toString()
    expect(line.endsWith('\n')).toBe(true)
    expect(line.slice(0, -1)).not.toContain('\n')
    const parsed = JSON.parse(line)
    expect(Object.keys(parsed)).toEqual(['received_at', 'event', 'mode', 'payload', 'headers'])
    expect(parsed).toEqual(charge)
  })

  it('writes DEL and C1 controls from the payload, the event and the headers as \\u escapes: the same values, inert on a terminal', () => {
    const hostile: EventEntry = {...charge, event: 'charge:\u009b2J', payload: [{message: 'a\u007fb\u0085c\u001bd'}], headers: {'x-note': '\u009dtitle'}}
    const line = eventJsonLine(hostile).toString()
    expect(line).toBe(
      '{"received_at":"' + receivedAt + '","event":"charge:\\u009b2J","mode":"Sandbox","payload":[{"message":"a\\u007fb\\u0085c\\u001bd"}],"headers":{"x-note":"\\u009dtitle"}}\n',
    )
    expect(JSON.parse(line)).toEqual(hostile)
  })
})

describe('selectHeaders', () => {
  it("keeps the gateway's x- headers, content type and user agent, never credentials", () => {
    expect(
      selectHeaders({
        host: '127.0.0.1:4242',
        'content-type': 'application/json',
        'content-length': '42',
        'user-agent': 'Gateway/1.0',
        'x-service-mode': 'Live',
        'x-request-id': 'r-1',
        authorization: 'Basic aG9va3M6czNjcmV0',
        cookie: 'a=b',
        'x-api-key': 'secret',
        'x-auth-token': 'secret',
        'x-forwarded-for': ['1.2.3.4', '5.6.7.8'],
      }),
    ).toEqual({'content-type': 'application/json', 'user-agent': 'Gateway/1.0', 'x-service-mode': 'Live', 'x-request-id': 'r-1', 'x-forwarded-for': '1.2.3.4, 5.6.7.8'})
  })
})

describe('eventJsonLine, property', () => {
  // The byte search for DEL and C1 must find every one the text escape would: the lines are equal.
  const text = fc.oneof(fc.string({unit: 'binary', maxLength: 12}), fc.constantFrom('\u007F', '\u0080', '\u0085', '\u009B', '\u009F', '\u00A0', '£', '\u00C2', 'Â\u0080'))
  const entry = fc.record({
    received_at: fc.constant(receivedAt),
    event: text,
    mode: fc.option(text, {nil: null}),
    payload: fc.jsonValue().chain((value) => fc.array(text).map((strings) => [value, ...strings])),
    headers: fc.dictionary(fc.constantFrom('x-service-mode', 'x-note', 'user-agent'), text),
  })
  it('writes the same bytes as escaping the whole text', () => {
    fc.assert(
      fc.property(entry, (value) => {
        expect(eventJsonLine(value).toString()).toBe(toNdjsonLine(value))
      }),
      {numRuns: 2000},
    )
  })
})
