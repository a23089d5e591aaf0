import {describe, expect, it} from 'vitest'
import {currencyNotPermitted, decimalAmount, isPermittedCurrency} from '../../../src/sandbox/domain/currency.js'

describe('decimalAmount', () => {
  it.each([
    [1000, 'AUD', 10],
    [10051, 'USD', 100.51],
    [5, 'EUR', 0.05],
    [1000, 'JPY', 1000],
  ])('%i %s → %d', (amount, currency, decimal) => {
    expect(decimalAmount(amount, currency)).toBe(decimal)
  })
})

describe('currencies', () => {
  it.each(['AUD', 'NZD', 'USD', 'GBP', 'EUR', 'JPY', 'SGD', 'CHF', 'CAD', 'HKD'])('%s is permitted', (currency) => {
    expect(isPermittedCurrency(currency)).toBe(true)
  })

  it('names the permitted ones when refusing another, in the recorded words', () => {
    expect(isPermittedCurrency('XYZ')).toBe(false)
    expect(currencyNotPermitted('XYZ')).toBe(
      'Currency XYZ is not valid for this merchant. Permitted currencies: USD, AUD, NZD, GBP, EUR, JPY, CHF, CAD, HKD, and SGD',
    )
  })
})
