import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import * as bank from '../../../src/api/schemas/bank-rules.js'

describe('a BSB', () => {
  it.each([
    ['123-456', '123-456'],
    ['123456', '123-456'],
    [' 062-000 ', '062-000'],
  ])('%j is taken as %s', (input, value) => {
    expect(bank.bsb(input)).toEqual({value})
  })

  it.each(['12-3456', '1234567', '123 456', '123--456', 'abc-def', '', '１２３-４５６'])('%j is refused, said as given', (input) => {
    expect(bank.bsb(input)).toEqual({problem: `must be six digits as 123-456, got "${input}"`, kind: 'malformed'})
  })
})

describe('an account number', () => {
  it.each([
    ['012345678', '012345678'],
    [' 1 ', '1'],
    ['9'.repeat(20), '9'.repeat(20)],
  ])('%j is taken as %s, leading zeros kept', (input, value) => {
    expect(bank.accountNumber(input)).toEqual({value})
  })

  it.each(['', '0123-456', '12 34', '9'.repeat(21), '-1', '1e5'])('%j is refused', (input) => {
    expect(bank.accountNumber(input)).toEqual({problem: `must be digits only (at most 20), got "${input}"`, kind: 'malformed'})
  })
})

describe("a plan's numbers", () => {
  it.each([['0', 0], ['7', 7], ['31', 31], [' 05 ', 5]])('anniversary %j is %d', (input, value) => {
    expect(bank.anniversary(input)).toEqual({value})
  })

  it.each(['32', '-1', '1.5', '', 'Friday'])('anniversary %j is refused', (input) => {
    expect(bank.anniversary(input)).toEqual({problem: `must be a whole number from 0 to 31 (a day of the week, 1 Monday, or of the month), got "${input}"`, kind: 'malformed'})
  })

  it('a setup fee may be 0, never below or a fraction', () => {
    expect(bank.fee('0')).toEqual({value: 0})
    expect(bank.fee('250')).toEqual({value: 250})
    for (const input of ['-1', '2.50', '99999999999999999999']) expect(bank.fee(input)).toEqual({problem: `must be a whole number of the minor unit, 0 or more, got "${input}"`, kind: 'malformed'})
  })

  it('a count is 1 or more', () => {
    expect(bank.count('1')).toEqual({value: 1})
    for (const input of ['0', '-3', '2.0', 'five']) expect(bank.count(input)).toEqual({problem: `must be a whole number, 1 or more, got "${input}"`, kind: 'malformed'})
  })
})

describe('cents and dollars', () => {
  it.each([
    [4242, 42.42],
    [1000, 10],
    [1, 0.01],
    [0, 0],
    [10_001, 100.01],
  ])('%d cents are %d dollars, and back', (cents, dollars) => {
    expect(bank.dollarsOf(cents)).toBe(dollars)
    expect(bank.centsOf(dollars)).toBe(cents)
  })

  it("dollars the gateway wrote with a float's error come back as the cents meant", () => {
    expect(bank.centsOf(0.1 + 0.2)).toBe(30)
    expect(bank.centsOf(42.419_999_999_999_99)).toBe(4242)
  })

  it('every whole number of cents a debit may be survives the round trip', () => {
    // A trillion dollars and more: beyond any debit, still exact both ways.
    fc.assert(fc.property(fc.integer({min: 0, max: 1e14}), (cents) => bank.centsOf(bank.dollarsOf(cents)) === cents))
  })
})
