/**
 * The one place gw decides what became of a purchase or a refund (design.md §5, style.md §12):
 * approved, declined, done earlier under its reference, taken by another transaction, or unknown.
 * The client's recovery of a lost answer, a reference the gateway says is taken, a batch resumed
 * after a crash and a batch row's status all come here. Pure: what it needs from the gateway is
 * gathered first (find.ts). Facts about records come from gateway-notes.md, not from what the
 * local gateway happens to send: a live refund record names neither its purchase
 * (`transaction_id` is its own id) nor always its reference, and its amount is positive.
 */
import {maskCardDataIn, maskCardNumber, maskCardNumbersIn, redact} from '../safety/redact.js'

export type Noun = 'purchase' | 'refund'
type GwRecord = Record<string, unknown>

/** Where a record found under a reference differs from what was sent; values safe to show. */
export interface Difference {
  field: string
  /** What it was held against: what was sent, or (a refund's card) the purchase refunded. */
  against: 'sent' | 'purchase'
  expected: unknown
  found: unknown
}

/**
 * What deciding needed beyond the record found, as learned from the gateway: the token an alias
 * sent as card_token stands for, and the purchase a refund was for. `null` when it could not be
 * learned: then what depends on it is not believed.
 */
export interface Evidence {
  aliasToken?: string | null
  purchase?: GwRecord | null
}

/** How the record came to be known: the answer to what was sent, or found under its reference. */
export type Source = 'answer' | 'recovered' | 'earlier'

/** Why gw cannot tell whether the money moved. */
export type UnknownReason =
  /** No answer came back, and looking the reference up told nothing either. */
  | {why: 'unanswered'}
  /** The record does not say approved or declined (no successful or authorized field). */
  | {why: 'no_outcome'}
  /** Found under the reference, but not the transaction sent. */
  | {why: 'different'; differences: Difference[]}
  /** Found under the reference, but what would show it is the one sent could not be checked. */
  | {why: 'unchecked'; unchecked: string[]}

export type Decided =
  | {outcome: 'approved'; noun: Noun; record: GwRecord; source: Source}
  | {outcome: 'declined'; noun: Noun; record: GwRecord; source: Source; reason: string}
  /** The reference belongs to another transaction: nothing was sent under it now. */
  | {outcome: 'taken'; noun: Noun; record: GwRecord; differences: Difference[]}
  | {outcome: 'unknown'; noun: Noun; record?: GwRecord; reason: UnknownReason}

/**
 * Approved (true), declined (false), or not said (undefined): the contract names the outcome
 * `successful`, some answers call it `authorized`. A record that says neither is no decline:
 * the money may have moved.
 */
export function outcomeOf(record: GwRecord): boolean | undefined {
  for (const field of ['successful', 'authorized']) {
    if (typeof record[field] === 'boolean') return record[field]
  }
  return undefined
}

/** The gateway's word for a decline, or `Declined` when it gave none. */
export function declineReason(record: GwRecord): string {
  return typeof record.message === 'string' && record.message ? record.message : 'Declined'
}

/** The outcome a whole record states, believed as it is: the gateway's answer to this very request. */
export function decideAnswer(noun: Noun, record: GwRecord, source: Source = 'answer'): Decided {
  const outcome = outcomeOf(record)
  if (outcome === true) return {outcome: 'approved', noun, record, source}
  if (outcome === false) return {outcome: 'declined', noun, record, source, reason: declineReason(record)}
  return {outcome: 'unknown', noun, record, reason: {why: 'no_outcome'}}
}

/**
 * A record found under the reference of what was sent: believed only when it is that transaction.
 * After a lost answer (`recovered`) a record that differs leaves the outcome unknown; where the
 * gateway refused the reference or an earlier run sent it (`earlier`), it is another transaction's,
 * and nothing of this one was sent under it.
 */
export function decideFound(noun: Noun, sent: GwRecord, found: GwRecord, evidence: Evidence, source: Exclude<Source, 'answer'>): Decided {
  const {differences, unchecked} = compare(noun, sent, found, evidence)
  if (differences.length > 0) {
    return source === 'recovered'
      ? {outcome: 'unknown', noun, record: found, reason: {why: 'different', differences}}
      : {outcome: 'taken', noun, record: found, differences}
  }
  if (unchecked.length > 0) return {outcome: 'unknown', noun, record: found, reason: {why: 'unchecked', unchecked}}
  return decideAnswer(noun, found, source)
}

/** design.md §4: what each outcome exits with. */
export function exitCodeOf(decided: Decided): number {
  return {approved: 0, declined: 3, taken: 7, unknown: 8}[decided.outcome]
}

/**
 * What a record found must share with what was sent, per noun, from what real records carry:
 * - a purchase: its reference, amount, currency and card (the number as the gateway masks it, or
 *   the token; an alias is matched through the token it stands for);
 * - a refund: its amount (negative in the contract, positive from the live gateway), its reference
 *   when it names one (the contract's refund record has none), and its card (masked number and
 *   holder) against the purchase refunded, since nothing in a live refund names its purchase.
 * A field the record lacks, or evidence that could not be learned, is unchecked, never a match.
 */
export function compare(noun: Noun, sent: GwRecord, found: GwRecord, evidence: Evidence = {}): {differences: Difference[]; unchecked: string[]} {
  const differences: Difference[] = []
  const unchecked: string[] = []
  const differ = (field: string, expected: unknown, foundValue: unknown, against: Difference['against'] = 'sent') =>
    differences.push({field, against, expected: shown(expected), found: shown(foundValue)})
  const need = (field: string, value: unknown): boolean => {
    if (value !== undefined && value !== null) return true
    unchecked.push(field)
    return false
  }

  if (noun === 'refund') {
    if (found.reference !== undefined && found.reference !== null && !sameReference(sent.reference, found.reference)) differ('reference', sent.reference, found.reference)
    if (need('amount', found.amount) && (typeof found.amount === 'number' ? Math.abs(found.amount) : found.amount) !== sent.amount) differ('amount', sent.amount, found.amount)
    compareRefundCard(found, evidence.purchase, differ, need)
    return {differences, unchecked}
  }

  if (need('reference', found.reference) && !sameReference(sent.reference, found.reference)) differ('reference', sent.reference, found.reference)
  if (need('amount', found.amount) && found.amount !== sent.amount) differ('amount', sent.amount, found.amount)
  if (typeof sent.currency === 'string' && need('currency', found.currency) && !sameText(found.currency, sent.currency)) differ('currency', sent.currency, found.currency)
  if (typeof sent.card_number === 'string') {
    if (need('card_number', found.card_number) && !sameCard(sent.card_number, found.card_number)) differ('card_number', maskCardNumber(sent.card_number), found.card_number)
  } else if (typeof sent.card_token === 'string' && need('card_token', found.card_token) && found.card_token !== sent.card_token) {
    // The card may have been named by its alias, and the record names it by its token.
    // A token is shown by its last four only, wherever a message repeats it; an alias as it is.
    if (evidence.aliasToken === undefined || evidence.aliasToken === null) unchecked.push(`card_token (what alias ${maskCardDataIn(JSON.stringify(sent.card_token))} stands for)`)
    else if (found.card_token !== evidence.aliasToken) differ('card_token', maskCardDataIn(sent.card_token), maskCardDataIn(String(found.card_token)))
  }
  return {differences, unchecked}
}

function compareRefundCard(
  found: GwRecord,
  purchase: GwRecord | null | undefined,
  differ: (field: string, expected: unknown, found: unknown, against: Difference['against']) => void,
  need: (field: string, value: unknown) => boolean,
): void {
  if (!purchase) return void need('purchase refunded', null)
  if (need('card_number', found.card_number) && need("purchase's card_number", purchase.card_number) && !sameCard(purchase.card_number, found.card_number)) {
    differ('card_number', purchase.card_number, found.card_number, 'purchase')
  }
  if (need('card_holder', found.card_holder) && need("purchase's card_holder", purchase.card_holder) && !sameText(found.card_holder, purchase.card_holder)) {
    differ('card_holder', purchase.card_holder, found.card_holder, 'purchase')
  }
  if (typeof found.currency === 'string' && typeof purchase.currency === 'string' && !sameText(found.currency, purchase.currency)) differ('currency', purchase.currency, found.currency, 'purchase')
}

/**
 * Whether the reference found is the one sent: the same text, or the text with its card numbers
 * masked, as a gateway that never keeps one whole stores it (the local gateway after a restart,
 * docs/local-gateway.md). Found under the reference sent, and held to its amount and card too.
 */
function sameReference(sent: unknown, found: unknown): boolean {
  return found === sent || (typeof sent === 'string' && found === maskCardNumbersIn(sent))
}

const MASKED = /[Xx*•]/g

/**
 * Whether two card numbers, either whole or masked as gateways mask them (`424242XXXXXX4242`),
 * can be the same card: the same length, and every digit both show the same; at least the last
 * four must show in both, or nothing was compared.
 */
export function sameCard(a: unknown, b: unknown): boolean {
  // Some gateways send a card number as a JSON number: its digits, while it holds them all.
  const digits = (value: unknown) => (Number.isSafeInteger(value) && (value as number) > 0 ? String(value) : value)
  const [p, q] = [digits(a), digits(b)]
  if (typeof p !== 'string' || typeof q !== 'string') return false
  const [x, y] = [p, q].map((number) => number.replace(/[\s-]/g, '').replace(MASKED, '_'))
  // Ending in four digits each, so never shorter than four.
  if (x!.length !== y!.length) return false
  if (!/\d{4}$/.test(x!) || !/\d{4}$/.test(y!)) return false
  return [...x!].every((char, index) => char === '_' || y![index] === '_' || char === y![index])
}

function sameText(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.trim().toUpperCase() === b.trim().toUpperCase()
}

/** A value as it may be shown: a card number sent back whole is masked, a nested record made safe. */
function shown(value: unknown): unknown {
  if (value === undefined) return null
  return redact(value)
}
