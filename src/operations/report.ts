import type {WalkState} from '../api/paging.js'
import {outcomeOf} from '../money/decide.js'
import {recordInstant, type Window} from '../lists/window.js'
import type {Deps, GwRecord} from './deps.js'
import {listRecords} from './lists.js'

/** One day's totals in one currency (amounts in the minor unit, as the gateway's). */
export interface DayTotals extends GwRecord {
  day: string
  currency: string
  purchases_approved: number
  purchases_approved_amount: number
  purchases_declined: number
  refunds: number
  refunds_amount: number
  /** Approved purchases less refunds. */
  net: number
}

/**
 * The operator's totals for a window, per day (this machine's calendar, as --from and
 * --to read a bare date) and currency: purchases approved and their sum, purchases declined,
 * refunds approved and their sum (a refund's amount is positive from the live gateway, negative in
 * the contract: either counts the same), and what is left. Both lists are streamed at once; only
 * the totals are kept.
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
  }: {
    concurrency: number
    maxPages?: number
    onState?: (resource: 'purchases' | 'refunds', state: WalkState) => void
    /** Count the purchases gw sandbox trigger made (metadata gw_sample), left out otherwise, each told to onSampleLeftOut. */
    includeSamples?: boolean
    onSampleLeftOut?: (record: GwRecord) => void
  },
): Promise<DayTotals[]> {
  const totals = new Map<string, DayTotals>()
  const totalsOf = (record: GwRecord): DayTotals | undefined => {
    const day = localDay(record.transaction_date)
    if (day === undefined) return undefined
    const currency = typeof record.currency === 'string' ? record.currency.toUpperCase() : ''
    const key = `${day} ${currency}`
    let entry = totals.get(key)
    if (!entry) {
      entry = {day, currency, purchases_approved: 0, purchases_approved_amount: 0, purchases_declined: 0, refunds: 0, refunds_amount: 0, net: 0}
      totals.set(key, entry)
    }
    return entry
  }
  const each = async (resource: 'purchases' | 'refunds', count: (entry: DayTotals, amount: number, approved: boolean | undefined) => void) => {
    const {pages} = listRecords({resource, window, filters: {}, concurrency, maxPages, onState: onState && ((state) => onState(resource, state))}, deps)
    for await (const page of pages) {
      for (const record of page) {
        if (!includeSamples && isSample(record)) {
          onSampleLeftOut?.(record)
          continue
        }
        const entry = totalsOf(record)
        if (entry && typeof record.amount === 'number') count(entry, Math.abs(record.amount), outcomeOf(record))
      }
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
  ])
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return [...totals.values()].sort((a, b) => order(a.day, b.day) || order(a.currency, b.currency))
}

/** A charge gw sandbox trigger made for a sample event: no sale, marked so in its metadata by the local gateway. */
export function isSample(record: GwRecord): boolean {
  const metadata = record.metadata
  return typeof metadata === 'object' && metadata !== null && Object.hasOwn(metadata, 'gw_sample')
}

/** A record's time as a day of this machine's calendar (`2026-11-17`). */
function localDay(time: unknown): string | undefined {
  const instant = recordInstant(time)
  if (instant === undefined) return undefined
  const day = new Date(instant)
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`
}
