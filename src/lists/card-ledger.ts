import {outcomeOf} from '../money/decide.js'
import {isVoided} from '../money/follow-up.js'
import {matchesFilters} from './filters.js'
import {type MadeFor, matchRefunds, type RefundedState} from './refund-match.js'
import {recordInstant} from './window.js'

type GwRecord = Record<string, unknown>
/** Which purchase gw recorded making each of these refunds (by id) for: its batch journals and its single refund creates. */
export type Made = (refundIds: ReadonlySet<string>) => Promise<ReadonlyMap<string, MadeFor>>

interface Entry {
  refund: GwRecord
  at: number
  size: number
  made?: MadeFor
}

/**
 * The refunds on one card (lists/refund-index-file.ts indexCard) sorted by time, each with what gw
 * recorded making it for, kept for a whole command: what is left of a purchase on the card is then
 * decided from the few refunds that decide it (decide()), not by matching every refund on the card
 * again for each purchase, which grew with the card's history and a batch's rows alike.
 */
export class CardLedger {
  /** Oldest first: the newest are added at the end. */
  private readonly entries: Entry[] = []
  /** Of those, the approved ones gw made for no purchase it recorded, nor as unmatched: the refunds that may be any purchase's. */
  private readonly open: Entry[] = []
  /** The ones gw made, by the purchase as it recorded it (its id, else as the request named it). */
  private readonly made = new Map<string, Entry[]>()
  private readonly ids = new Map<string, Entry>()

  /** `since`: every refund on the card made since then is in it. */
  constructor(readonly since: number) {}

  /** Adds refunds (a command's own, a page read later), each with what gw says it made it for; one in it already is replaced (read again, voided since). */
  async add(refunds: readonly GwRecord[], made: Made | undefined): Promise<void> {
    const fresh = refunds.filter((refund) => typeof refund.id === 'string' && this.ids.get(refund.id)?.refund !== refund)
    if (fresh.length === 0) return
    const ids = new Set(fresh.map((refund) => refund.id as string))
    const said = (await made?.(ids)) ?? new Map<string, MadeFor>()
    // Newest first, as the index and a command give them: placed from the oldest, each at the end of those before it.
    for (const refund of fresh.toReversed()) {
      const id = refund.id as string
      const before = this.ids.get(id)
      if (before?.refund === refund) continue
      if (before) this.remove(before)
      const entry: Entry = {refund, at: recordInstant(refund.transaction_date) ?? -Infinity, size: typeof refund.amount === 'number' ? Math.abs(refund.amount) : 0, made: said.get(id)}
      this.ids.set(id, entry)
      placed(this.entries, entry)
      if (entry.made) {
        const key = entry.made.purchaseId ?? entry.made.transactionId
        this.made.set(key, [...(this.made.get(key) ?? []), entry])
      } else if (outcomeOf(refund) === true && !isVoided(refund) && refund.standalone !== true) placed(this.open, entry)
    }
  }

  /**
   * What is left of the purchase, from the refunds that decide it: those gw made for it, and of
   * those that may be its own, the newest until they come to all it could have left. The one
   * matcher (matchRefunds) over them gives what is refunded and left, for certain and at least,
   * as over every refund on the card; how many of each kind there are it does not count.
   */
  decide(purchase: GwRecord, since: number): RefundedState {
    const onIt = (entry: Entry) => entry.at >= since && matchesFilters({purchase}, entry.refund)
    const ours = [...new Set([purchase.id, purchase.reference].flatMap((key) => (typeof key === 'string' ? (this.made.get(key) ?? []) : [])))].filter(onIt)
    const madeMap = new Map(ours.map((entry) => [entry.refund.id as string, entry.made!]))
    const known = {made: madeMap, others: new Map<string, GwRecord>()}
    const room = matchRefunds(purchase, ours.map(({refund}) => refund), known).state.left
    const mayBe: GwRecord[] = []
    let sum = 0
    for (let index = this.open.length - 1; index >= 0 && sum < room; index--) {
      const entry = this.open[index]!
      if (entry.at < since) break
      if (entry.size > room || !onIt(entry)) continue
      mayBe.push(entry.refund)
      sum += entry.size
    }
    return matchRefunds(purchase, [...ours.map(({refund}) => refund), ...mayBe], known).state
  }

  private remove(entry: Entry): void {
    const drop = (list: Entry[] | undefined) => list?.includes(entry) && list.splice(list.indexOf(entry), 1)
    drop(this.entries)
    drop(this.open)
    if (entry.made) drop(this.made.get(entry.made.purchaseId ?? entry.made.transactionId))
  }
}

/** Puts an entry in its place by time, among equals after those there: at the end for the newest, found by halves otherwise. */
function placed(entries: Entry[], entry: Entry): void {
  if ((entries.at(-1)?.at ?? -Infinity) <= entry.at) {
    entries.push(entry)
    return
  }
  let [low, high] = [0, entries.length]
  while (low < high) {
    const middle = (low + high) >>> 1
    if (entries[middle]!.at <= entry.at) low = middle + 1
    else high = middle
  }
  entries.splice(low, 0, entry)
}
