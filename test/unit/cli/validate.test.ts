import {describe, expect, it} from 'vitest'
import {luhnValid} from '../../../src/api/schemas/card-rules.js'
import {expectThrow} from '../../expect-error.js'
import {UsageError} from '../../../src/errors.js'
import * as validate from '../../../src/cli/validate.js'

const today = new Date(2026, 10, 22)

describe('local validation', () => {
  it.each(['4242424242424242', '5123456789012346', '4005550000000001', '5555555555554444', '4557012345678902'])('Luhn accepts %s', (number) => {
    expect(luhnValid(number)).toBe(true)
  })

  it.each(['4242424242424241', '1234', 'abcdabcdabcdabcd', ''])('Luhn refuses %j', (number) => {
    expect(luhnValid(number)).toBe(false)
  })

  it.each([
    ['amount', () => validate.amount('amount', '1000'), 1000],
    ['card number with spaces', () => validate.cardNumber('card-number', '4242 4242-4242 4242'), '4242424242424242'],
    ['expiry this month', () => validate.cardExpiry('card-expiry', '11/2026', today), '11/2026'],
    ['currency lower case', () => validate.currency('currency', 'nzd'), 'NZD'],
    ['reference trimmed', () => validate.notBlank('reference', ' r1 '), 'r1'],
  ])('accepts %s', (_, run, expected) => {
    expect(run()).toBe(expected)
  })

  it.each([
    [() => validate.amount('amount', '10.5'), '--amount must be a positive whole number'],
    [() => validate.amount('amount', '-5'), '--amount must be a positive whole number'],
    [() => validate.amount('amount', '0'), '--amount must be greater than 0'],
    [() => validate.amount('amount', '99999999999999999999'), '--amount must be at most 2^53 - 1, the largest whole number gw holds exactly, got 99999999999999999999'],
    [() => validate.cardExpiry('card-expiry', '10/2026', today), '--card-expiry 10/2026 is in the past'],
    [() => validate.cardExpiry('card-expiry', '13/2030', today), '--card-expiry month must be 01 to 12, got 13 in "13/2030"'],
    [() => validate.cardExpiry('card-expiry', '30/12', today), '--card-expiry month must be 01 to 12, got 30 in "30/12"'],
    [() => validate.cardExpiry('card-expiry', '0/30', today), '--card-expiry month must be 01 to 12, got 0 in "0/30"'],
    [() => validate.cardExpiry('card-expiry', '10/26', today), '--card-expiry 10/2026 is in the past'],
    [() => validate.cardExpiry('card-expiry', '12/302', today), '--card-expiry must be MM/YY or MM/YYYY, got "12/302"'],
    [() => validate.cardExpiry('card-expiry', '2030-12', today), '--card-expiry must be MM/YY or MM/YYYY, got "2030-12"'],
    [() => validate.cardNumber('card-number', '4242424242424241'), '--card-number fails the Luhn check'],
    [() => validate.cvv('cvv', '12345'), '--cvv must be 3 or 4 digits'],
    [() => validate.currency('currency', 'dollars'), '--currency must be a three-letter ISO 4217 code'],
    [() => validate.notBlank('reference', '  '), '--reference must not be blank'],
  ])('refuses with exit 2: %s', (run, message) => {
    expect(run).toThrow(UsageError)
    expect(run).toThrow(message)
  })
})

// An expiry as card forms take it, MM/YY read as 20YY, is sent as the gateway takes it, MM/YYYY.
describe('an expiry as people type it', () => {
  it.each([
    ['12/30', '12/2030'],
    ['12/2030', '12/2030'],
    ['2/31', '02/2031'],
    [' 08 / 31 ', '08/2031'],
    ['11/26', '11/2026'],
    ['01/99', '01/2099'],
  ])('%j is sent as %s', (typed, sent) => {
    expect(validate.cardExpiry('card-expiry', typed, today)).toBe(sent)
  })

  it.each(['12/3', '1230', '12-30', '12/030', 'soon', ''])('%j is not an expiry', (typed) => {
    expectThrow(() => validate.cardExpiry('card-expiry', typed, today), UsageError, `--card-expiry must be MM/YY or MM/YYYY, got "${typed}"`)
  })

  it.each([['00/30', 0], ['13/30', 13], ['13/2030', 13]])('%j has no such month: the month is named as what is wrong, the year second', (typed, month) => {
    expectThrow(() => validate.cardExpiry('card-expiry', typed as string, today), UsageError, `--card-expiry month must be 01 to 12, got ${month} in "${typed}"`)
    expect(() => validate.cardExpiry('card-expiry', typed as string, today)).toThrow(expect.objectContaining({hint: 'The month comes first, then the year: --card-expiry 08/31 is August 2031.'}))
  })
})

describe('local validation of recurring fields', () => {
  it.each([
    ['daily', 'Daily'],
    ['WEEKLY', 'Weekly'],
    [' fortnightly ', 'Fortnightly'],
    ['Monthly', 'Monthly'],
    ['quarterly', 'Quarterly'],
    ['bi-annually', 'Bi-Annually'],
    ['annually', 'Annually'],
  ])('frequency %j is sent as %s', (input, expected) => {
    expect(validate.frequency('frequency', input)).toBe(expected)
  })

  it.each([
    ['2027-01-31', '2027-01-31'],
    ['2028-02-29', '2028-02-29'],
    [' 2027-12-01 ', '2027-12-01'],
  ])('date %j', (input, expected) => {
    expect(validate.date('start-date', input)).toBe(expected)
  })

  it.each([
    ['jane@example.com', 'jane@example.com'],
    [' j.citizen+gw@mail.example.com.au ', 'j.citizen+gw@mail.example.com.au'],
  ])('email %j', (input, expected) => {
    expect(validate.email('email', input)).toBe(expected)
  })

  it.each([
    [() => validate.frequency('frequency', 'yearly'), '--frequency must be one of Daily, Weekly, Fortnightly, Monthly, Quarterly, Bi-Annually, Annually, got "yearly"'],
    [() => validate.frequency('frequency', 'biannually'), '--frequency must be one of'],
    [() => validate.date('start-date', '2027-02-29'), '--start-date must be a date as YYYY-MM-DD, got "2027-02-29"'],
    [() => validate.date('start-date', '2027-04-31'), '--start-date must be a date as YYYY-MM-DD'],
    [() => validate.date('start-date', '31/01/2027'), '--start-date must be a date as YYYY-MM-DD'],
    [() => validate.date('to', '2027-1-5'), '--to must be a date as YYYY-MM-DD'],
    [() => validate.date('start-date', '2027-13-01'), '--start-date must be a date as YYYY-MM-DD'],
    [() => validate.email('email', 'jane'), '--email must be an email address, got "jane"'],
    [() => validate.email('email', 'jane@example'), '--email must be an email address'],
    [() => validate.email('email', 'ja ne@example.com'), '--email must be an email address'],
    [() => validate.email('email', '@example.com'), '--email must be an email address'],
  ])('refuses with exit 2: %s', (run, message) => {
    expect(run).toThrow(UsageError)
    expect(run).toThrow(message)
  })
})
