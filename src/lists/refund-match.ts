import {MAX_REFERENCE} from '../api/schemas/rules.js'
import {outcomeOf} from '../money/decide.js'
import {recordInstant} from './window.js'

type GwRecord = Record<string, unknown>

/**
 * A refund's record does not name its purchase (gateway-notes.md), so gw makes the link part of
 * the data: a refund sent without a reference of the user's gets `<purchase-ref>-R<n>`, the n-th
 * free one, held to the gateway's length rule by cutting the purchase's part, never the suffix.
 * The reference is the purchase's own (the same for every refund of it), so the refunds of a
 * purchase are found by their references exactly.
 */
export function refundReference(purchaseReference: string, n: number): string {
  const suffix = `-R${n}`
  let cut = Math.min(purchaseReference.length, MAX_REFERENCE - suffix.length)
  // A character outside the BMP is two code units: cut before it, never through it.
  if (cut < purchaseReference.length && /[\uD800-\uDBFF]/.test(purchaseReference[cut - 1] ?? '')) cut--
  return purchaseReference.slice(0, cut) + suffix
}

/** What a purchase's refunds' references derive from: its reference, or its id when it has none. */
export function derivationBase(purchase: GwRecord): string | undefined {
  if (typeof purchase.reference === 'string' && purchase.reference.trim() !== '') return purchase.reference
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

/** What fits a refund to the purchase, besides being on its card (number and holder) since it: the filter every one listed passed. */
export type Fit = 'made_after' | 'within_balance' | 'names_purchase'

/** What speaks against it: more than the purchase has left to refund, or a reference derived from another purchase's (one on the same card, looked up). */
export type Misfit = 'over_balance' | 'names_other_purchase'

/**
 * How a refund listed for a purchase (`refund list --purchase`) fits it: certain where gw made it
 * for this purchase (a reference it derived from the purchase's, or a batch journal of gw's that
 * sent it), else possible, with the clues for and against. It travels with the refund's record
 * as `gw_match`, after the gateway's own fields.
 */
export interface RefundMatch {
  /** The purchase's id (or, without one, its reference). */
  purchase: string
  certain: boolean
  /** How gw knows a certain one is of the purchase. */
  by?: 'derived_reference' | 'journal'
  fits: Fit[]
  against: Misfit[]
}

/** What has been refunded of a purchase and what is left, as far as gw can know it. */
export interface RefundedState {
  amount: number
  currency?: string
  /** The gateway's own figure (a `refunded_amount` on the purchase), or the refunds gw found on its card. */
  source: 'gateway' | 'refunds'
  /** Refunded for certain: the gateway's figure, or the approved refunds certain to be of it. */
  refunded: number
  certain: number
  /** Approved refunds that may be of it (within its balance, their references not another purchase's), and how much they come to at most. */
  possible: number
  possibleAmount: number
  /** Left to refund at most (nothing else of it refunded) and at least (every possible one of it); the same when nothing is in doubt. */
  left: number
  leftAtLeast: number
}

export interface Matched {
  refund: GwRecord
  match: RefundMatch
}

/** What gw learned besides the refunds: those its batch journals say it made for the purchase (their ids), and references of other purchases on its card. */
export interface Made {
  journaled: ReadonlySet<string>
  /** References of other purchases on the same card, from which some refunds' references derive: those refunds are theirs. */
  others: ReadonlySet<string>
}

/**
 * The refunds on a purchase's card since it (lists/filters.ts), held against it: each one's match,
 * best fit first (certain ones, then by fewer misfits and more fits, the order given kept among
 * equals), and what that makes refunded and left.
 */
export function matchRefunds(purchase: GwRecord, refunds: GwRecord[], made: Made = {journaled: new Set(), others: new Set()}): {matched: Matched[]; state: RefundedState} {
  const reference = typeof purchase.reference === 'string' && purchase.reference !== '' ? purchase.reference : undefined
  const id = typeof purchase.id === 'string' ? purchase.id : undefined
  const base = derivationBase(purchase)
  const amount = typeof purchase.amount === 'number' ? purchase.amount : 0
  // A declined purchase took nothing, so nothing of it can be refunded.
  const paid = outcomeOf(purchase) === false ? 0 : amount
  const given = typeof purchase.refunded_amount === 'number' && Number.isSafeInteger(purchase.refunded_amount) ? purchase.refunded_amount : undefined
  const certainBy = (refund: GwRecord): RefundMatch['by'] => {
    if (base !== undefined && derivedNumber(base, refund.reference) !== undefined) return 'derived_reference'
    if (typeof refund.id === 'string' && made.journaled.has(refund.id)) return 'journal'
    return undefined
  }
  const sized = (refund: GwRecord) => (typeof refund.amount === 'number' ? Math.abs(refund.amount) : undefined)
  const approved = (refund: GwRecord) => outcomeOf(refund) === true
  const withBy = refunds.map((refund) => ({refund, by: certainBy(refund)}))
  const certainAmount = withBy.reduce((sum, {refund, by}) => sum + (by && approved(refund) ? (sized(refund) ?? 0) : 0), 0)
  // What the possible ones may come to: what the gateway says was refunded, or the purchase, less the certain ones.
  const room = Math.max(0, (given ?? paid) - certainAmount)
  const since = recordInstant(purchase.transaction_date)
  const matched = withBy.map(({refund, by}): Matched => {
    const fits: Fit[] = []
    const against: Misfit[] = []
    const at = recordInstant(refund.transaction_date)
    if (since !== undefined && at !== undefined && at >= since) fits.push('made_after')
    const size = sized(refund)
    if (!by && size !== undefined) {
      if (size <= room) fits.push('within_balance')
      else against.push('over_balance')
    }
    const names = [reference, id].some((name) => name !== undefined && namesWord(refund.reference, name))
    if (names) fits.push('names_purchase')
    const from = derivedFrom(refund.reference)
    if (!by && !names && from !== undefined && from !== base && made.others.has(from)) against.push('names_other_purchase')
    return {refund, match: {purchase: id ?? reference ?? '', certain: by !== undefined, ...(by ? {by} : {}), fits, against}}
  })
  const score = ({match}: Matched) => (match.certain ? 1_000 : 0) - match.against.length * 10 + match.fits.length
  const ordered = matched.map((entry, index) => ({entry, index})).sort((a, b) => score(b.entry) - score(a.entry) || a.index - b.index).map(({entry}) => entry)
  const mayBe = matched.filter(({refund, match}) => !match.certain && match.against.length === 0 && approved(refund))
  const possibleAmount = Math.min(room, mayBe.reduce((sum, {refund}) => sum + (sized(refund) ?? 0), 0))
  const refunded = given ?? certainAmount
  const left = Math.max(0, paid - refunded)
  const state: RefundedState = {
    amount,
    ...(typeof purchase.currency === 'string' ? {currency: purchase.currency} : {}),
    source: given === undefined ? 'refunds' : 'gateway',
    refunded,
    certain: matched.filter(({match}) => match.certain).length,
    possible: given === undefined ? mayBe.length : 0,
    possibleAmount: given === undefined ? possibleAmount : 0,
    left,
    leftAtLeast: given === undefined ? Math.max(0, left - possibleAmount) : left,
  }
  return {matched: ordered, state}
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
