import {describe, expect, it} from 'vitest'
import {fieldLabel, readFields} from '../../../src/sandbox/domain/input.js'

const SPEC = {amount: 'integer', reference: 'string', is_active: 'boolean'} as const

describe('readFields', () => {
  it('returns the fields of the spec, missing and null ones left out', () => {
    expect(readFields({amount: 10, reference: 'r', is_active: false, extra: 1}, SPEC)).toEqual({amount: 10, reference: 'r', is_active: false})
    expect(readFields({amount: null}, SPEC)).toEqual({})
  })

  it.each([
    [{amount: '10.5'}, ['Amount must be an integer']],
    [{amount: '1e3'}, ['Amount must be an integer']],
    [{amount: '10.00'}, ['Amount must be an integer']],
    [{amount: ''}, ['Amount must be an integer']],
    [{reference: 'x'.repeat(256)}, ['Reference is too long (maximum is 255 characters)']],
    [{reference: true}, ['Reference must be a string']],
    [{amount: 10.5}, ['Amount must be an integer']],
    [{amount: 2 ** 60}, ['Amount must be an integer']],
    [{is_active: 'yes'}, ['Is active must be true or false']],
    [{amount: [], reference: {}}, ['Amount must be an integer', 'Reference must be a string']],
  ])('%j is a 400: %j', (body, errors) => {
    expect(() => readFields(body, SPEC)).toThrow(expect.objectContaining({status: 400, errors}))
  })
})

describe('readFields takes what real clients send', () => {
  it.each([
    [{amount: '1000'}, {amount: 1000}],
    [{amount: ' 1000 '}, {amount: 1000}],
    [{amount: 1000.0}, {amount: 1000}],
    [{reference: 12}, {reference: '12'}],
    [{reference: 0.5}, {reference: '0.5'}],
    [{reference: 'x'.repeat(255)}, {reference: 'x'.repeat(255)}],
    [{is_active: 'true'}, {is_active: true}],
    [{is_active: 'FALSE'}, {is_active: false}],
    [{test: true, customer_ip: '203.0.113.9', fraud: {score: 1}, metadata: {a: 'b'}}, {}],
  ])('%j → %j', (body, fields) => {
    expect(readFields(body, SPEC)).toStrictEqual(fields)
  })
})

describe('fieldLabel', () => {
  it.each([
    ['customer_ip', 'Customer ip'],
    ['card_number', 'Card number'],
    ['card_expiry', 'Expiry date'],
    ['cvv', 'CVV'],
    ['transaction_id', 'Transaction id'],
  ])('%s → %s', (field, label) => {
    expect(fieldLabel(field)).toBe(label)
  })
})
