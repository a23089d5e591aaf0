import type {ListOrder} from '../api/list-order.js'
import type {WalkState} from '../api/paging.js'
import {InterruptedError, ModeMismatchError} from '../errors.js'
import {inOrder} from '../lib/in-order.js'
import {derivationBase, derivedFrom, type MadeFor, type Matched, matchRefunds, type RefundedState} from '../lists/refund-match.js'
import {recordInstant, type Window} from '../lists/window.js'
import {sameCard} from '../money/decide.js'
import type {Deps, GwRecord} from './deps.js'
import {listRecords} from './lists.js'
import {matchesFilters, type RecordFilters} from '../lists/filters.js'

export interface RefundsOfRequest {
  /** The window asked for; it starts no earlier than the purchase, so only the pages since it are read. */
  window?: Window
  /** The order the refunds are read in, which orders those that fit equally well; newest first by default. */
  order?: ListOrder
  concurrency: number
  /** Which purchase gw recorded making each of these refunds (by id) for: its batch journals and its single refund creates. */
  made?: (refundIds: ReadonlySet<string>) => Promise<ReadonlyMap<string, MadeFor>>
  maxPages?: number
  /** Told how the walk of the refunds stands as pages come (progress on a terminal). */
  onState?: (state: WalkState) => void
  /** The walks of cards' refunds made so far for other purchases (purchase get of many ids): one serves every purchase on its card made since its own (cardWalks). */
  walks?: CardWalks
}

/**
 * Walks of the refunds on a card (its number and holder) since a purchase on it, made or under
 * way, kept for the purchases after it: `purchase get` of many ids on one card walks the card's
 * refunds once for all made since the first one walked, not once for each.
 */
export type CardWalks = {card: string; since: number; refunds: Promise<GwRecord[]>}[]

/**
 * The refunds that may be of a purchase: those on its card (number and holder), of no more than
 * it, made since it, read a page at a time and matched against it (lists/refund-match.ts), best fit
 * first, with what that makes refunded and left. Only these are held: the refunds on one card since
 * one purchase, never the whole list.
 */
export async function refundsOfPurchase(purchase: GwRecord, request: RefundsOfRequest, deps: Pick<Deps, 'client'>): Promise<{matched: Matched[]; state: RefundedState}> {
  const since = recordInstant(purchase.transaction_date)
  const window: Window = {...request.window}
  if (since !== undefined && (window.from === undefined || window.from.getTime() < since)) window.from = new Date(since)
  const walk = async (filters: RecordFilters) => {
    const listing = listRecords({resource: 'refunds', window, filters, order: request.order ?? 'newest', concurrency: request.concurrency, maxPages: request.maxPages, onState: request.onState}, deps)
    const found: GwRecord[] = []
    for await (const page of listing.pages) found.push(...page)
    return found
  }
  const found = request.walks && request.window === undefined ? await sharedWalk(purchase, request.walks, window.from?.getTime() ?? -Infinity, walk) : await walk({purchase})
  const ids = new Set(found.map((refund) => refund.id).filter((id): id is string => typeof id === 'string'))
  const [made, others] = await Promise.all([request.made?.(ids) ?? new Map<string, MadeFor>(), otherPurchases(purchase, found, request.concurrency, deps)])
  return matchRefunds(purchase, found, {made, others})
}

/**
 * The refunds that may be of a purchase, from a walk of its card's refunds since a purchase on the
 * same card made no later (one under way too), or from a walk of its own, kept for those after it:
 * every refund on the card since, of any amount, and of those the ones that may be this purchase's.
 */
async function sharedWalk(purchase: GwRecord, walks: CardWalks, since: number, walk: (filters: RecordFilters) => Promise<GwRecord[]>): Promise<GwRecord[]> {
  const card = walkedCard(purchase)
  let shared = walks.find((made) => made.card === card && made.since <= since)
  if (!shared) {
    shared = {card, since, refunds: walk({purchase: {...purchase, amount: undefined}})}
    walks.push(shared)
  }
  return (await shared.refunds).filter((refund) => matchesFilters({purchase}, refund))
}

/** The card a walk is of (CardWalks): its number and holder, as a purchase or a refund on it has them. */
export const walkedCard = (record: GwRecord): string => `${String(record.card_number)}\n${String(record.card_holder ?? '').toLowerCase()}`

/**
 * What has been refunded of a purchase and what is left: from the gateway's own figure where its
 * record has one (`refunded_amount`), with nothing more asked; else from the refunds that may be of it.
 */
export async function refundedState(purchase: GwRecord, request: RefundsOfRequest, deps: Pick<Deps, 'client'>): Promise<RefundedState> {
  if (typeof purchase.refunded_amount === 'number') return matchRefunds(purchase, []).state
  return (await refundsOfPurchase(purchase, request, deps)).state
}

/**
 * The references some of these refunds' references derive from (`order-9-R1`: `order-9`) that
 * are other purchases on the same card, looked up, each once: those refunds are likely theirs. A
 * look-up that fails tells nothing, and the refund stays a possible one.
 */
async function otherPurchases(purchase: GwRecord, refunds: GwRecord[], concurrency: number, {client}: Pick<Deps, 'client'>): Promise<Map<string, GwRecord>> {
  const ours = derivationBase(purchase)
  const bases = new Set(refunds.map((refund) => derivedFrom(refund.reference)).filter((base): base is string => base !== undefined && base !== ours))
  const others = new Map<string, GwRecord>()
  const lookUp = async (base: string) => {
    try {
      const other = await client.purchases.get(base)
      if (other.reference === base && other.id !== purchase.id && sameCard(other.card_number, purchase.card_number)) others.set(base, other)
    } catch (err) {
      // Stopped, or talking to the wrong gateway: that is the answer. Anything else tells nothing.
      if (err instanceof InterruptedError || err instanceof ModeMismatchError) throw err
    }
  }
  for await (const _ of inOrder(bases.values(), concurrency, lookUp)) void _
  return others
}
