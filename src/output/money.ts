/**
 * Amounts are integers in the currency's minor unit. The number of decimals comes from the
 * currency (JPY has none, KWD three), so 1000 is "10.00 AUD" but "1000 JPY": ISO 4217's minor
 * units, from a table (MINOR_UNITS), every other code having 2.
 */
export function currencyExponent(currency: string): number {
  return MINOR_UNITS.get(currency) ?? 2
}

/**
 * ISO 4217's minor units where they are not 2 (list one, as amended to 2025). Not ICU's: its
 * digits are CLDR's for display, which differ from ISO's for a dozen currencies (HUF, IDR, COP,
 * IQD...) and from one Node to the next, and the first Intl.NumberFormat of a process costs ~30 ms.
 */
const MINOR_UNITS = new Map<string, number>([
  ...['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'].map((code) => [code, 0] as const),
  ...['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((code) => [code, 3] as const),
  ...['CLF', 'UYW'].map((code) => [code, 4] as const),
])

export function formatMinorUnits(amount: number, exponent: number): string {
  const negative = amount < 0
  const digits = String(Math.abs(Math.trunc(amount))).padStart(exponent + 1, '0')
  const whole = exponent === 0 ? digits : digits.slice(0, -exponent)
  const fraction = exponent === 0 ? '' : '.' + digits.slice(-exponent)
  return (negative ? '-' : '') + whole + fraction
}

/**
 * `1000, 'AUD'` → `10.00 AUD`; without a currency the amount shows with two decimals and no code.
 * One way everywhere, sums included (`22295.00 AUD` in a report and a batch's summary alike), and
 * never with thousands apart: as the live confirmation asks it typed, and as a script reads it.
 */
export function formatMoney(amount: number, currency?: string | null): string {
  const major = formatMinorUnits(amount, currency ? currencyExponent(currency.toUpperCase()) : 2)
  return currency ? `${major} ${currency.toUpperCase()}` : major
}
