import {outcomeOf} from '../money/decide.js'
import {isVoided} from '../money/follow-up.js'
import {matchesFilters} from './filters.js'
import {type MadeFor, matchRefunds, type RefundedState} from './refund-match.js'
import {recordInstant} from './window.js'
import type {GwRecord} from '../api/schemas/record.js'

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
  /** The approved ones, oldest first, that gw made for no purchase it recorded, nor as unmatched: the refunds that may be any purchase's. */
  private readonly open: Entry[] = []
  /** The ones gw made, by the purchase as it recorded it (its id, else as the request named it). */
  private readonly made = new Map<string, Entry[]>()
  private readonly ids = new Map<string, Entry>()

  /** `since`: every refund on the card made since then is in it. */
  constructor(readonly since: number) {}

  /**
   * Adds refunds (a command's own, a page read later), each with what gw says it made it for; one in
   * it already is replaced (read again, voided since). One without a date is none a purchase can
   * have: no list held to a window since a purchase gives it.
   */
  async add(refunds: readonly GwRecord[], made: Made | undefined): Promise<void> {
    const fresh = refunds.filter((refund) => typeof refund.id === 'string' && recordInstant(refund.transaction_date) !== undefined && this.ids.get(refund.id)?.refund !== refund)
    if (fresh.length === 0) return
    const said = (await made?.(new Set(fresh.map((refund) => refund.id as string)))) ?? new Map<string, MadeFor>()
    for (const refund of fresh) {
      const id = refund.id as string
      const before = this.ids.get(id)
      if (before) this.remove(before)
      const entry: Entry = {refund, at: recordInstant(refund.transaction_date)!, size: typeof refund.amount === 'number' ? Math.abs(refund.amount) : 0, made: said.get(id)}
      this.ids.set(id, entry)
      if (entry.made) {
        const key = entry.made.purchaseId ?? entry.made.transactionId
        const mades = this.made.get(key)
        if (mades) mades.push(entry)
        else this.made.set(key, [entry])
      } else if (outcomeOf(refund) === true && !isVoided(refund) && refund.standalone !== true) placed(this.open, entry)
    }
  }

  /**
   * What is left of the purchase, from the refunds that decide it: those gw made for it, and of
   * those that may be its own, the newest until they come to all it could have left. The one
   * matcher (matchRefunds) over them gives what is refunded and left, for certain and at least,
   * as over every refund on the card; how many of each kind there are it does not count.
   * `since`: the purchase's time; the refunds before it are never read.
   */
  decide(purchase: GwRecord, since: number): RefundedState {
    const onIt = (entry: Entry) => matchesFilters({purchase}, entry.refund)
    const keys = new Set([purchase.id, purchase.reference].filter((key): key is string => typeof key === 'string'))
    const ours = [...keys].flatMap((key) => this.made.get(key) ?? []).filter(onIt)
    const known = {made: new Map(ours.map((entry) => [entry.refund.id as string, entry.made!])), others: new Map<string, GwRecord>()}
    const certain = matchRefunds(purchase, ours.map(({refund}) => refund), known).state
    const room = certain.left
    const mayBe: GwRecord[] = []
    let sum = 0
    for (let index = this.open.length - 1; index >= 0 && sum < room; index--) {
      const entry = this.open[index]!
      if (entry.at < since) break
      if (entry.size > room || !onIt(entry)) continue
      mayBe.push(entry.refund)
      sum += entry.size
    }
    // Stryker disable next-line ConditionalExpression: a shortcut (a batch's every row); the same refunds matched again make the same state.
    return mayBe.length === 0 ? certain : matchRefunds(purchase, [...ours.map(({refund}) => refund), ...mayBe], known).state
  }

  private remove(entry: Entry): void {
    const list = entry.made ? this.made.get(entry.made.purchaseId ?? entry.made.transactionId)! : this.open
    const at = list.indexOf(entry)
    if (at >= 0) list.splice(at, 1)
  }
}

/** Puts an entry in its place by time (refunds of one second in any order: it is the time a scan stops at), found by halves. */
function placed(entries: Entry[], entry: Entry): void {
  let [low, high] = [0, entries.length]
  while (low < high) {
    const middle = (low + high) >>> 1
    if (entries[middle]!.at <= entry.at) low = middle + 1
    else high = middle
  }
  entries.splice(low, 0, entry)
}
