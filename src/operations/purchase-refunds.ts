import type {ListOrder} from '../api/list-order.js'
import type {WalkState} from '../api/paging.js'
import type {Made} from '../lists/card-ledger.js'
import type {RefundBook} from '../lists/refund-book.js'
import {derivationBase, derivedFrom, type MadeFor, type Matched, matchRefunds, type RefundedState} from '../lists/refund-match.js'
import {recordInstant, type Window, withinWindow} from '../lists/window.js'
import {sameCard} from '../money/decide.js'
import type {GwRecord} from '../api/schemas/record.js'
import {matchesFilters} from '../lists/filters.js'

export interface RefundsOfRequest {
  /** The window asked for; it starts no earlier than the purchase, so only the pages since it are read. */
  window?: Window
  /** The order the refunds are read in, which orders those that fit equally well; newest first by default. */
  order?: ListOrder
  concurrency: number
  made?: Made
  maxPages?: number
  /** Told how the walk of the refunds stands as pages come (progress on a terminal). */
  onState?: (state: WalkState) => void
  /** The merchant's refunds as the command knows them: gw's index, brought up to date once a command (lists/refund-book.ts). */
  book: RefundBook
}

/**
 * The refunds that may be of a purchase: those on its card (number and holder), of no more than
 * it, made since it, from gw's index of the merchant's refunds (lists/refund-book.ts: the gateway
 * asked only for what the index lacks), matched against it (lists/refund-match.ts), best fit first,
 * with what that makes refunded and left.
 */
export async function refundsOfPurchase(purchase: GwRecord, request: RefundsOfRequest): Promise<{matched: Matched[]; state: RefundedState}> {
  const since = recordInstant(purchase.transaction_date)
  const window: Window = {...request.window}
  if (since !== undefined && (window.from === undefined || window.from.getTime() < since)) window.from = new Date(since)
  const onCard = await request.book.onCard(purchase, window.from?.getTime(), {concurrency: request.concurrency, maxPages: request.maxPages, onState: request.onState})
  const newest = onCard.filter((refund) => withinWindow(window, refund.transaction_date) && matchesFilters({purchase}, refund))
  const found = request.order === 'oldest' ? newest.reverse() : newest
  const ids = new Set(found.map((refund) => refund.id).filter((id): id is string => typeof id === 'string'))
  const [made, others] = await Promise.all([request.made?.(ids) ?? new Map<string, MadeFor>(), otherPurchases(purchase, found, request.concurrency, request.book)])
  return matchRefunds(purchase, found, {made, others})
}

/**
 * What has been refunded of a purchase and what is left: from the gateway's own figure where its
 * record has one (`refunded_amount`), with nothing more asked; else from the refunds that may be of
 * it (`decisive`: those that decide what is left, for certain and at least, and no more).
 */
export async function refundedState(purchase: GwRecord, request: RefundsOfRequest & {decisive?: boolean}): Promise<RefundedState> {
  if (typeof purchase.refunded_amount === 'number') return matchRefunds(purchase, []).state
  // What is left alone (a refund held to it): decided from the refunds that decide it, its counts of each kind not made.
  if (request.decisive) return request.book.decide(purchase, recordInstant(purchase.transaction_date), request.made, {concurrency: request.concurrency, maxPages: request.maxPages, onState: request.onState})
  return (await refundsOfPurchase(purchase, request)).state
}

/**
 * The other purchases on the same card that some of these refunds' references derive from
 * (`order-9-R1`: `order-9`): those refunds are likely theirs. Each reference is asked of the gateway
 * once and kept in gw's index (RefundBook.purchasesNamed); one that cannot be looked up tells
 * nothing, and the refund stays a possible one.
 */
async function otherPurchases(purchase: GwRecord, refunds: GwRecord[], concurrency: number, book: RefundBook): Promise<Map<string, GwRecord>> {
  const ours = derivationBase(purchase)
  // Each reference, with the newest refund that may be its purchase's.
  const wanted = new Map<string, number>()
  for (const refund of refunds) {
    const base = derivedFrom(refund.reference)
    if (base !== undefined && base !== ours) wanted.set(base, Math.max(wanted.get(base) ?? -Infinity, recordInstant(refund.transaction_date) ?? Infinity))
  }
  const others = new Map<string, GwRecord>()
  for (const [base, other] of await book.purchasesNamed(wanted, concurrency)) {
    if (other.reference === base && other.id !== purchase.id && sameCard(other.card_number, purchase.card_number)) others.set(base, other)
  }
  return others
}
