import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {allEndpoints} from '../../../src/api/endpoints.js'
import {compare, outcomeOf} from '../../../src/money/decide.js'
import {parseBody, readRecord, reportedMode} from '../../../src/api/responses.js'
import {GwError} from '../../../src/errors.js'

// Shapes the real gateway sends (gateway-notes.md), to mutate.
const purchase = {
  id: '071-P-52NRCGCF',
  authorization: 12345,
  card_number: '512345XXXXXX2346',
  card_holder: 'Jane Citizen',
  card_expiry: '2030-02-28T23:59:59+11:00',
  card_token: 'abcdefghij0123456789',
  amount: 10051,
  decimal_amount: 100.51,
  successful: false,
  message: 'Insufficient Funds',
  reference: 'order-1.json',
  currency: 'AUD',
  rrn: '000123',
  metadata: {a: 1},
}
const envelopes = [
  {successful: true, response: purchase, errors: [], test: true},
  {successful: false, response: null, errors: ['Incorrect Username or Token']},
  {successful: true, response: [{id: '071-PL-1', name: 'Gold'}], errors: [], records: 1, page: 0, total_pages: 1},
  {successful: false, response: {}, errors: ['Reference is already taken'], test: false},
]

const anyJson = fc.jsonValue()

/** A real-shaped envelope with one part replaced by anything: a field dropped, retyped, or nested oddly. */
const mutated = fc.tuple(fc.constantFrom(...envelopes), fc.constantFrom('successful', 'response', 'errors', 'test', 'response.amount', 'response.successful', 'response.id'), anyJson, fc.boolean()).map(
  ([envelope, path, value, drop]) => {
    const copy = structuredClone(envelope) as Record<string, unknown>
    const [head, tail] = path.split('.') as [string, string | undefined]
    const target = tail ? (copy[head] as Record<string, unknown> | null) : copy
    const key = tail ?? head
    if (target && typeof target === 'object') {
      if (drop) delete target[key]
      else target[key] = value
    }
    return JSON.stringify(copy)
  },
)

const body = fc.oneof(
  mutated,
  anyJson.map((value) => JSON.stringify(value)),
  fc.string(),
  fc.constantFrom('', 'null', '[]', '{}', '<html><body>500</body></html>', '{"successful":true', '{"successful":true,"response":null}'),
  mutated.map((text) => text.slice(0, Math.floor(text.length / 2))),
)

const status = fc.constantFrom(200, 201, 400, 401, 403, 404, 422, 500, 501, 502, 503)

describe('parsing any answer throws nothing but typed errors', () => {
  it('property: readRecord on every endpoint either reads a record or throws a GwError', () => {
    const endpoints = allEndpoints()
    fc.assert(
      fc.property(fc.constantFrom(...endpoints), status, body, (endpoint, code, text) => {
        try {
          const {record} = readRecord(endpoint, {status: code, text})
          if (record !== null && typeof record === 'object' && !Array.isArray(record)) outcomeOf(record as Record<string, unknown>)
        } catch (err) {
          expect(err).toBeInstanceOf(GwError)
        }
      }),
      {numRuns: 5000},
    )
  })

  it('property: reading the mode and comparing records never throws', () => {
    const record = fc.dictionary(fc.constantFrom('reference', 'amount', 'currency', 'card_number', 'card_token', 'successful', 'authorized'), anyJson)
    fc.assert(
      fc.property(fc.option(fc.string()), body, record, record, (header, text, sent, found) => {
        expect(['sandbox', 'live', undefined]).toContain(reportedMode(header ?? undefined, parseBody(text)))
        expect(Array.isArray(compare('purchase', sent, found).differences)).toBe(true)
        expect(Array.isArray(compare('refund', sent, found, {purchase: sent}).unchecked)).toBe(true)
        expect([true, false, undefined]).toContain(outcomeOf(found))
      }),
      {numRuns: 1000},
    )
  })
})
