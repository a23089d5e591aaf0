import type {Calendar} from '../lib/calendar.js'
import {parseWindow, recordDay, type Window} from '../lists/window.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {purchaseMoved} from './money-moved.js'

/** The days of a settlement look-up, as `YYYY-MM-DD`, both included. */
export interface SettlementDays {
  from: string
  to: string
}

/** `2026-11-06` as the gateway's settlement look-up takes it, `2026/11/06` (gateway-beyond.md §8). */
export function settlementDate(day: string): string {
  return day.replaceAll('-', '/')
}

/**
 * The purchases whose settlement date falls in the days, both included (approved, captured in
 * part, voided and declined; never an authorization not captured), newest first, as the gateway
 * lists them in one answer (`GET /v1.0/purchases/settlement`).
 */
export async function settlement({from, to}: SettlementDays, {client}: Pick<Deps, 'client'>): Promise<GwRecord[]> {
  return (await client.purchases.settlement({from: settlementDate(from), to: settlementDate(to)})) ?? []
}

/**
 * The settlement days a report's window covers: the calendar days (the window's: a local
 * gateway's, else this machine's) from the window's first to its last (today when it runs until
 * now). Undefined for a window with no first day: the look-up needs both ends.
 */
export function settlementDaysOf(window: Window, now: Date): SettlementDays | undefined {
  const from = window.from && recordDay(window.from.toISOString(), window.calendar)
  const to = recordDay((window.to ?? now).toISOString(), window.calendar)
  return from === undefined || to === undefined ? undefined : {from, to}
}

/**
 * The settlement days `--on`, `--from` and `--to` name, read as a list's and a report's are
 * (lists/window.ts): today without any, --from alone up to today, --to alone that day alone.
 */
export function settlementDaysFor(flags: {on?: string; from?: string; to?: string}, now: Date, calendar?: Calendar): SettlementDays {
  const given = flags.on !== undefined || flags.from !== undefined || flags.to !== undefined
  const window = parseWindow(given ? flags : {on: 'today'}, now, calendar)
  return settlementDaysOf(window.from ? window : {...window, from: window.to}, now)!
}

/** A purchase the look-up lists that settles nothing and is no void: declined (settlingOf leaves it out). */
export function isDeclined(record: GwRecord): boolean {
  return purchaseMoved(record)?.as === 'declined'
}

/**
 * The look-up's purchases as `gw purchase settlement` lists them: a declined one, which the
 * gateway lists all the same, never among what reaches the bank unless asked for, and counted.
 */
export async function settling(days: SettlementDays, deps: Pick<Deps, 'client'>, {includeDeclined}: {includeDeclined: boolean}): Promise<{records: GwRecord[]; declined: number}> {
  const all = await settlement(days, deps)
  const records = includeDeclined ? all : all.filter((record) => !isDeclined(record))
  return {records, declined: all.filter(isDeclined).length}
}

/**
 * What a day's settlement holds in one currency, as `gw report --settlement` adds it to the day's
 * totals: the purchases whose money settles (`settling`, and the sum captured of them,
 * `settling_amount`), and those voided, listed under the day with nothing settling
 * (`settling_voided`).
 */
export interface SettlingTotals {
  settling: number
  settling_amount: number
  settling_voided: number
}

export const NO_SETTLEMENT: SettlingTotals = {settling: 0, settling_amount: 0, settling_voided: 0}

/**
 * How one record of the settlement look-up counts: gw's choices, made here alone (and said in
 * docs/sandbox-dialects.md), since gateway-beyond.md §8 shows the list but not what an operator
 * should add up of it:
 * - its day is the gateway's `settlement_date` as it is written, never moved to this machine's
 *   time zone: it is the bank's day, not a moment;
 * - a voided purchase (`message` `Voided`, whatever its `successful` says: the builds differ)
 *   settles nothing, and is counted apart;
 * - a declined one settles nothing, and is not counted (the gateway lists it all the same);
 * - an approved one settles what was captured of it (`captured_amount`), or its `amount` when the
 *   record has no `captured_amount` (a purchase captured at once, as the contract writes it), as
 *   gw report counts it (money-moved.ts);
 * - refunds are not in the look-up (it lists purchases only), so no refund is counted here.
 */
export function settlingOf(record: GwRecord): {day: string; currency: string; counts: 'settling' | 'voided'; amount: number} | undefined {
  const day = typeof record.settlement_date === 'string' ? /^\d{4}-\d{2}-\d{2}/.exec(record.settlement_date)?.[0] : undefined
  if (day === undefined) return undefined
  const currency = typeof record.currency === 'string' ? record.currency.toUpperCase() : ''
  const moved = purchaseMoved(record)
  if (moved?.as === 'voided') return {day, currency, counts: 'voided', amount: 0}
  return moved?.as === 'captured' ? {day, currency, counts: 'settling', amount: moved.amount} : undefined
}

/** The settlement look-up of the days added up per day and currency (settlingOf), keyed `DAY CURRENCY`. */
export async function settlingTotals(days: SettlementDays, deps: Pick<Deps, 'client'>): Promise<Map<string, {day: string; currency: string} & SettlingTotals>> {
  const totals = new Map<string, {day: string; currency: string} & SettlingTotals>()
  for (const record of await settlement(days, deps)) {
    const counted = settlingOf(record)
    if (!counted || counted.day < days.from || counted.day > days.to) continue
    const key = `${counted.day} ${counted.currency}`
    const entry = totals.get(key) ?? {day: counted.day, currency: counted.currency, ...NO_SETTLEMENT}
    if (counted.counts === 'voided') entry.settling_voided++
    else {
      entry.settling++
      entry.settling_amount += counted.amount
    }
    totals.set(key, entry)
  }
  return totals
}

/** What a list of the look-up's purchases comes to: per currency, how many settle and the sum captured of them; how many settle nothing. */
export interface SettlementSums {
  currencies: Map<string, {settling: number; amount: number}>
  voided: number
  declined: number
}

/** The look-up's purchases added up as settlingOf counts each, every currency apart: gw purchase settlement's total. */
export function settlementSums(records: readonly GwRecord[]): SettlementSums {
  const sums: SettlementSums = {currencies: new Map(), voided: 0, declined: 0}
  for (const record of records) {
    const counted = settlingOf(record)
    if (counted?.counts === 'voided') sums.voided++
    else if (counted) {
      const entry = sums.currencies.get(counted.currency) ?? {settling: 0, amount: 0}
      entry.settling++
      entry.amount += counted.amount
      sums.currencies.set(counted.currency, entry)
    } else if (isDeclined(record)) sums.declined++
  }
  return sums
}
