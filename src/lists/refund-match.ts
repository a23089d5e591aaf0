import {MAX_REFERENCE} from '../api/schemas/rules.js'
import {holdsCardNumber} from '../safety/redact.js'
import {outcomeOf} from '../money/decide.js'
import {isVoided} from '../money/follow-up.js'
import {recordInstant} from './window.js'
import type {GwRecord} from '../api/schemas/record.js'

/**
 * A refund's record does not name its purchase (gateway-notes.md), so gw makes the link part of
 * the data: a refund sent without a reference of the user's gets `<purchase-ref>-R<n>`, the n-th
 * free one, held to the gateway's length rule by cutting the purchase's part, never the suffix.
 * A reference's shape is evidence, not proof (merchants' own systems name references as they like):
 * one derived from a purchase's makes a refund likely that purchase's; certain is only what gw
 * recorded making for it (a batch journal, or its record of a single refund create).
 */
export function refundReference(purchaseReference: string, n: number): string {
  const suffix = `-R${n}`
  let cut = Math.min(purchaseReference.length, MAX_REFERENCE - suffix.length)
  // A character outside the BMP is two code units: cut before it, never through it.
  if (cut < purchaseReference.length && /[\uD800-\uDBFF]/.test(purchaseReference[cut - 1] ?? '')) cut--
  return purchaseReference.slice(0, cut) + suffix
}

/**
 * What a purchase's refunds' references derive from: its reference, or its id when it has none, or
 * one that holds a card number (gw makes no reference that holds one: design.md §3, and a batch
 * journal keeps the references it made whole, batch/journal-names.ts).
 */
export function derivationBase(purchase: GwRecord): string | undefined {
  if (typeof purchase.reference === 'string' && purchase.reference.trim() !== '' && !holdsCardNumber(purchase.reference)) return purchase.reference
  return typeof purchase.id === 'string' && purchase.id !== '' ? purchase.id : undefined
}

/** Which refund of the purchase a reference is, when gw derived it from the purchase's: its n; undefined for any other. */
export function derivedNumber(purchaseReference: string, reference: unknown): number | undefined {
  const n = derivedShape(reference)?.n
  return n !== undefined && refundReference(purchaseReference, n) === reference ? n : undefined
}

/** What a reference of the derived shape (`order-7-R2`) would have been derived from: `order-7`. */
export function derivedFrom(reference: unknown): string | undefined {
  return derivedShape(reference)?.base
}

/** A reference of the derived shape, `order-7-R2`: what it was derived from and its n. */
function derivedShape(reference: unknown): {base: string; n: number} | undefined {
  if (typeof reference !== 'string') return undefined
  const match = /^(.+)-R([1-9]\d{0,8})$/s.exec(reference)
  return match ? {base: match[1]!, n: Number(match[2])} : undefined
}


/**
 * What fits a refund to the purchase, besides being on its card (number and holder): the reasons
 * shown. `whole_balance`: its amount is exactly what the purchase had left to refund (all of it,
 * when nothing is refunded for certain), as a person refunding it in full would have sent.
 */
export type Fit = 'made_after' | 'within_balance' | 'whole_balance' | 'names_purchase'

/** What speaks against it: more than the purchase can have left to refund, which the gateway would have refused. */
export type Misfit = 'over_balance'

/**
 * How sure gw is that a refund on a purchase's card is that purchase's (design.md §3, a guess is
 * shown as a guess): certain, gw recorded making it for this purchase; likely, its reference
 * derives from the purchase's and it came after it; possible, the same card after it. A refund
 * certain or likely for another purchase is that purchase's (`other_purchase`), which it names;
 * an unmatched refund (sent with a card and no purchase, gateway-beyond.md §7) is of none.
 */
export type Match = 'certain' | 'likely' | 'possible' | 'other_purchase' | 'unmatched'

/**
 * How gw knows: its batch journal or its record of a single refund create (certain, or unmatched
 * where gw sent it naming no purchase), a reference derived from the purchase's (likely), or the
 * gateway's own word that the refund named no purchase (`standalone` true: unmatched).
 */
export type Evidence = 'journal' | 'refund_create' | 'derived_reference' | 'standalone'

/** How a refund on a purchase's card fits it: it travels with the refund's record as `gw_match`, after the gateway's own fields. */
export interface RefundMatch {
  /** The purchase's id (or, without one, its reference). */
  purchase: string
  match: Match
  by?: Evidence
  /** A refund of another purchase: which, as gw was asked to refund it or as the reference derives from it. */
  other_purchase?: string
  /** How sure gw is that it is that other purchase's. */
  other_match?: 'certain' | 'likely'
  fits: Fit[]
  against: Misfit[]
  /** Voided (its `refunded` or `message` `Voided`): it gave nothing back, and counts for nothing. */
  voided?: true
}

/** A refund gw recorded making: the purchase as gw was asked to refund it (the request's transaction_id, an id or a reference), and as the gateway named it when gw looked it up. */
export interface MadeFor {
  transactionId: string
  purchaseId?: string
  purchaseReference?: string
  by: 'journal' | 'refund_create'
  /** Sent with a card and no purchase: an unmatched refund, of none. */
  unmatched?: true
}

/** What gw learned besides the refunds themselves. */
export interface Known {
  /** The refunds gw recorded making, by the refund's id. */
  made: ReadonlyMap<string, MadeFor>
  /** Other purchases on the same card, by the reference some refunds' references derive from, as the gateway has them. */
  others: ReadonlyMap<string, GwRecord>
}

const NOTHING_KNOWN: Known = {made: new Map(), others: new Map()}

/** What has been refunded of a purchase and what is left, as far as gw can know it. */
export interface RefundedState {
  amount: number
  currency?: string
  /** The gateway's own figure (a `refunded_amount` on the purchase), or the refunds on its card, matched. */
  source: 'gateway' | 'refunds'
  /** Refunded for certain: the gateway's figure, or the approved refunds gw made for it. */
  refunded: number
  /** Approved refunds gw recorded making for it. */
  certain: number
  /** Approved refunds that may be of it (likely, possible, or only likely another's, within its balance), and what they come to at most. */
  possible: number
  possibleAmount: number
  /** Of those: the likely ones, and those likely another purchase's. */
  likely: number
  likelyOthers: number
  /** Of those that may be of it (not those likely another's): the ones of exactly what it had left, and how many of those are likely. */
  exact: number
  exactLikely: number
  /** Approved refunds on its card since it that cannot be of it: more than it had left (the gateway would have refused them). */
  over: number
  /** Approved refunds gw recorded making for other purchases: none of them is this one's. */
  certainOthers: number
  /** The other purchases those refunds are of, each once: those gw made some for, and those some are likely of. */
  others: {certain: string[]; likely: string[]}
  /** Left to refund at most (nothing else of it refunded) and at least (every one that may be of it); the same when nothing is in doubt. */
  left: number
  leftAtLeast: number
  /** Refunds on its card since it, not counted: voided ones that would have been of it, and unmatched ones (of no purchase). */
  voided: number
  unmatched: number
  /** Why it took nothing, when it took nothing: declined, or voided since. */
  gone?: 'declined' | 'voided'
}

export interface Matched {
  refund: GwRecord
  match: RefundMatch
}

/** How a match ranks, best fit first: this purchase's, surest first; then another's, the likely before the certain; then one of no purchase. */
const RANK: Record<Match, number> = {certain: 4, likely: 3, possible: 2, other_purchase: 1, unmatched: 0}

/**
 * Best fit first, as a person would look: the surer kind of match first (RANK); within a kind, one
 * of exactly what was left, then those that fit, then the rest; a refund more than the purchase
 * had left last of its kind and below another purchase's; a voided one after every other.
 */
const score = ({match}: Matched) => RANK[match.match] * 1_000 - match.against.length * 1_500 + (match.fits.includes('whole_balance') ? 100 : 0) + match.fits.length - (match.voided ? 10_000 : 0)

const refundSize = (refund: GwRecord) => (typeof refund.amount === 'number' ? Math.abs(refund.amount) : undefined)
/** A refund that gave money back: approved, and not voided since (a voided one may still say `successful` true, gateway-beyond.md §6). */
const approved = (refund: GwRecord) => outcomeOf(refund) === true && !isVoided(refund)
const nonEmpty = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

/**
 * The refunds on a purchase's card since it (lists/filters.ts), held against it: each one's match,
 * best fit first (the order given kept among equals), and what that makes refunded and left. The
 * one matcher behind `refund list --purchase`, `purchase get` and a refund's amount offer.
 */
export function matchRefunds(purchase: GwRecord, refunds: GwRecord[], known: Known = NOTHING_KNOWN): {matched: Matched[]; state: RefundedState} {
  const reference = nonEmpty(purchase.reference)
  const id = nonEmpty(purchase.id)
  const base = derivationBase(purchase)
  const amount = typeof purchase.amount === 'number' ? purchase.amount : 0
  // A declined purchase took nothing, and a voided one gave it back: nothing of either can be refunded.
  // Voided first: builds of 2017-2018 set a voided purchase's `successful` false (gateway-beyond.md §5).
  const gone = isVoided(purchase) ? 'voided' : outcomeOf(purchase) === false ? 'declined' : undefined
  const paid = gone === undefined ? amount : 0
  const given = typeof purchase.refunded_amount === 'number' && Number.isSafeInteger(purchase.refunded_amount) ? purchase.refunded_amount : undefined
  const madeFor = (refund: GwRecord) => (typeof refund.id === 'string' ? known.made.get(refund.id) : undefined)
  // Recorded with the purchase's id when gw looked it up; else as asked, by its id or its reference.
  const ours = (made: MadeFor) => (made.purchaseId === undefined ? made.transactionId === id || made.transactionId === reference : made.purchaseId === id)
  const certainAmount = refunds.reduce((sum, refund) => {
    const made = madeFor(refund)
    return sum + (made && ours(made) && approved(refund) ? (refundSize(refund) ?? 0) : 0)
  }, 0)
  // What the others may come to: what the gateway says was refunded, or the purchase, less the certain ones.
  const room = Math.max(0, (given ?? paid) - certainAmount)
  const after = (refund: GwRecord, than: GwRecord) => {
    const [at, from] = [recordInstant(refund.transaction_date), recordInstant(than.transaction_date)]
    return at !== undefined && from !== undefined && at >= from
  }
  const matched = refunds.map((refund): Matched => {
    const match = matchOne(refund)
    return {refund, match: isVoided(refund) ? {...match, voided: true} : match}
  })
  function matchOne(refund: GwRecord): RefundMatch {
    const fits: Fit[] = []
    const against: Misfit[] = []
    const shown = {purchase: id ?? reference ?? ''}
    if (after(refund, purchase)) fits.push('made_after')
    const names = [reference, id].some((name) => name !== undefined && namesWord(refund.reference, name))
    const made = madeFor(refund)
    // Of no purchase: as gw sent it, else as the gateway says it was sent.
    const unmatched = made ? made.unmatched && made.by : refund.standalone === true && 'standalone'
    if (unmatched) return {...shown, match: 'unmatched', by: unmatched, fits, against}
    if (made && !ours(made)) return {...shown, match: 'other_purchase', by: made.by, other_purchase: made.purchaseReference ?? made.transactionId, other_match: 'certain', fits, against}
    if (made) return {...shown, match: 'certain', by: made.by, fits: names ? [...fits, 'names_purchase'] : fits, against}
    const size = refundSize(refund)
    if (size !== undefined) {
      if (size <= room) fits.push('within_balance')
      else against.push('over_balance')
      // What was left is known only without the gateway's figure, whose room is what it says was refunded.
      if (size === room && room > 0 && given === undefined) fits.push('whole_balance')
    }
    if (names) fits.push('names_purchase')
    if (base !== undefined && against.length === 0 && fits.includes('made_after') && derivedNumber(base, refund.reference) !== undefined) {
      return {...shown, match: 'likely', by: 'derived_reference', fits, against}
    }
    const from = derivedFrom(refund.reference)
    const other = from === undefined || from === base || names ? undefined : known.others.get(from)
    if (other && after(refund, other)) return {...shown, match: 'other_purchase', by: 'derived_reference', other_purchase: from, other_match: 'likely', fits, against}
    return {...shown, match: 'possible', fits, against}
  }
  // A stable sort: those that fit alike keep the order they came in.
  const ordered = matched.toSorted((a, b) => score(b) - score(a))
  return {matched: ordered, state: refundedState(purchase, matched, {amount, paid, given, certainAmount, room, gone})}
}

const certainOther = ({match}: Matched) => match.match === 'other_purchase' && match.other_match === 'certain'

/** What the matches make refunded and left of the purchase: only approved refunds count (not voided, not unmatched), and none over its balance. */
function refundedState(
  purchase: GwRecord,
  matched: Matched[],
  {amount, paid, given, certainAmount, room, gone}: {amount: number; paid: number; given?: number; certainAmount: number; room: number; gone?: RefundedState['gone']},
): RefundedState {
  const counted = matched.filter(({refund, match}) => approved(refund) && match.match !== 'unmatched')
  // Only likely another's is no proof: it may still be this one's, so it counts as one that may be.
  const mayBe = counted.filter((entry) => entry.match.match !== 'certain' && !certainOther(entry) && entry.match.against.length === 0)
  const gatewaySays = given !== undefined
  const refunded = given ?? certainAmount
  const left = Math.max(0, paid - refunded)
  const possibleAmount = gatewaySays ? 0 : Math.min(room, mayBe.reduce((sum, {refund}) => sum + (refundSize(refund) ?? 0), 0))
  const named = (entries: Matched[]) => [...new Set(entries.map(({match}) => match.other_purchase!))]
  const exactOnes = mayBe.filter(({match}) => match.match !== 'other_purchase' && match.fits.includes('whole_balance'))
  return {
    amount,
    ...(typeof purchase.currency === 'string' ? {currency: purchase.currency} : {}),
    source: gatewaySays ? 'gateway' : 'refunds',
    refunded,
    certain: counted.filter(({match}) => match.match === 'certain').length,
    possible: gatewaySays ? 0 : mayBe.length,
    possibleAmount,
    likely: gatewaySays ? 0 : mayBe.filter(({match}) => match.match === 'likely').length,
    likelyOthers: gatewaySays ? 0 : mayBe.filter(({match}) => match.match === 'other_purchase').length,
    exact: exactOnes.length,
    exactLikely: exactOnes.filter(({match}) => match.match === 'likely').length,
    // A certain one, or another's certain one, is held to no balance: only the others can be over it.
    over: gatewaySays ? 0 : counted.filter(({match}) => match.against.length > 0).length,
    certainOthers: counted.filter(certainOther).length,
    others: {certain: named(counted.filter(certainOther)), likely: named(mayBe.filter(({match}) => match.match === 'other_purchase'))},
    left,
    leftAtLeast: Math.max(0, left - possibleAmount),
    voided: matched.filter((entry) => entry.match.voided && entry.match.match !== 'unmatched' && !certainOther(entry)).length,
    unmatched: matched.filter(({match}) => match.match === 'unmatched').length,
    gone,
  }
}

/** Whether a reference names the purchase's reference or id as a word of its own: `refund-order-7`, not `order-70`. */
function namesWord(reference: unknown, name: string): boolean {
  if (typeof reference !== 'string') return false
  const text = reference.toLowerCase()
  const wanted = name.toLowerCase()
  for (let at = text.indexOf(wanted); at >= 0; at = text.indexOf(wanted, at + 1)) {
    const before = text[at - 1]
    const after = text[at + wanted.length]
    if ((before === undefined || !/[a-z0-9]/.test(before)) && (after === undefined || !/[a-z0-9]/.test(after))) return true
  }
  return false
}
