/**
 * A quick history (gw sandbox seed --purchases N --refunds M, POST /_sandbox/history): what it
 * holds, planned before anything is made, the same for the same arguments (a PRNG seeded alike),
 * so that benches and tests are repeatable. Times are seconds before the gateway's now, which
 * history.ts reads when it makes the records.
 */

export interface HistoryAsked {
  purchases: number
  refunds: number
  /** How far back the history goes, in days before the gateway's now. */
  days: number
  /** How many of the cards (history.ts HISTORY_CARDS) it is made on. */
  cards: number
  /** Purchases are `<prefix>-p<i>`, i from 1, oldest first. */
  prefix: string
}

export interface PlannedPurchase {
  reference: string
  /** Which card, from 0. */
  card: number
  /** Cents, whole dollars: approved on every approved test card. */
  amount: number
  secondsAgo: number
}

export interface PlannedRefund {
  /** `<purchase's reference>-R<n>`, n from 1 in the order its refunds were made, as gw derives one (lists/refund-match.ts refundReference). */
  reference: string
  /** Its purchase, by its place among the planned purchases. */
  purchase: number
  amount: number
  /** Fewer than its purchase's: made after it, to the second. */
  secondsAgo: number
}

/** Oldest first, each: the order they are made in, and kept in (a list is read by position). */
export interface HistoryPlan {
  purchases: PlannedPurchase[]
  refunds: PlannedRefund[]
}

const DAY_SECONDS = 86_400
/** A purchase is $10 to $500, or more where its refunds need it: each refund is a dollar or more. */
const DOLLAR = 100
const LEAST_DOLLARS = 10
const MOST_DOLLARS = 500
/** Any number would do; one, so that the same arguments make the same history. */
const SEED = 0x6777_6873

/** mulberry32: a small PRNG of 32 bits of state, uniform in [0, 1); the same seed gives the same numbers everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), state | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296
  }
}

/**
 * The history asked for: purchases at times uniform over the days, each on one of the cards;
 * each refund of a purchase picked uniformly, after it and no later than now, for at most what its
 * purchase has left: a purchase's amount covers a dollar for each of its refunds, and each refund
 * takes at most an even share of what is left, so none runs out.
 */
export function planHistory({purchases, refunds, days, cards, prefix}: HistoryAsked): HistoryPlan {
  const random = seededRandom(SEED)
  const below = (limit: number) => Math.floor(random() * limit)
  const span = days * DAY_SECONDS
  // At least a second ago, so that a refund may follow it.
  const times = Array.from({length: purchases}, () => ({secondsAgo: 1 + below(span), card: below(cards), dollars: LEAST_DOLLARS + below(MOST_DOLLARS - LEAST_DOLLARS + 1)}))
  times.sort((a, b) => b.secondsAgo - a.secondsAgo)
  const ofPurchase = times.map(() => [] as {secondsAgo: number}[])
  for (let made = 0; made < refunds; made++) {
    const purchase = below(purchases)
    ofPurchase[purchase]!.push({secondsAgo: below(times[purchase]!.secondsAgo)})
  }
  const planned: HistoryPlan = {purchases: [], refunds: []}
  for (const [index, {secondsAgo, card, dollars}] of times.entries()) {
    const reference = `${prefix}-p${index + 1}`
    const own = ofPurchase[index]!.sort((a, b) => b.secondsAgo - a.secondsAgo)
    let leftDollars = Math.max(dollars, own.length)
    planned.purchases.push({reference, card, amount: leftDollars * DOLLAR, secondsAgo})
    for (const [n, refund] of own.entries()) {
      const share = Math.floor(leftDollars / (own.length - n))
      const refunded = 1 + below(share)
      leftDollars -= refunded
      planned.refunds.push({reference: `${reference}-R${n + 1}`, purchase: index, amount: refunded * DOLLAR, secondsAgo: refund.secondsAgo})
    }
  }
  // Oldest first; a stable sort keeps two of one second in the order planned.
  planned.refunds.sort((a, b) => b.secondsAgo - a.secondsAgo)
  return planned
}
