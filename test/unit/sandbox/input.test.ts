import {describe, expect, it} from 'vitest'
import {fieldLabel, readFields} from '../../../src/sandbox/input.js'

const SPEC = {amount: 'integer', reference: 'string', is_active: 'boolean'} as const

describe('readFields', () => {
  it('returns the fields of the spec, missing and null ones left out', () => {
    expect(readFields({amount: 10, reference: 'r', is_active: false, extra: 1}, SPEC)).toEqual({amount: 10, reference: 'r', is_active: false})
    expect(readFields({amount: null}, SPEC)).toEqual({})
  })

  it.each([
    [{amount: '10'}, ['Amount must be an integer']],
    [{amount: 10.5}, ['Amount must be an integer']],
    [{amount: 2 ** 60}, ['Amount must be an integer']],
    [{reference: 12}, ['Reference must be a string']],
    [{is_active: 'yes'}, ['Is active must be true or false']],
    [{amount: [], reference: {}}, ['Amount must be an integer', 'Reference must be a string']],
  ])('%j is a 400: %j', (body, errors) => {
    expect(() => readFields(body, SPEC)).toThrow(expect.objectContaining({status: 400, errors}))
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
