/**
 * Amounts are integers in the currency's minor unit. The number of decimals comes from the
 * currency (JPY has none, KWD three), so 1000 is "10.00 AUD" but "1000 JPY".
 */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency)
  if (exponent === undefined) {
    try {
      exponent = new Intl.NumberFormat('en', {style: 'currency', currency}).resolvedOptions().maximumFractionDigits ?? 2
    } catch {
      exponent = 2
    }
    exponents.set(currency, exponent)
  }
  return exponent
}

// Building an Intl.NumberFormat costs ~5 µs: a batch's progress and summary ask for every row.
const exponents = new Map<string, number>()

export function formatMinorUnits(amount: number, exponent: number): string {
  const negative = amount < 0
  const digits = String(Math.abs(Math.trunc(amount))).padStart(exponent + 1, '0')
  const whole = exponent === 0 ? digits : digits.slice(0, -exponent)
  const fraction = exponent === 0 ? '' : '.' + digits.slice(-exponent)
  return (negative ? '-' : '') + whole + fraction
}

/**
 * `1000, 'AUD'` → `10.00 AUD`; without a currency the amount shows with two decimals and no code.
 * `grouped` writes the thousands apart, `1,950.00 AUD`, as a summary of many rows shows its sums.
 */
export function formatMoney(amount: number, currency?: string | null, {grouped = false}: {grouped?: boolean} = {}): string {
  const major = formatMinorUnits(amount, currency ? currencyExponent(currency.toUpperCase()) : 2)
  const shown = grouped ? major.replace(/^(-?)(\d+)/, (_, sign: string, whole: string) => sign + whole.replace(/\B(?=(\d{3})+$)/g, ',')) : major
  return currency ? `${shown} ${currency.toUpperCase()}` : shown
}
