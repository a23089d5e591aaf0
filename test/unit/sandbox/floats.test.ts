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

  it.each([
    ['/v1.0/direct_debits', {response: {id: '071-DD-1', amount: 42}}, '{"response":{"id":"071-DD-1","amount":42.0}}'],
    ['/v1.0/direct_debits/071-DD-1', {response: {amount: 42.42}}, '{"response":{"amount":42.42}}'],
    ['/v1.0/direct_debits.json', {response: [{amount: 0}, {amount: 7}]}, '{"response":[{"amount":0.0},{"amount":7.0}]}'],
    // A purchase's amount is an integer of cents, its decimal_amount a float.
    ['/v1.0/purchases', {response: {amount: 4200, decimal_amount: 42}}, '{"response":{"amount":4200,"decimal_amount":42.0}}'],
    ['/v1.0/direct_debitsx', {response: {amount: 42}}, '{"response":{"amount":42}}'],
  ])("a direct debit's amount is a float (gateway-beyond.md §10: 42 sent, 42.0 answered): %s %j", (pathname, body, text) => {
    expect(withFloats(JSON.stringify(body), pathname)).toBe(text)
  })
})
