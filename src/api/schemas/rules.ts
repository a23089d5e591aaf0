import {looksLikeCardNumber, maskCardNumber} from '../../safety/redact.js'
import {expiryAsSent, expiryParts, luhnValid} from './card-rules.js'
import {FREQUENCIES, type Frequency, frequencyNamed} from './recurring-rules.js'

/**
 * The rules a request field is held to before it is sent, each worded once. Flags (validate.ts),
 * batch rows (batch/rows.ts) and the request bodies' zod schemas (fields.ts, and through them a
 * fixtures file's steps) all check by these. A problem is worded to follow the name of what holds
 * the value: `amount must be greater than 0, got 0` for a field, `--amount ...` for a flag.
 * No zod here, so a flag is checked at start-up without loading it.
 */
export type Checked<T> = {value: T} | Problem

/** What is wrong, and which way: a flag's hint may depend on it (an example for a malformed value, none for an expired card). */
export interface Problem {
  problem: string
  kind: 'blank' | 'malformed' | 'out-of-range' | 'luhn' | 'expired' | 'card-number'
}

const ok = <T>(value: T): Checked<T> => ({value})
const problem = (kind: Problem['kind'], text: string): Problem => ({problem: text, kind})

/** The largest amount a number holds exactly; above it two amounts would compare equal. */
const MAX_AMOUNT = Number.MAX_SAFE_INTEGER

/** An amount in the currency's minor unit (1000 is 10.00 AUD): a whole number above 0, given as digits or as a number. */
export function amount(input: string | number): Checked<number> {
  const text = typeof input === 'number' ? String(input) : input.trim()
  const value = typeof input === 'number' ? input : /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isInteger(value)) return problem('malformed', `must be a positive whole number in the currency's minor unit, got "${typeof input === 'number' ? text : input}"`)
  if (value <= 0) return problem('out-of-range', `must be greater than 0, got ${text}`)
  // Worded without its digits: a run of 16 digits reads as a card number, and stderr would mask it.
  if (value > MAX_AMOUNT) return problem('out-of-range', `must be at most 2^53 - 1, the largest whole number gw holds exactly, got ${text}`)
  return ok(value)
}

/** Text the gateway refuses blank (names, references, descriptions): trimmed. */
export function notBlank(input: string): Checked<string> {
  const value = input.trim()
  return value === '' ? problem('blank', 'must not be blank') : ok(value)
}

/** The longest text the gateway takes in a field (the local gateway's limit too; gateway-notes.md shows no other). */
export const MAX_TEXT = 255

/** What is wrong with text of this length, worded once: a field, a flag, a fixtures file's string too long to be kept. */
export function tooLong(length: number): string {
  return `is ${length} characters long; the gateway takes at most ${MAX_TEXT}`
}

/** Text no longer than the gateway takes. */
export function notTooLong(input: string): Checked<string> {
  return input.length > MAX_TEXT ? problem('out-of-range', tooLong(input.length)) : ok(input)
}

/** Text the gateway refuses blank and cuts off long (names, descriptions): trimmed, and no longer than it takes. */
export function text(input: string): Checked<string> {
  const checked = notBlank(input)
  return 'problem' in checked ? checked : notTooLong(checked.value)
}

/** The digits of a card number; spaces and dashes between them are ignored. */
export function cardNumber(input: string): Checked<string> {
  const digits = input.replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(digits)) return problem('malformed', 'must be 12 to 19 digits (spaces and dashes are ignored)')
  if (!luhnValid(digits)) return problem('luhn', 'fails the Luhn check: a digit is wrong or missing')
  return ok(digits)
}

/** A stored card's token or alias: never a card number given in its place, which would be sent and kept (shown only masked). */
export function cardKey(input: string): Checked<string> {
  const blank = notBlank(input)
  if ('problem' in blank) return blank
  return looksLikeCardNumber(blank.value) ? problem('card-number', `${maskCardNumber(blank.value)} is a card number, not a token or alias`) : blank
}

/** MM/YY or MM/YYYY (expiryAsSent), this month or later; the value is MM/YYYY, as the gateway takes it. */
export function cardExpiry(input: string, today: Date = new Date()): Checked<string> {
  const value = expiryAsSent(input)
  // The shape is right and the month is not (13/2030, or the year first, 30/12): the month is what to fix.
  const written = expiryParts(input)?.month
  if (value === undefined && written !== undefined) return problem('out-of-range', `month must be 01 to 12, got ${written} in "${input}"`)
  if (value === undefined) return problem('malformed', `must be MM/YY or MM/YYYY, got "${input}"`)
  const [month, year] = value.split('/').map(Number) as [number, number]
  const thisMonth = today.getFullYear() * 12 + today.getMonth()
  if (year * 12 + (month - 1) < thisMonth) return problem('expired', `${value} is in the past: the card has expired`)
  return ok(value)
}

export function cvv(input: string): Checked<string> {
  const value = input.trim()
  return /^\d{3,4}$/.test(value) ? ok(value) : problem('malformed', 'must be 3 or 4 digits')
}

/** An ISO 4217 code in any case, as the gateway spells it: upper case. */
export function currency(input: string): Checked<string> {
  const value = input.trim().toUpperCase()
  return /^[A-Z]{3}$/.test(value) ? ok(value) : problem('malformed', `must be a three-letter ISO 4217 code such as AUD, got "${input}"`)
}

/** A subscription frequency in any case, as the gateway spells it. */
export function frequency(input: string): Checked<Frequency> {
  const named = frequencyNamed(input)
  return named ? ok(named) : problem('malformed', `must be one of ${FREQUENCIES.join(', ')}, got "${input}"`)
}

/** A calendar date as YYYY-MM-DD that exists (no 31 April). */
export function date(input: string): Checked<string> {
  const value = input.trim()
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  const [year, month, day] = match ? (match.slice(1).map(Number) as [number, number, number]) : [0, 0, 0]
  const parsed = new Date(Date.UTC(year, month - 1, day))
  const exists = match !== null && parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day
  return exists ? ok(value) : problem('malformed', `must be a date as YYYY-MM-DD, got "${input}"`)
}

/** Only the shape: one @, something either side, a dot in the domain. The gateway has the last word. */
export function email(input: string): Checked<string> {
  const value = input.trim()
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? ok(value) : problem('malformed', `must be an email address, got "${input}"`)
}

/** The longest reference the gateway takes. */
export const MAX_REFERENCE = 255

/** A reference: not blank, and no longer than the gateway takes. */
export function reference(input: string): Checked<string> {
  const checked = notBlank(input)
  if ('problem' in checked || checked.value.length <= MAX_REFERENCE) return checked
  return problem('out-of-range', `is ${checked.value.length} characters long; the gateway takes at most ${MAX_REFERENCE}`)
}
