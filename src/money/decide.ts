/**
 * The one place gw decides what became of a purchase or a refund (design.md §5, style.md §12):
 * approved, declined, done earlier under its reference, taken by another transaction, or unknown;
 * and of a batch's payment plan or direct debit: made (or made earlier), taken, or unknown.
 * The client's recovery of a lost answer, a reference the gateway says is taken, a batch resumed
 * after a crash and a batch row's status all come here. Pure: what it needs from the gateway is
 * gathered first (find.ts). Facts about records come from gateway-notes.md, not from what the
 * local gateway happens to send: a live refund record names neither its purchase
 * (`transaction_id` is its own id) nor always its reference, and its amount is positive.
 */
import type {RecordNoun} from '../errors.js'
import {maskCardDataIn, maskCardNumber, redact} from '../safety/redact.js'
import {sameCard, sameReference, sameText} from './same.js'
import type {GwRecord} from '../api/schemas/record.js'

export {sameCard} from './same.js'

export type Noun = RecordNoun

/** What is made, not approved or declined: a plan or a debit is there, or not (gateway-beyond.md §9-10). */
const MADE: ReadonlySet<Noun> = new Set(['payment plan', 'direct debit'])

/** Whether the noun's outcome is made rather than approved or declined. */
export function isMade(noun: Noun): boolean {
  return MADE.has(noun)
}

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
  /** Nothing found under the reference, where the gateway is not known to find this noun by one: it may still be there. */
  | {why: 'not_findable'}

export type Decided =
  | {outcome: 'approved'; noun: Noun; record: GwRecord; source: Source}
  /** A payment plan or direct debit the gateway holds: its record, with its id. */
  | {outcome: 'made'; noun: Noun; record: GwRecord; source: Source}
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

/**
 * The outcome a whole record states, believed as it is: the gateway's answer to this very request.
 * A plan or debit is made once its record has an id (a record without one says nothing was made).
 */
export function decideAnswer(noun: Noun, record: GwRecord, source: Source = 'answer'): Decided {
  if (isMade(noun)) return typeof record.id === 'string' && record.id !== '' ? {outcome: 'made', noun, record, source} : {outcome: 'unknown', noun, record, reason: {why: 'no_outcome'}}
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

/**
 * Whether the gateway's look-up by reference is known to find this noun: a purchase, a refund and a
 * payment plan are looked up by reference in its recorded answers; a direct debit by its id only
 * (gateway-beyond.md §10), so a debit it does not find under its reference may still be there.
 */
export function foundByReference(noun: Noun): boolean {
  return noun !== 'direct debit'
}

/**
 * A row an earlier run sent with no answer kept, and the gateway has nothing under its reference
 * (once it can no longer be processing it): to be sent (undefined) where a look-up by reference
 * would have found it; otherwise unknown, never sent again.
 */
export function decideNotFound(noun: Noun): Decided | undefined {
  return foundByReference(noun) ? undefined : {outcome: 'unknown', noun, reason: {why: 'not_findable'}}
}

/** design.md §4: what each outcome exits with. */
export function exitCodeOf(decided: Decided): number {
  return {approved: 0, made: 0, declined: 3, taken: 7, unknown: 8}[decided.outcome]
}

/**
 * One field a record found must share: `field` of the record found, held against the same field of
 * what was sent or of the purchase refunded, by a sameness of SAME, once each side holds what its
 * presence asks, and not at all when the request sent `unlessSent` (another way of naming the same
 * thing, compared instead). Only what gw sent may be held `as is`: a purchase learned from the
 * gateway may lack a field, and a field it lacks is unchecked (`purchase's card_holder`).
 */
type FieldRule = {field: string; same: keyof typeof SAME; found: Exclude<Presence, 'as is'>; unlessSent?: string; shownAs?: keyof typeof SHOWN_AS} & (
  | {against: 'sent'; expected: 'as is' | 'if text' | 'if named'}
  | {against: 'purchase'; expected: 'needed' | 'if text'}
)

/** A field always sent, and echoed by every record found: held as it was sent. */
function echoed(field: string, same: keyof typeof SAME = 'exact'): FieldRule {
  return {field, against: 'sent', same, found: 'needed', expected: 'as is'}
}

/**
 * What a record found must share with what was sent, per noun, from what real records carry
 * (gateway-notes.md), checked in this order. A field rule is one row; a new way of being the same
 * is one entry of SAME, a new way of showing a value one of SHOWN_AS.
 */
const FIELD_RULES: Record<Noun, readonly FieldRule[]> = {
  purchase: [
    {field: 'reference', against: 'sent', same: 'reference', found: 'needed', expected: 'as is'},
    {field: 'amount', against: 'sent', same: 'exact', found: 'needed', expected: 'as is'},
    // Sent without one, the merchant's default currency was taken, whichever it is.
    {field: 'currency', against: 'sent', same: 'text', found: 'needed', expected: 'if text'},
    // A card is sent by its number (the record shows it masked) or by a token: when both are, the number.
    {field: 'card_number', against: 'sent', same: 'card', found: 'needed', expected: 'if text', shownAs: 'typed card number'},
    {field: 'card_token', against: 'sent', same: 'token or alias', found: 'needed', expected: 'if text', unlessSent: 'card_number', shownAs: 'card key'},
  ],
  refund: [
    // The contract's refund record has no reference; a live one has.
    {field: 'reference', against: 'sent', same: 'reference', found: 'if named', expected: 'as is'},
    {field: 'amount', against: 'sent', same: 'absolute amount', found: 'needed', expected: 'as is'},
    // Nothing in a live refund names its purchase: its card is held against the purchase's.
    {field: 'card_number', against: 'purchase', same: 'card', found: 'needed', expected: 'needed'},
    {field: 'card_holder', against: 'purchase', same: 'text', found: 'needed', expected: 'needed'},
    {field: 'currency', against: 'purchase', same: 'text', found: 'if text', expected: 'if text'},
  ],
  // Every field the request sets is echoed in the recorded plan (gateway-beyond.md §9); the customer by the id gw sent.
  'payment plan': [
    echoed('reference', 'reference'),
    echoed('customer'),
    echoed('amount'),
    // Sent without one, the gateway's (null in 2017-2019, AUD in 2022) is whatever it implies.
    {field: 'currency', against: 'sent', same: 'text', found: 'needed', expected: 'if text'},
    echoed('frequency', 'text'),
    echoed('anniversary'),
    echoed('start_date'),
    echoed('setup_fee'),
    // A count or an end date, or both: each held only when sent.
    {field: 'total_count', against: 'sent', same: 'exact', found: 'needed', expected: 'if named'},
    {field: 'end_date', against: 'sent', same: 'exact', found: 'needed', expected: 'if named'},
  ],
  // The debit as recorded (gateway-beyond.md §10): its amount in dollars, as sent; its reference the id when none was sent.
  'direct debit': [echoed('reference', 'reference'), echoed('amount'), echoed('bsb'), echoed('account_number'), echoed('account_name', 'text'), echoed('description', 'text')],
}

/** What one rule found: a difference, or a field that could not be checked; nothing when the same or not compared. */
type Verdict = {difference: Difference} | {unchecked: string}

/** What differs from what was sent, and what could not be checked: FIELD_RULES held to the record found. */
export function compare(noun: Noun, sent: GwRecord, found: GwRecord, evidence: Evidence = {}): {differences: Difference[]; unchecked: string[]} {
  const verdicts = FIELD_RULES[noun].flatMap((rule) => judge(rule, sent, found, evidence) ?? [])
  return {
    differences: verdicts.flatMap((verdict) => ('difference' in verdict ? [verdict.difference] : [])),
    // Every rule held against a purchase refunded that could not be learned says so: one thing not known.
    unchecked: [...new Set(verdicts.flatMap((verdict) => ('unchecked' in verdict ? [verdict.unchecked] : [])))],
  }
}

function judge(rule: FieldRule, sent: GwRecord, found: GwRecord, evidence: Evidence): Verdict | undefined {
  const held = rule.against === 'sent' ? sent : evidence.purchase
  if (!held) return {unchecked: 'purchase refunded'}
  const [expected, value] = [held[rule.field], found[rule.field]]
  if (rule.unlessSent !== undefined && typeof sent[rule.unlessSent] === 'string') return undefined
  if (!COMPARED[rule.expected](expected) || !COMPARED[rule.found](value)) return undefined
  // Past its presence, a field found holds something or was `needed`: missing, it is never a match.
  if (!named(value)) return {unchecked: rule.field}
  if (rule.expected === 'needed' && !named(expected)) return {unchecked: `purchase's ${rule.field}`}
  const same = SAME[rule.same](expected, value, evidence)
  if (typeof same === 'string') return {unchecked: `${rule.field} (${same})`}
  if (same) return undefined
  const {expected: showExpected = noChange, found: showFound = noChange}: ShownAs = rule.shownAs ? SHOWN_AS[rule.shownAs] : {}
  return {difference: {field: rule.field, against: rule.against, expected: shown(showExpected(expected)), found: shown(showFound(value))}}
}

/**
 * What a side of a field rule must hold for the rule to be checked:
 * - `needed`: something (neither absent nor null), or the field is unchecked, never a match;
 * - `if named`: compared only when it holds something (a field some records leave out);
 * - `if text`: compared only when it is text (a field a request or a record may leave out);
 * - `as is`: compared whatever it holds (what was sent is what was sent, nothing included).
 */
type Presence = 'needed' | 'if named' | 'if text' | 'as is'

/** Whether a rule is compared at all, by what one side holds (a `needed` side missing is then unchecked). */
const COMPARED: Record<Presence, (value: unknown) => boolean> = {
  needed: () => true,
  'if named': (value) => named(value),
  'if text': (value) => typeof value === 'string',
  'as is': () => true,
}

/**
 * Whether a field found is the one expected: true, false, or what was not learned that would tell
 * (the field is then unchecked, never a match).
 */
type Sameness = (expected: unknown, found: unknown, evidence: Evidence) => boolean | string

const SAME = {
  exact: (expected, found) => found === expected,
  // A refund's amount is negative in the contract and positive from the live gateway.
  'absolute amount': (expected, found) => (typeof found === 'number' ? Math.abs(found) : found) === expected,
  // Currencies and holders' names as gateways and people write them: in any case, spaces around aside.
  text: (expected, found) => sameText(found, expected),
  card: (expected, found) => sameCard(expected, found),
  reference: (expected, found) => sameReference(expected, found),
  // A card may be named by an alias, and the record names it by the token the alias stands for.
  // An alias is repeated as it is, a token by its last four only.
  'token or alias': (expected, found, {aliasToken}) =>
    found === expected || (aliasToken === undefined || aliasToken === null ? `what alias ${maskCardDataIn(JSON.stringify(expected))} stands for` : found === aliasToken),
} satisfies Record<string, Sameness>

/** How the values of a difference are shown, before redact (which masks only what it can tell is card data). */
interface ShownAs {
  expected?: (value: unknown) => unknown
  found?: (value: unknown) => unknown
}

const SHOWN_AS = {
  // A card number a person typed: masked whole, whether or not it passes the Luhn check.
  'typed card number': {expected: (value) => maskCardNumber(String(value))},
  // A stored card's token or alias, on both sides: a token by its last four, an alias as it is.
  'card key': {expected: (value) => maskCardDataIn(String(value)), found: (value) => maskCardDataIn(String(value))},
} satisfies Record<string, ShownAs>

function named(value: unknown): boolean {
  return value !== undefined && value !== null
}

function noChange(value: unknown): unknown {
  return value
}

/** A value as it may be shown: a card number sent back whole is masked, a nested record made safe. */
function shown(value: unknown): unknown {
  if (value === undefined) return null
  return redact(value)
}
