import type {Matched, RefundedState} from '../lists/refund-match.js'
import {shellQuote} from './hints.js'
import {formatMoney} from './money.js'
import {sanitizeLine} from './sanitize.js'

type GwRecord = Record<string, unknown>

/** A purchase as a person names it: its reference and id, made safe to show. */
function named(purchase: GwRecord): string {
  const reference = typeof purchase.reference === 'string' ? sanitizeLine(purchase.reference) : undefined
  const id = typeof purchase.id === 'string' ? sanitizeLine(purchase.id) : undefined
  return reference && id ? `${reference} (${id})` : (reference ?? id ?? 'the purchase')
}

const money = (amount: number, state: RefundedState) => formatMoney(amount, state.currency ? sanitizeLine(state.currency) : undefined)
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`

/**
 * Said on stderr above `refund list --purchase`, piped or not (design.md §3, a guess is shown as a
 * guess): what the refunds listed are, and how many of them are certain.
 */
export function refundsOfNote(purchase: GwRecord, matched: Matched[], {narrowed}: {narrowed: boolean}): string {
  if (matched.length === 0) {
    return narrowed
      ? `No refund on the card of purchase ${named(purchase)} since it was made matches.\n`
      : `No refund on the card of purchase ${named(purchase)} since it was made: it has not been refunded.\n`
  }
  const certain = matched.filter(({match}) => match.certain).length
  const possible = matched.length - certain
  const counts = [
    certain > 0 ? `${certain} certain (gw made ${certain === 1 ? 'it' : 'them'} for this purchase: a reference derived from its own, or a batch journal of gw's)` : undefined,
    possible > 0 ? `${possible} only possible` : undefined,
  ].filter(Boolean)
  return (
    `Refunds that may be of purchase ${named(purchase)}: a refund's record does not name its purchase, so these are the refunds on its card since it was made, best fit first (gw_match says why).\n` +
    `${counts.join('; ')}.\n`
  )
}

/** Under `refund list --purchase` at a terminal: how many were shown, in which order, and how to see more. */
export function refundsOfSummary(shown: number, total: number): string {
  return shown < total ? `Showing ${shown} of ${total} refunds, best fit first; --limit N or --all shows more.\n` : `${plural(shown, 'refund')}, best fit first.\n`
}

/**
 * What has been refunded of a purchase and what is left, as its field/value list shows them at a
 * terminal (`purchase get`): exact where the gateway says it or nothing is in doubt, else a range
 * and where to look.
 */
export function refundedText(purchase: GwRecord, state: RefundedState): {refunded: string; left: string} {
  const left = state.left === state.leftAtLeast ? money(state.left, state) : `${money(state.leftAtLeast, state)} to ${money(state.left, state)}`
  let refunded: string
  if (state.source === 'gateway') refunded = `${money(state.refunded, state)} (the gateway's refunded_amount)`
  else if (state.certain === 0 && state.possible === 0) refunded = 'nothing: no refund on its card since it was made'
  else {
    refunded = state.certain > 0 ? `${money(state.refunded, state)} for certain (${plural(state.certain, 'refund')} gw made for it)` : 'nothing for certain'
    if (state.possible > 0) {
      const name = typeof purchase.reference === 'string' ? purchase.reference : String(purchase.id ?? '')
      refunded += `, and ${plural(state.possible, 'refund')} on its card that may be of it, up to ${money(state.possibleAmount, state)} more: gw refund list --purchase ${shellQuote(name)}`
    }
  }
  return {refunded, left}
}

/**
 * What a refund's amount question offers (Enter takes it): what is left of the purchase, never
 * more than the gateway would take; none when nothing is surely left. `words` follows the question.
 */
export function amountOffer(state: RefundedState): {amount?: number; words: string} {
  const refundedSoFar = state.source === 'gateway' ? `the gateway says ${money(state.refunded, state)} of ${money(state.amount, state)} refunded` : `${money(state.refunded, state)} of ${money(state.amount, state)} refunded`
  if (state.leftAtLeast === state.left) {
    if (state.left === 0) return {words: `; nothing is left of it to refund (${refundedSoFar})`}
    if (state.refunded === 0 && state.left === state.amount) return {amount: state.left, words: `; Enter for the purchase in full, ${money(state.left, state)}`}
    return {amount: state.left, words: `; Enter for what is left of it, ${money(state.left, state)} (${refundedSoFar})`}
  }
  const mayBe = `${plural(state.possible, 'refund')} on its card that may be of it ${state.possible === 1 ? 'comes' : 'come'} to ${money(state.possibleAmount, state)}`
  if (state.leftAtLeast === 0) return {words: `; up to ${money(state.left, state)} may be left (${mayBe})`}
  return {amount: state.leftAtLeast, words: `; Enter for ${money(state.leftAtLeast, state)}, what is surely left (${mayBe})`}
}
