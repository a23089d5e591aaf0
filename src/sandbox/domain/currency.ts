/** The currencies the gateway lists for the sandbox merchant, in its order (gateway-beyond.md §14.3, the 2017-2018 builds' text). */
const PERMITTED_CURRENCIES = ['USD', 'AUD', 'NZD', 'GBP', 'EUR', 'JPY', 'CHF', 'CAD', 'HKD', 'SGD'] as const

/** Every official library defaults to AUD (gateway-notes.md). */
export const DEFAULT_CURRENCY = 'AUD'

const ZERO_DECIMAL_CURRENCIES = new Set(['JPY'])

export const isPermittedCurrency = (currency: string) => (PERMITTED_CURRENCIES as readonly string[]).includes(currency)

export const currencyNotPermitted = (currency: string) =>
  `Currency ${currency} is not valid for this merchant. Permitted currencies: ${PERMITTED_CURRENCIES.slice(0, -1).join(', ')}, and ${PERMITTED_CURRENCIES.at(-1)}`

/** The amount in major units, as the gateway's float `decimal_amount`. */
export function decimalAmount(amount: number, currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? amount : amount / 100
}
