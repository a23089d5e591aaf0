import type {SandboxContext} from '../context.js'
import {expiryDate, newCardRecord} from './card.js'
import {chargeCard} from './charges.js'
import {formatDate, formatDateTime, VirtualClock} from './clock.js'
import {DATE_FIELDS} from './collections.js'
import {DEFAULT_CURRENCY} from './currency.js'
import {badRequest} from './errors.js'
import {planHistory, type HistoryAsked} from './history-plan.js'
import type {CardRecord, PurchaseRecord} from './records.js'
import {addRefund} from './refund.js'

/** The approved test cards (gateway-notes.md), taken in turn: a fifth card is the first number with another holder. */
const HISTORY_CARDS = ['4242424242424242', '5123456789012346', '5555555555554444', '4005550000000001']
const HOLDER = 'Jane Citizen'
/** Years from the gateway's today that the cards expire in: past any date its clock is likely moved to. */
const CARDS_LAST_YEARS = 5

/** What a history made: how many of each, on how many cards, and the dates of its first and last records. */
export interface HistoryMade {
  purchases: number
  refunds: number
  cards: number
  reference_prefix: string
  from: string
  to: string
}

/**
 * Makes the history planned (history-plan.ts) for the merchant, in one request: each record as the
 * routes make it now (charges.ts chargeCard, refund.ts addRefund, on a clock stopped at its time),
 * oldest first, on cards of its own. Refunds are the gateway's records of its own, named by the
 * reference gw derives: no gw recorded making them. A reference already taken refuses the whole
 * history, nothing made. Lists are read by position in date order (paging.ts): records made before
 * that are dated later are filed after it once, at the end.
 */
export function makeHistory(ctx: SandboxContext, merchant: string, asked: HistoryAsked): HistoryMade {
  const plan = planHistory(asked)
  const taken = plan.purchases.find(({reference}) => ctx.store.isTaken('purchases', merchant, reference)) ?? plan.refunds.find(({reference}) => ctx.store.isTaken('refunds', merchant, reference))
  if (taken) throw badRequest([`Reference ${taken.reference} is already taken: a history with reference prefix ${asked.prefix} was made already; give another prefix`])
  const nowSecond = Math.floor(ctx.clock.now().getTime() / 1000) * 1000
  const at = (secondsAgo: number) => new Date(nowSecond - secondsAgo * 1000)
  // The domain code dates a record by the context's clock: one stopped at the record's time.
  const stopped = new StoppedClock()
  const past: SandboxContext = {...ctx, clock: stopped}
  const then = (secondsAgo: number): SandboxContext => {
    stopped.at = at(secondsAgo)
    return past
  }
  const first = at(plan.purchases[0]?.secondsAgo ?? 0).getTime()
  const filedLater = {purchases: heldAfter(ctx, merchant, 'purchases', first), refunds: heldAfter(ctx, merchant, 'refunds', first)}

  const expiry = expiryDate(`12/${new Date(nowSecond).getFullYear() + CARDS_LAST_YEARS}`)!
  const cards: CardRecord[] = Array.from({length: asked.cards}, (_, card) =>
    newCardRecord({number: HISTORY_CARDS[card % HISTORY_CARDS.length]!, holder: card < HISTORY_CARDS.length ? HOLDER : `${HOLDER} ${Math.floor(card / HISTORY_CARDS.length) + 1}`, expiry}),
  )
  const purchases: PurchaseRecord[] = plan.purchases.map(({reference, card, amount, secondsAgo}) => {
    const held = cards[card]!
    const purchase = chargeCard(then(secondsAgo), merchant, {card: held, amount, reference, currency: DEFAULT_CURRENCY, source: 'API', cvvGiven: true, metadata: {}})
    // As chargeCard saved it: the next charge counts on from it.
    cards[card] = {...held, transaction_count: held.transaction_count + 1}
    return purchase
  })
  const refunds = plan.refunds.map(({reference, purchase, amount, secondsAgo}) => {
    const refunded = purchases[purchase]!
    return addRefund(then(secondsAgo), merchant, {card: refunded, amount, reference, currency: refunded.currency, metadata: {}, purchaseId: refunded.id})
  })
  const [newestPurchase, newestRefund] = [purchases.at(-1), refunds.at(-1)]
  if (filedLater.purchases && newestPurchase) ctx.store.saveDated('purchases', merchant, newestPurchase)
  if (filedLater.refunds && newestRefund) ctx.store.saveDated('refunds', merchant, newestRefund)
  const to = Math.max(first, ...[newestPurchase, newestRefund].map((record) => (record ? Date.parse(record.transaction_date) : first)))
  return {purchases: purchases.length, refunds: refunds.length, cards: cards.length, reference_prefix: asked.prefix, from: formatDateTime(new Date(first)), to: formatDateTime(new Date(to))}
}

/** A clock that stays where it is put: the time of the record being made. */
class StoppedClock extends VirtualClock {
  at = new Date(0)

  constructor() {
    super({now: () => new Date(0)}, {today: undefined})
  }

  override now(): Date {
    return this.at
  }

  override today(): string {
    return formatDate(this.at)
  }
}

/** Whether the merchant holds a record of this collection dated after `time`: the newest is the last of its list. */
function heldAfter(ctx: SandboxContext, merchant: string, collection: 'purchases' | 'refunds', time: number): boolean {
  const held = ctx.store.ordered(collection, merchant)
  const newest = held.at(held.length - 1)
  return newest !== undefined && Date.parse(String(newest[DATE_FIELDS[collection]])) > time
}
