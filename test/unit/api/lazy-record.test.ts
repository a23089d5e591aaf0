import fc from 'fast-check'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {recordFromText, sentAs, whole} from '../../../src/api/lazy-record.js'
import {madeAt} from '../../../src/api/list-order.js'
import {keyOf} from '../../../src/api/recent-keys.js'
import {readFacts} from '../../../src/api/record-facts.js'
import {redact} from '../../../src/safety/redact.js'
import type {GwRecord} from '../../../src/api/schemas/record.js'

const TEXT = '{"id":"071-P-1","card_number":"424242XXXXXX4242","amount":1000,"metadata":{"id":"inner"},"transaction_date":"2026-11-26T05:17:13+00:00"}'

// A record as the splitter hands it on: with its facts where its text reads plainly.
const read = (text: string) => recordFromText({text, facts: readFacts(text)})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('recordFromText', () => {
  it('answers what a walk reads (its id, its date) and its text without parsing it', () => {
    const parse = vi.spyOn(JSON, 'parse')
    const record = read(TEXT) as GwRecord
    expect(keyOf(record)).toBe('071-P-1')
    expect(madeAt(record)).toBe(Date.parse('2026-11-26T05:17:13+00:00'))
    expect(record.created_at).toBeUndefined()
    expect(record.token).toBeUndefined()
    expect(sentAs(record)).toBe(TEXT)
    expect(typeof record).toBe('object')
    expect(Array.isArray(record)).toBe(false)
    expect(parse).not.toHaveBeenCalled()
  })

  it('is the parsed record to anything else that reads it, parsed once', () => {
    const parse = vi.spyOn(JSON, 'parse')
    const record = read(TEXT) as GwRecord
    const parsed = JSON.parse(TEXT) as GwRecord
    parse.mockClear()
    expect(record.amount).toBe(1000)
    expect(record).toEqual(parsed)
    expect(Object.keys(record)).toEqual(Object.keys(parsed))
    expect(Object.entries(record)).toEqual(Object.entries(parsed))
    expect({...record}).toEqual(parsed)
    expect(JSON.stringify(record)).toBe(TEXT)
    expect('amount' in record && !('missing' in record)).toBe(true)
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype)
    expect(redact(record)).toBe(record)
    expect(parse).toHaveBeenCalledTimes(1)
    // The object itself, with the text it came as.
    const made = whole(record)
    expect(made).toEqual(parsed)
    expect(whole(made)).toBe(made)
    expect(sentAs(made)).toBe(TEXT)
    // A copy is not what the gateway sent.
    expect(sentAs({...record})).toBeUndefined()
  })

  it('is read as JSON.parse reads it, whatever the text', () => {
    const text = fc.oneof(
      fc.json(),
      fc.dictionary(fc.string(), fc.jsonValue()).map((value) => JSON.stringify(value)),
      fc.string({unit: fc.constantFrom('{', '}', '"', ':', ',', 'a', '1', 'i', 'd', '\\')}),
    )
    fc.assert(
      fc.property(text, (json) => {
        let expected: unknown
        try {
          expected = JSON.parse(json)
        } catch {
          expect(() => read(json)).toThrow(SyntaxError)
          return
        }
        const record = read(json)
        expect(record).toEqual(expected)
        if (typeof record === 'object' && record !== null) {
          expect(keyOf(record as GwRecord)).toEqual(keyOf(expected as GwRecord))
          expect(madeAt(record as GwRecord)).toEqual(madeAt(expected as GwRecord))
          expect(sentAs(record)).toBe(json)
        }
      }),
    )
  })

  it('parses a text whose id and date it cannot read plainly: an escape, a key twice, an id that is a number', () => {
    for (const text of ['{"id":"a\\"b"}', '{"id":"a","id":"b"}', '{"id":7}', '{"\\u0069d":"x"}']) {
      const parse = vi.spyOn(JSON, 'parse')
      const record = read(text) as GwRecord
      expect(parse, text).toHaveBeenCalledTimes(1)
      expect(keyOf(record)).toBe(keyOf(JSON.parse(text) as GwRecord))
      expect(sentAs(record)).toBe(text)
      expect(whole(record)).toBe(record)
      parse.mockRestore()
    }
    expect(read('7')).toBe(7)
    expect(() => read('{"id":"a"')).toThrow(SyntaxError)
  })

  it('answers from the object, and no longer stands for its text, once changed through it', () => {
    const record = read(TEXT) as GwRecord
    record.id = 'changed'
    expect(record.id).toBe('changed')
    expect(sentAs(record)).toBeUndefined()
    expect(sentAs(whole(record))).toBeUndefined()
    const removed = read(TEXT) as GwRecord
    delete removed.transaction_date
    expect(madeAt(removed)).toBeUndefined()
    const defined = read(TEXT) as GwRecord
    Object.defineProperty(defined, 'created_at', {value: '2020-01-01', enumerable: true, configurable: true, writable: true})
    expect(defined.created_at).toBe('2020-01-01')
    const reshaped = read(TEXT) as GwRecord
    Object.setPrototypeOf(reshaped, null)
    expect(Object.getPrototypeOf(reshaped)).toBeNull()
    expect(sentAs(reshaped)).toBeUndefined()
  })

  it('cannot be frozen', () => {
    expect(() => Object.freeze(read(TEXT))).toThrow(TypeError)
  })
})
