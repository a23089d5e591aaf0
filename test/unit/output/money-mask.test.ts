import {describe, expect, it} from 'vitest'
import {currencyExponent, formatMoney} from '../../../src/output/money.js'
import {maskCardNumber, redact, redactText} from '../../../src/safety/redact.js'

describe('formatMoney', () => {
  it.each([
    [1000, 'AUD', '10.00 AUD'],
    [5, 'aud', '0.05 AUD'],
    [-1250, 'AUD', '-12.50 AUD'],
    [1000, 'JPY', '1000 JPY'],
    [1000, 'KWD', '1.000 KWD'],
    [123456789, 'USD', '1234567.89 USD'],
    [1000, undefined, '10.00'],
    [1000, 'XYZ', '10.00 XYZ'],
    // ISO 4217's minor units, where ICU's display digits differ (and differ between Nodes).
    [1000, 'IQD', '1.000 IQD'],
    [1000, 'HUF', '10.00 HUF'],
    [1000, 'IDR', '10.00 IDR'],
    [1000, 'CLF', '0.1000 CLF'],
    [1000, 'constructor', '10.00 CONSTRUCTOR'],
  ])('%i %s → %s', (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected)
  })

  it.each([
    [2229500, 'AUD', '22295.00 AUD'],
    [-123456789, 'USD', '-1234567.89 USD'],
    [1234567, 'JPY', '1234567 JPY'],
    [100000000, undefined, '1000000.00'],
  ])('sums one way, as every amount: no thousands apart: %i %s → %s', (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected)
  })
})

describe('currencyExponent', () => {
  it("agrees with ICU on every currency the gateway permits and most others: where they differ, ISO 4217's minor units", () => {
    // Where CLDR's display digits are not ISO's minor units (Node 24's ICU; Node 22's differs again).
    const notIso = new Set(['AFN', 'ALL', 'COP', 'HUF', 'IDR', 'IQD', 'IRR', 'KPW', 'LAK', 'LBP', 'MGA', 'MMK', 'PKR', 'RSD', 'SLL', 'SOS', 'SYP', 'YER'])
    for (const currency of Intl.supportedValuesOf('currency').filter((code) => !notIso.has(code))) {
      expect([currency, currencyExponent(currency)]).toEqual([currency, new Intl.NumberFormat('en', {style: 'currency', currency}).resolvedOptions().maximumFractionDigits])
    }
    expect(['JPY', 'KWD', 'UYW', 'AUD', 'HUF'].map(currencyExponent)).toEqual([0, 3, 4, 2, 2])
  })
})

describe('masking', () => {
  it('keeps the first six and last four digits', () => {
    expect(maskCardNumber('5123456789012346')).toBe('512345XXXXXX2346')
    expect(maskCardNumber('4242 4242 4242 4242')).toBe('424242XXXXXX4242')
    expect(maskCardNumber('123')).toBe('XXX')
  })

  it('leaves CVVs and secrets out and masks card numbers at any depth, every other field kept in its order', () => {
    const masked = redact({card_number: '4242424242424242', cvv: '123', card: {number: '5123456789012346', cvv: '999'}, hooks: [{authentication_password: 'p', id: 'h'}], amount: 10})
    expect(masked).toStrictEqual({card_number: '424242XXXXXX4242', card: {number: '512345XXXXXX2346'}, hooks: [{id: 'h'}], amount: 10})
    expect(Object.keys(masked)).toEqual(['card_number', 'card', 'hooks', 'amount'])
  })

  it('masks long digit runs in a body that is not JSON', () => {
    expect(redactText('card 4242424242424242 failed')).toBe('card 424242XXXXXX4242 failed')
  })
})
