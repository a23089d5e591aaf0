import type {WalkState} from '../api/paging.js'
import {centsOf} from '../api/schemas/bank-rules.js'
import {NotFoundError} from '../errors.js'
import {outcomeOf} from '../money/decide.js'
import {type Window, withinWindow} from '../lists/window.js'
import type {Deps, GwRecord} from './deps.js'
import {listRecords} from './lists.js'
import {localDay, NO_SETTLEMENT, type SettlementDays, settlingTotals} from './settlement.js'

export {settlementDaysOf} from './settlement.js'

/** One day's totals in one currency (amounts in the minor unit, as the gateway's). */
export interface DayTotals extends GwRecord {
  day: string
  currency: string
  purchases_approved: number
  purchases_approved_amount: number
  purchases_declined: number
  refunds: number
  refunds_amount: number
  /** Payments of payment plans that settled that day: each is an approved purchase too, counted among them, and apart here. */
  plan_payments: number
  plan_payments_amount: number
  /** Direct debits the bank completed that day (their process_date), in cents as every amount in gw: money taken, in net. */
  direct_debits: number
  direct_debits_amount: number
  /** Approved purchases and completed direct debits, less refunds. */
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
 * The operator's totals for a window, per day (this machine's calendar, as --from and
 * --to read a bare date) and currency: purchases approved and their sum, purchases declined,
 * refunds approved and their sum (a refund's amount is positive from the live gateway, negative in
 * the contract: either counts the same), and what is left. Payment plans' payments are purchases
 * too: counted among them, and apart, on the day the attempt that settled them was made. Direct
 * debits the bank completed are counted on their process date, their dollars in cents, and add to
 * net. The lists are streamed at once; only the totals are kept.
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
  },
): Promise<DayTotals[]> {
  const totals = new Map<string, DayTotals>()
  const totalsAt = (time: unknown, currency: unknown): DayTotals | undefined => {
    const day = localDay(time)
    return day === undefined ? undefined : totalsOn(day, currency)
  }
  const totalsOn = (day: string, currency: unknown): DayTotals => {
    const code = typeof currency === 'string' ? currency.toUpperCase() : ''
    const key = `${day} ${code}`
    let entry = totals.get(key)
    if (!entry) {
      entry = {day, currency: code, purchases_approved: 0, purchases_approved_amount: 0, purchases_declined: 0, refunds: 0, refunds_amount: 0, plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: 0}
      totals.set(key, entry)
    }
    return entry
  }
  const walk = async (resource: ReportResource, window: Window, take: (record: GwRecord) => void) => {
    const {pages} = listRecords({resource, window, filters: {}, concurrency, maxPages, onState: onState && ((state) => onState(resource, state))}, deps)
    for await (const page of pages) for (const record of page) take(record)
  }
  const each = (resource: 'purchases' | 'refunds', count: (entry: DayTotals, amount: number, approved: boolean | undefined) => void) =>
    walk(resource, window, (record) => {
      if (!includeSamples && isSample(record)) {
        onSampleLeftOut?.(record)
        return
      }
      const entry = totalsAt(record.transaction_date, record.currency)
      if (entry && typeof record.amount === 'number') count(entry, Math.abs(record.amount), outcomeOf(record))
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
    each('purchases', (entry, amount, approved) => {
      if (approved === true) {
        entry.purchases_approved++
        entry.purchases_approved_amount += amount
        entry.net += amount
      } else if (approved === false) entry.purchases_declined++
    }),
    each('refunds', (entry, amount, approved) => {
      if (approved !== true) return
      entry.refunds++
      entry.refunds_amount += amount
      entry.net -= amount
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
  // Asked for, every row says what settles on its day, none included.
  if (settlement) for (const entry of totals.values()) for (const [field, none] of Object.entries(NO_SETTLEMENT)) (entry as GwRecord)[field] ??= none
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return [...totals.values()].sort((a, b) => order(a.day, b.day) || order(a.currency, b.currency))
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
