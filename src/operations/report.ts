import type {WalkState} from '../api/paging.js'
import {centsOf} from '../api/schemas/bank-rules.js'
import {NotFoundError} from '../errors.js'
import {favourMemory} from '../lib/favour-memory.js'
import {walkCollector} from '../lib/memory.js'
import {dayText, MACHINE_CALENDAR} from '../lib/calendar.js'
import {daysFrom, recordDay, type Window, withinWindow} from '../lists/window.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {listRecords} from './lists.js'
import {purchaseMoved, refundMoved} from './money-moved.js'
import {NO_SETTLEMENT, type SettlementDays, settlingTotals} from './settlement.js'

export {settlementDaysOf} from './settlement.js'

/** One day's totals in one currency (amounts in the minor unit, as the gateway's). */
export interface DayTotals extends GwRecord {
  day: string
  currency: string
  /** Approved purchases that took money (captured, in whole or part; not voided), and what was captured of them. */
  purchases_approved: number
  purchases_approved_amount: number
  /** Approved authorizations not captured (yet): money held on the card, none taken, so not in net. */
  purchases_uncaptured: number
  purchases_uncaptured_amount: number
  /** Voided purchases: they took nothing. */
  purchases_voided: number
  purchases_declined: number
  /** Approved refunds not voided, and their sum. */
  refunds: number
  refunds_amount: number
  /** Voided refunds: they gave nothing back. */
  refunds_voided: number
  /** Payments of payment plans that settled that day: each is an approved purchase too, counted among them, and apart here. */
  plan_payments: number
  plan_payments_amount: number
  /** Direct debits the bank completed that day (their process_date), in cents as every amount in gw: money taken, in net. */
  direct_debits: number
  direct_debits_amount: number
  /** What was captured of approved purchases, and completed direct debits, less refunds: voids and open authorizations move nothing. */
  net: number
  /** With `settlement`: what the gateway settles that day (settlement.ts settlingOf), the day being its settlement date. */
  settling?: number
  settling_amount?: number
  settling_voided?: number
}

/** The lists a report reads. */
export type ReportResource = 'purchases' | 'refunds' | 'paymentPlans' | 'directDebits'

/** A debit carries no currency: the gateway debits Australian bank accounts, in dollars. */
const DEBIT_CURRENCY = 'AUD'

/**
 * The operator's totals for a window, per day (the window's calendar: a local gateway's, else this
 * machine's, as --from and --to read a bare date) and currency, each purchase and refund on the day it was made, for the
 * money it moved (money-moved.ts): purchases approved and what was captured of them, authorizations
 * not captured yet and what they hold, voided and declined purchases, refunds approved and their
 * sum, voided refunds, and what is left (net: money moved alone). Payment plans' payments are purchases
 * too: counted among them, and apart, on the day the attempt that settled them was made. Direct
 * debits the bank completed are counted on their process date, their dollars in cents, and add to
 * net. Every day of the window has a row, empty days too (fillDays). The lists are streamed at
 * once; only the totals are kept.
 */
export async function reportTotals(
  window: Window,
  deps: Pick<Deps, 'client'>,
  {
    concurrency,
    maxPages,
    onState,
    includeSamples = false,
    onSampleLeftOut,
    onUnlisted,
    settlement,
    now,
  }: {
    concurrency: number
    maxPages?: number
    onState?: (resource: ReportResource, state: WalkState) => void
    /** Count the purchases gw sandbox trigger made (metadata gw_sample), left out otherwise, each told to onSampleLeftOut. */
    includeSamples?: boolean
    onSampleLeftOut?: (record: GwRecord) => void
    /** Told when the gateway has no list of payment plans or direct debits (it answered the list 404): none are counted apart. */
    onUnlisted?: (resource: 'paymentPlans' | 'directDebits') => void
    /** The settlement days to look up too (GET /v1.0/purchases/settlement): each row then says what settles on its day. */
    settlement?: SettlementDays
    /** The gateway's now: every day of the window up to its today gets a row (fillDays). */
    now?: Date
  },
): Promise<DayTotals[]> {
  const totals = new Map<string, DayTotals>()
  const totalsAt = (time: unknown, currency: unknown): DayTotals | undefined => {
    const day = recordDay(time, window.calendar)
    return day === undefined ? undefined : totalsOn(day, currency)
  }
  const totalsOn = (day: string, currency: unknown): DayTotals => {
    const code = typeof currency === 'string' ? currency.toUpperCase() : ''
    const key = `${day} ${code}`
    let entry = totals.get(key)
    if (!entry) {
      entry = {day, currency: code, purchases_approved: 0, purchases_approved_amount: 0, purchases_uncaptured: 0, purchases_uncaptured_amount: 0, purchases_voided: 0, purchases_declined: 0, refunds: 0, refunds_amount: 0, refunds_voided: 0, plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: 0}
      totals.set(key, entry)
    }
    return entry
  }
  // Pages counted and let go: their garbage kept small as a printed walk's is (output/render.ts).
  const pageCounted = walkCollector()
  const walk = async (resource: ReportResource, window: Window, take: (record: GwRecord) => void) => {
    const {pages} = listRecords({resource, window, filters: {}, concurrency, maxPages, onState: onState && ((state) => onState(resource, state))}, deps)
    for await (const page of pages) {
      for (const record of page) take(record)
      favourMemory()
      pageCounted()
    }
  }
  const each = (resource: 'purchases' | 'refunds', count: (entry: DayTotals, record: GwRecord) => void) =>
    walk(resource, window, (record) => {
      if (!includeSamples && isSample(record)) {
        onSampleLeftOut?.(record)
        return
      }
      const entry = totalsAt(record.transaction_date, record.currency)
      if (entry) count(entry, record)
    })
  /** Plans and debits are read whole (neither list is dated by when it settled), each counted on the day it did; a gateway without the list counts none. */
  const unlessUnlisted = async (resource: 'paymentPlans' | 'directDebits', take: (record: GwRecord) => void) => {
    try {
      await walk(resource, {}, take)
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err
      onUnlisted?.(resource)
    }
  }
  await Promise.all([
    each('purchases', (entry, record) => {
      const moved = purchaseMoved(record)
      switch (moved?.as) {
        case 'captured':
          entry.purchases_approved++
          entry.purchases_approved_amount += moved.amount
          entry.net += moved.amount
          break
        case 'uncaptured':
          entry.purchases_uncaptured++
          entry.purchases_uncaptured_amount += moved.amount
          break
        case 'voided':
          entry.purchases_voided++
          break
        case 'declined':
          entry.purchases_declined++
      }
    }),
    each('refunds', (entry, record) => {
      const moved = refundMoved(record)
      if (moved?.as === 'voided') entry.refunds_voided++
      if (moved?.as !== 'refunded') return
      entry.refunds++
      entry.refunds_amount += moved.amount
      entry.net -= moved.amount
    }),
    unlessUnlisted('paymentPlans', (plan) => {
      for (const {time, currency, amount} of settledPayments(plan)) {
        if (!withinWindow(window, time)) continue
        const entry = totalsAt(time, currency)
        if (!entry) continue
        entry.plan_payments++
        entry.plan_payments_amount += amount
      }
    }),
    unlessUnlisted('directDebits', (debit) => {
      if (debit.status !== 'Completed' || typeof debit.amount !== 'number' || !withinWindow(window, debit.process_date)) return
      const entry = totalsAt(debit.process_date, DEBIT_CURRENCY)
      if (!entry) return
      const cents = centsOf(debit.amount)
      entry.direct_debits++
      entry.direct_debits_amount += cents
      entry.net += cents
    }),
    settlement &&
      settlingTotals(settlement, deps).then((settling) => {
        for (const {day, currency, ...counts} of settling.values()) Object.assign(totalsOn(day, currency), counts)
      }),
  ])
  fillDays(totals, window, now, totalsOn)
  // Asked for, every row says what settles on its day, none included.
  if (settlement) for (const entry of totals.values()) for (const [field, none] of Object.entries(NO_SETTLEMENT)) (entry as GwRecord)[field] ??= none
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return [...totals.values()].sort((a, b) => order(a.day, b.day) || order(a.currency, b.currency))
}

/**
 * Every day of the window a row in each currency the window saw (in '' where it saw none), up to
 * today: no takings are made on a day yet to come. A row of zeros where nothing moved. A window
 * without a first day starts at its first row's; without `now` or a last day, it ends at its last row's.
 */
function fillDays(totals: Map<string, DayTotals>, window: Window, now: Date | undefined, totalsOn: (day: string, currency: string) => DayTotals): void {
  const calendar = window.calendar ?? MACHINE_CALENDAR
  const rows = [...totals.values()]
  const dated = rows.map((row) => row.day).sort()
  const end = now !== undefined && (window.to === undefined || window.to > now) ? now : window.to
  const first = window.from ? dayText(calendar, window.from) : dated[0]
  const last = end ? dayText(calendar, end) : dated.at(-1)
  if (first === undefined || last === undefined) return
  const currencies = [...new Set(rows.map((row) => row.currency))]
  for (const day of daysFrom(first, last)) for (const currency of currencies.length > 0 ? currencies : ['']) totalsOn(day, currency)
}

/** A plan's completed payments, each as the attempt that settled it: when, in what currency, how much. */
export function settledPayments(plan: GwRecord): {time: string; currency: unknown; amount: number}[] {
  const payments = Array.isArray(plan.payments) ? (plan.payments as GwRecord[]) : []
  return payments.flatMap((payment) => {
    if (payment.status !== 'Completed' || !Array.isArray(payment.records)) return []
    const settled = (payment.records as GwRecord[]).find((attempt) => attempt.successful === true)
    if (settled === undefined || typeof settled.transaction_date !== 'string' || typeof settled.amount !== 'number') return []
    return [{time: settled.transaction_date, currency: settled.currency ?? payment.currency ?? plan.currency, amount: Math.abs(settled.amount)}]
  })
}

/** A charge gw sandbox trigger made for a sample event: no sale, marked so in its metadata by the local gateway. */
export function isSample(record: GwRecord): boolean {
  const metadata = record.metadata
  return typeof metadata === 'object' && metadata !== null && Object.hasOwn(metadata, 'gw_sample')
}
