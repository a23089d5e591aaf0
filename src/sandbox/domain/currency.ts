const PERMITTED_CURRENCIES = ['AUD', 'NZD', 'USD', 'GBP', 'EUR', 'JPY', 'SGD'] as const

/** Every official library defaults to AUD (gateway-notes.md). */
export const DEFAULT_CURRENCY = 'AUD'

const ZERO_DECIMAL_CURRENCIES = new Set(['JPY'])

export const isPermittedCurrency = (currency: string) => (PERMITTED_CURRENCIES as readonly string[]).includes(currency)

export const currencyNotPermitted = (currency: string) =>
  `Currency ${currency} is not valid for this merchant. Permitted currencies: ${PERMITTED_CURRENCIES.join(', ')}`

/** The amount in major units, as the gateway's float `decimal_amount`. */
export function decimalAmount(amount: number, currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? amount : amount / 100
}

