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
    const line = eventJsonLine(charge)
    expect(line.endsWith('\n')).toBe(true)
    expect(line.slice(0, -1)).not.toContain('\n')
    const parsed = JSON.parse(line)
    expect(Object.keys(parsed)).toEqual(['received_at', 'event', 'mode', 'payload', 'headers'])
    expect(parsed).toEqual(charge)
  })

  it('writes DEL and C1 controls from the payload, the event and the headers as \\u escapes: the same values, inert on a terminal', () => {
    const hostile: EventEntry = {...charge, event: 'charge:\u009b2J', payload: [{message: 'a\u007fb\u0085c\u001bd'}], headers: {'x-note': '\u009dtitle'}}
    const expected = '{"received_at":"' + receivedAt + '","event":"charge:\\u009b2J","mode":"Sandbox","payload":[{"message":"a\\u007fb\\u0085c\\u001bd"}],"headers":{"x-note":"\\u009dtitle"}}\n'
    expect(eventJsonLine(hostile)).toBe(expected)
    // From the body the event came in, raw or escaped, and from a header alone.
    const body = JSON.stringify({event: hostile.event, payload: hostile.payload})
    expect(eventJsonLine(hostile, Buffer.from(body))).toBe(expected)
    expect(eventJsonLine(hostile, Buffer.from(body.replace(/[\u007F-\u009F]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)))).toBe(expected)
    expect(eventJsonLine({...charge, headers: {'x-note': '\u009dtitle'}}, Buffer.from('{"event":"charge:successful"}'))).toContain('"x-note":"\\u009dtitle"')
    expect(JSON.parse(expected)).toEqual(hostile)
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
  // The body's bytes are searched instead of the line: the line must come out as escaping the whole text would.
  const text = fc.oneof(fc.string({unit: 'binary', maxLength: 12}), fc.constantFrom('\u007F', '\u0080', '\u0085', '\u009B', '\u009F', '\u00A0', '£', '\u00C2', 'Â\u0080', '\\u0085', '\\'))
  const payload = fc.jsonValue().chain((value) => fc.array(text).map((strings) => [value, ...strings]))
  // A sender may write any character as a \u escape (Rails escapes <, > and &), in either case.
  const escaping = fc.constantFrom('none', 'controls-upper', 'everything-above-tilde')
  const written = (json: string, how: string) =>
    how === 'none'
      ? json
      : json.replace(how === 'controls-upper' ? /[\u007F-\u009F]/g : /[^ -~]/g, (char) => {
          const hex = char.charCodeAt(0).toString(16).padStart(4, '0')
          return `\\u${how === 'controls-upper' ? hex.toUpperCase() : hex}`
        })
  it('writes, from the body the event was parsed from, what escaping the whole text would', () => {
    fc.assert(
      fc.property(text, payload, fc.option(text, {nil: null}), fc.dictionary(fc.constantFrom('x-note', 'user-agent'), text), escaping, (event, sentPayload, mode, headers, how) => {
        const body = Buffer.from(written(JSON.stringify({event, payload: sentPayload}), how))
        const parsed = JSON.parse(body.toString('utf8')) as {event: string; payload: unknown}
        const entry: EventEntry = {received_at: receivedAt, event: parsed.event, mode, payload: parsed.payload, headers}
        expect(eventJsonLine(entry, body)).toBe(toNdjsonLine(entry))
      }),
      {numRuns: 3000},
    )
  })
})
