import {formatMoney} from './money.js'

/** `1950.00 AUD`; without a currency, the amount in major units, saying so: one unit in every summary. */
export function moneyText(amount: number, currency: string | undefined): string {
  return currency ? formatMoney(amount, currency) : `${formatMoney(amount)} (currency not known)`
}

/** Amounts added up per currency, as rows come: `1950.00 AUD; 30.00 NZD`. */
export class Tally {
  private readonly sums = new Map<string, number>()
  private unknown = 0

  add(amount: number | undefined, currency?: string): void {
    if (amount === undefined) this.unknown++
    else this.sums.set(currency ?? '', (this.sums.get(currency ?? '') ?? 0) + Math.abs(amount))
  }

  /** Whether any amount was known: a status of rows without amounts (invalid ones) has no money to show. */
  get anyKnown(): boolean {
    return this.sums.size > 0
  }

  /** In the same order however the rows finished: each currency in order of its code, an amount whose currency is not known after them. */
  text(): string {
    const parts = [...this.sums].sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b))).map(([currency, sum]) => moneyText(sum, currency || undefined))
    if (this.unknown > 0) parts.push(`${this.unknown} amount${this.unknown === 1 ? '' : 's'} not known`)
    return parts.join('; ')
  }
}

/** `1950.00 AUD; 30.00 NZD`: the rows' amounts added up per currency. */
export function totals(rows: {amount?: number; currency?: string}[]): string {
  const tally = new Tally()
  for (const row of rows) tally.add(row.amount, row.currency)
  return tally.text()
}
