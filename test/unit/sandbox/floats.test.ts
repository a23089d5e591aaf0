import {describe, expect, it} from 'vitest'
import {withFloats} from '../../../src/sandbox/server/floats.js'

describe('withFloats', () => {
  it.each([
    [{decimal_amount: 100}, '{"decimal_amount":100.0}'],
    [{decimal_amount: 0, amount: 0}, '{"decimal_amount":0.0,"amount":0}'],
    [{decimal_amount: -5}, '{"decimal_amount":-5.0}'],
    [{decimal_amount: 100.51}, '{"decimal_amount":100.51}'],
    [{decimal_amount: null}, '{"decimal_amount":null}'],
    [{response: [{decimal_amount: 1}, {decimal_amount: 2.5}]}, '{"response":[{"decimal_amount":1.0},{"decimal_amount":2.5}]}'],
    // A string that holds the key's text is left as it is: inside a string the quotes are escaped.
    [{reference: '"decimal_amount":7,'}, '{"reference":"\\"decimal_amount\\":7,"}'],
    [{reference: 'decimal_amount', decimal: 3}, '{"reference":"decimal_amount","decimal":3}'],
  ])('%j is written %s', (body, text) => {
    expect(withFloats(JSON.stringify(body))).toBe(text)
    expect(JSON.parse(withFloats(JSON.stringify(body)))).toStrictEqual(body)
  })
})
