import {describe, expect, it} from 'vitest'
import {keepNumbersWritten, parseKeepingNumbers, stringifyAsWritten} from '../../../src/lib/json-as-written.js'
import {pickFields} from '../../../src/output/fields.js'
import {toJson, toNdjsonLine} from '../../../src/output/json.js'
import {redact, redactText} from '../../../src/safety/redact.js'

describe('JSON whose floats print as the gateway wrote them', () => {
  it('writes a float back as it was written (42.0, 42.50, 1.0e+20, -0.0), nested and in lists; integers and other floats as JSON.stringify does', () => {
    const text = '{"amount":42.0,"decimal_amount":42.50,"big":1.0e+20,"zero":-0.0,"whole":42,"cents":42.42,"items":[{"amount":7.0}],"list":[1.0,2]}'
    const value = parseKeepingNumbers(text)
    // The values JSON.parse reads (structuredClone: without what is noted beside them).
    expect(structuredClone(value)).toEqual({amount: 42, decimal_amount: 42.5, big: 1e20, zero: -0, whole: 42, cents: 42.42, items: [{amount: 7}], list: [1, 2]})
    expect(Object.keys(value as object)).toEqual(['amount', 'decimal_amount', 'big', 'zero', 'whole', 'cents', 'items', 'list'])
    expect(stringifyAsWritten(value)).toBe(text)
  })

  it('a long integer is never written back from its text (its digits may be a card number\'s)', () => {
    expect(stringifyAsWritten(parseKeepingNumbers('{"n":12345678901234567890}'))).toBe('{"n":12345678901234567000}')
  })

  it('a value changed since it was read is written as it now is', () => {
    const record = parseKeepingNumbers('{"amount":42.0}') as {amount: number}
    record.amount = 43
    expect(stringifyAsWritten(record)).toBe('{"amount":43}')
  })

  it('copies keep it: a spread, --fields (pickFields), redaction (redact, redactText), pretty and NDJSON alike', () => {
    const record = parseKeepingNumbers('{"id":"071-DD-1","amount":42.0,"card_number":"4242424242424242","cvv":"123"}') as Record<string, unknown>
    expect(toNdjsonLine({...record, gw_match: null})).toBe('{"id":"071-DD-1","amount":42.0,"card_number":"4242424242424242","cvv":"123","gw_match":null}\n')
    expect(toNdjsonLine(pickFields(redact(record), ['amount', 'card_number']))).toBe('{"amount":42.0,"card_number":"424242XXXXXX4242"}\n')
    expect(toJson(pickFields(record, ['amount']))).toBe('{\n  "amount": 42.0\n}\n')
    expect(redactText('{"amount":42.0,"card_number":"4242424242424242"}')).toBe('{"amount":42.0,"card_number":"424242XXXXXX4242"}')
    expect(keepNumbersWritten({}, {a: 1})).toEqual({a: 1})
  })
})
