import type {Matched, RefundedState, RefundMatch} from '../lists/refund-match.js'
import {RejectedError} from '../errors.js'
import {shellQuote} from './hints.js'
import {formatMoney} from './money.js'
import {sanitizeLine} from '../safety/sanitize.js'
import type {GwRecord} from '../api/schemas/record.js'

/** A purchase as a person names it: its reference and id, made safe to show. */
function named(purchase: GwRecord): string {
  const reference = typeof purchase.reference === 'string' ? sanitizeLine(purchase.reference) : undefined
  const id = typeof purchase.id === 'string' ? sanitizeLine(purchase.id) : undefined
  return reference && id ? `${reference} (${id})` : (reference ?? id ?? 'the purchase')
}

const money = (amount: number, state: RefundedState) => formatMoney(amount, state.currency ? sanitizeLine(state.currency) : undefined)
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`

/** Why a match was made, in words that say what happened: refund_create is gw's record of every single refund it made (refund create, gw api, sandbox seed). */
const BY: Record<string, string> = {journal: "gw's batch journal", refund_create: 'made by gw', derived_reference: 'derived reference', standalone: "the gateway's standalone"}

/**
 * A refund's gw_match as a table's Match column shows it: the word and its reason (design.md §3,
 * the reasons show in tables too); another purchase's names that purchase; a voided one says it
 * counts for nothing.
 */
export function matchText(match: RefundMatch): string {
  const text = matchWord(match)
  return match.voided ? `${text}, voided: not counted` : text
}

function matchWord(match: RefundMatch): string {
  const by = match.by === undefined ? '' : BY[match.by] ?? sanitizeLine(match.by)
  if (match.match === 'other_purchase') return `of ${sanitizeLine(String(match.other_purchase))} (${match.other_match ?? 'likely'}: ${by})`
  if (match.match === 'unmatched') return `of no purchase (unmatched: ${by})`
  if (match.match !== 'possible') return `${match.match} (${by})`
  if (match.against.includes('over_balance')) return 'possible (but more than is left)'
  const reasons = [match.fits.includes('names_purchase') && 'names it', match.fits.includes('whole_balance') && 'exactly what it had left', 'same card, after it'].filter(Boolean)
  return `possible (${reasons.join('; ')})`
}

const certainOther = ({match}: Matched) => match.match === 'other_purchase' && match.other_match === 'certain'
/** A refund that is surely not this purchase's money back: another purchase's for certain, one of no purchase, or voided. */
const notItsOwn = (entry: Matched) => certainOther(entry) || entry.match.match === 'unmatched' || entry.match.voided === true
const othersNamed = (matched: Matched[]) => [...new Set(matched.map(({match}) => sanitizeLine(String(match.other_purchase))))].join(', ')

/**
 * Said on stderr above `refund list --purchase`, piped or not (design.md §3, a guess is shown as a
 * guess): what the refunds listed are, and how many are certain, likely, possible, or another
 * purchase's. "Not refunded" only where gw knows it: no refund on its card since it, or only
 * refunds gw made for other purchases.
 */
export function refundsOfNote(purchase: GwRecord, matched: Matched[], {narrowed}: {narrowed: boolean}): string {
  if (matched.length === 0) {
    return narrowed
      ? `No refund on the card of purchase ${named(purchase)} since it was made matches.\n`
      : `No refund on the card of purchase ${named(purchase)} since it was made: it has not been refunded.\n`
  }
  if (!narrowed && matched.every(certainOther)) {
    const others = othersNamed(matched)
    return `The ${plural(matched.length, 'refund')} on the card of purchase ${named(purchase)} since it was made gw made for ${others.includes(', ') ? 'other purchases' : 'another purchase'} (${others}): it has not been refunded.\n`
  }
  const count = (kind: RefundMatch['match']) => matched.filter(({match}) => match.match === kind)
  const others = count('other_purchase')
  const voided = matched.filter(({match}) => match.voided).length
  const counts = [
    count('certain').length > 0 ? `${count('certain').length} certain (gw recorded making ${count('certain').length === 1 ? 'it' : 'them'} for this purchase)` : undefined,
    count('likely').length > 0 ? `${count('likely').length} likely (a reference derived from its own, after it)` : undefined,
    count('possible').length > 0 ? `${count('possible').length} possible (on its card, after it)` : undefined,
    others.length > 0 ? `${others.length} of ${new Set(others.map(({match}) => match.other_purchase)).size === 1 ? 'another purchase' : 'other purchases'} (${othersNamed(others)})` : undefined,
    count('unmatched').length > 0 ? `${count('unmatched').length} of no purchase (unmatched, sent with a card alone)` : undefined,
    voided > 0 ? `${voided} voided (not counted)` : undefined,
  ].filter(Boolean)
  // Nothing listed gave this purchase's money back: said first, as "not refunded" is only said where gw knows it.
  const none = !narrowed && matched.every(notItsOwn) ? ': it has not been refunded' : ''
  return (
    `Refunds that may be of purchase ${named(purchase)}: a refund's record does not name its purchase, so these are the refunds on its card since it was made, best fit first (gw_match says why).\n` +
    `${counts.join('; ')}${none}.\n`
  )
}

/** Under `refund list --purchase` at a terminal: how many were shown, in which order, and how to see more. */
export function refundsOfSummary(shown: number, total: number): string {
  return shown < total ? `Showing ${shown} of ${total} refunds, best fit first; --limit N or --all shows more.\n` : `${plural(shown, 'refund')}, best fit first.\n`
}

/**
 * What has been refunded of a purchase and what is left, in words (`purchase get`, and gw_refunded's
 * `says`): exact where the gateway says it or nothing is in doubt; else first what the evidence
 * suggests (a refund on its card of exactly what it had left), then the range, why, and where to
 * look. Refunds of other purchases are counted, not listed: one record stays one screen.
 * "Nothing" only where gw knows it.
 */
export function refundedText(purchase: GwRecord, state: RefundedState): {refunded: string; left: string} {
  const left = state.left === state.leftAtLeast ? money(state.left, state) : `${money(state.leftAtLeast, state)} to ${money(state.left, state)}`
  if (state.source === 'gateway') return {refunded: `${money(state.refunded, state)} (the gateway's refunded_amount)`, left}
  const name = typeof purchase.reference === 'string' ? purchase.reference : String(purchase.id ?? '')
  // Where every refund behind these words is listed: said once, at the end, when some are in doubt or counted rather than named.
  const listed = state.possible > 0 || state.others.certain.length > 1 || state.others.likely.length > 1 ? `: gw refund list --purchase ${shellQuote(name)}` : ''
  if (state.gone === 'voided' && state.certain === 0) return {refunded: 'nothing: it was voided, so it took nothing and nothing of it can be refunded', left}
  const uncounted = notCounted(state)
  if (state.certain === 0 && state.possible === 0) {
    if (state.certainOthers === 0 && state.over === 0) return {refunded: uncounted ? `nothing: ${uncounted}` : 'nothing: no refund on its card since it was made', left}
    return {refunded: `${money(0, state)}: ${noneOfIt(state)}${uncounted ? `; ${uncounted}` : ''}${listed}`, left}
  }
  let refunded = `${money(state.refunded, state)} for certain${state.certain > 0 ? ` (${plural(state.certain, 'refund')} gw made for it)` : ''}`
  if (state.possible > 0) {
    const kinds = [
      state.likely > 0 ? `${state.likely} likely, its reference derived from this one's` : undefined,
      state.likelyOthers > 0 ? `${state.likelyOthers} likely of ${elsewhere(state.others.likely)}` : undefined,
      state.possible - state.likely - state.likelyOthers > 0 ? `${state.possible - state.likely - state.likelyOthers} possible` : undefined,
    ].filter(Boolean)
    refunded = `${suggestion(state)}${refunded}, and ${plural(state.possible, 'refund')} on its card since it that may be of it (${kinds.join('; ')}), up to ${money(state.possibleAmount, state)} more`
  }
  if (state.certainOthers > 0) refunded += `; gw made ${plural(state.certainOthers, 'other refund')} on its card for ${elsewhere(state.others.certain)}`
  if (uncounted) refunded += `; ${uncounted}`
  return {refunded: refunded + listed, left}
}

/** The refunds on its card since it that give nothing of it back, said so (design.md §3): voided ones, and unmatched ones (of no purchase). */
function notCounted(state: RefundedState): string | undefined {
  const kinds = [state.voided > 0 && plural(state.voided, 'voided refund'), state.unmatched > 0 && `${plural(state.unmatched, 'unmatched refund')} (of no purchase)`].filter(Boolean)
  return kinds.length === 0 ? undefined : `${kinds.join(' and ')} on its card since it, not counted`
}

/** Other purchases as a person reads them at a glance: the one named, several counted. */
function elsewhere(names: string[]): string {
  return names.length === 1 ? `another purchase (${sanitizeLine(names[0]!)})` : `${names.length} other purchases`
}

/**
 * The first thing a person asks of a purchase with refunds in doubt, said first: a refund on its
 * card of exactly what it had left suggests it was refunded in full, likely where that refund's
 * reference derives from its own, else possibly (design.md §3: the guess keeps its word). None
 * when no refund is of exactly that.
 */
function suggestion(state: RefundedState): string {
  if (state.exact === 0) return ''
  const what = `exactly ${money(state.left, state)}${state.refunded > 0 ? ', what it had left' : ''}`
  const which = state.exact === 1 ? `one refund on its card since it, of ${what}` : `${state.exact} refunds on its card since it, each of ${what}`
  return `${which}: ${state.exactLikely > 0 ? 'likely' : 'possibly'} refunded in full; `
}

/** Why none of the refunds on a purchase's card since it is its own: gw made them for other purchases, or they are more than it had left. */
function noneOfIt(state: RefundedState): string {
  const total = state.certainOthers + state.over
  const all = total === 1 ? 'the one refund' : `all ${total} refunds`
  if (state.over === 0) return `gw made ${all} on its card since it for ${elsewhere(state.others.certain)}`
  const over = total === 1 ? 'is more than it had left' : state.certainOthers === 0 ? 'are each more than it had left' : `${state.over} more than it had left`
  if (state.certainOthers === 0) return `${all} on its card since it ${over}`
  return `of ${all} on its card since it, gw made ${state.certainOthers} for ${elsewhere(state.others.certain)} and ${over}`
}

/** What a table shows of an amount gw_refunded or gw_left_to_refund holds: exact, or a range. */
export function rangeText(range: {at_least?: unknown; at_most?: unknown; currency?: unknown}): string | undefined {
  const {at_least: least, at_most: most} = range
  if (typeof least !== 'number' || typeof most !== 'number') return undefined
  const currency = typeof range.currency === 'string' ? sanitizeLine(range.currency) : undefined
  return least === most ? formatMoney(least, currency) : `${formatMoney(least, currency)} to ${formatMoney(most, currency)}`
}

/**
 * What a refund's amount question offers (Enter takes it): what is left of the purchase, never
 * more than the gateway would take; none when nothing is surely left. `words` follows the question.
 */
export function amountOffer(state: RefundedState): {amount?: number; words: string} {
  const refundedSoFar = soFar(state)
  if (state.leftAtLeast === state.left) {
    if (state.left === 0) return {words: `; nothing is left of it to refund (${refundedSoFar})`}
    if (state.refunded === 0 && state.left === state.amount) return {amount: state.left, words: `; Enter for the purchase in full, ${money(state.left, state)}`}
    return {amount: state.left, words: `; Enter for what is left of it, ${money(state.left, state)} (${refundedSoFar})`}
  }
  const mayBe = `${plural(state.possible, 'refund')} on its card that may be of it ${state.possible === 1 ? 'comes' : 'come'} to ${money(state.possibleAmount, state)}`
  if (state.leftAtLeast === 0) return {words: `; up to ${money(state.left, state)} may be left (${mayBe})`}
  return {amount: state.leftAtLeast, words: `; Enter for ${money(state.leftAtLeast, state)}, what is surely left (${mayBe})`}
}

/** How much of a purchase has been refunded, as a question or a refusal says it: `10.00 AUD of 25.00 AUD refunded`, or the gateway's word for it. */
function soFar(state: RefundedState): string {
  if (state.gone === 'voided') return 'it was voided'
  const refunded = `${money(state.refunded, state)} of ${money(state.amount, state)} refunded`
  return state.source === 'gateway' ? `the gateway says ${refunded}` : refunded
}

/**
 * Why a refund of `amount` would be refused, in words, where gw knows what is left of the
 * purchase (the gateway's figure, or refunds gw made for it): more than is left, at most, when
 * some refunds only may be of it. Undefined when the gateway may take it.
 */
export function beyondLeft(state: RefundedState, amount: number): string | undefined {
  if (amount <= state.left) return undefined
  if (state.left === 0) return `nothing is left of it to refund (${howKnown(state)})`
  const left = state.left === state.leftAtLeast ? `is left of it, ${money(state.left, state)}` : `can be left of it, ${money(state.left, state)} at most`
  return `${money(amount, state)} is more than ${left} (${howKnown(state)})`
}

/** What a refusal knows of the purchase's refunds, and how: the gateway's word, or the refunds gw made for it (those that only may be of it refuse nothing). */
function howKnown(state: RefundedState): string {
  if (state.gone === 'voided' || state.source === 'gateway') return soFar(state)
  if (state.certain === 0) return `none of ${money(state.amount, state)} refunded for certain: gw made no refund for it`
  return `${money(state.refunded, state)} of ${money(state.amount, state)} refunded for certain: ${plural(state.certain, 'refund')} gw made for it`
}

/**
 * A refund refused before it is sent, as the gateway would refuse it (exit 7): more than is left
 * of the purchase; `purchase` as a person would type it. Undefined when the gateway may take it.
 */
export function refusedBeyondLeft(purchase: string, state: RefundedState, amount: number, {inFull = false} = {}): RejectedError | undefined {
  const why = beyondLeft(state, amount)
  if (why === undefined) return undefined
  if (state.left === 0) return nothingLeft(purchase, state)
  return new RejectedError(`${inFull ? 'Refunding' : 'A refund of'} purchase ${purchase}${inFull ? ' in full' : ''}: ${why}: nothing was sent`, {hint: `Refund ${money(state.left, state)} (${state.left} in the minor unit) or less.`})
}

/**
 * A batch row refused before it is sent because other rows of the batch refund the same purchase:
 * those asked before it, still in flight (or made since its purchase was read), may leave less than
 * it asks. Exit 7, as a refusal; a run of the batch again sends it if enough is left then.
 */
export function refusedInFlight(purchase: string, state: RefundedState, amount: number, inFlight: number): RejectedError | undefined {
  if (inFlight <= 0 || amount <= state.left - inFlight) return undefined
  const left = Math.max(0, state.left - inFlight)
  return new RejectedError(
    `A refund of purchase ${purchase}: rows of this batch before it, in flight or just made, refund ${money(inFlight, state)} of it, which leaves ${money(left, state)} at most, less than ${money(amount, state)}: nothing was sent`,
    {hint: 'Run the batch again once the rows before it are done: this row is sent then if enough is left of the purchase.'},
  )
}

/** Nothing left of a purchase to refund, for certain: any refund of it is refused, saying what was refunded. */
export function nothingLeft(purchase: string, state: RefundedState): RejectedError {
  if (state.gone === 'voided') return new RejectedError(`Purchase ${purchase} was voided, so nothing of it is left to refund: nothing was sent`, {hint: `gw purchase get ${purchase} shows it.`})
  // Nothing left and nothing refunded: it was declined, and took nothing.
  if (state.refunded === 0) return new RejectedError(`Purchase ${purchase} took nothing (it was declined), so nothing of it can be refunded: nothing was sent`)
  return new RejectedError(`Nothing is left of purchase ${purchase} to refund (${howKnown(state)}): nothing was sent`, {hint: `gw purchase get ${purchase} shows what was refunded of it.`})
}
