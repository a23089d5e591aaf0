import {luhnValid} from '../../api/schemas/card-rules.js'
import {LOWER_ALPHANUMERIC, randomCode} from './ids.js'
import {blankMessage, isBlank} from './input.js'
import type {CardRecord} from './records.js'

const INVALID_CARD_NUMBER = 'Invalid Card Number'
/** The gateway's words for an expiry missing or not MM/YYYY, as its empty card's 422 says them (gateway-beyond.md §14.7). */
const EXPIRY_INVALID = 'Expiry date is missing or invalid.'
/** A card without a number has no scheme, and the gateway says so with the blank scheme in front (§14.7, leading space as recorded). */
const NO_CARD_TYPE = ' is not an accepted card type'
export const EXPIRY_EXPIRED = 'Expiry date is invalid (expired)'

/** Card numbers are typed with spaces or dashes as often as without. */
const normalizeCardNumber = (number: string) => number.replace(/[\s-]/g, '')

/** First 6 and last 4 digits stay: `512345XXXXXX2346`. Anything too short to keep both is all X. */
export function maskCardNumber(number: string): string {
  if (number.length <= 10) return 'X'.repeat(number.length)
  return number.slice(0, 6) + 'X'.repeat(number.length - 10) + number.slice(-4)
}

const SCHEMES: [RegExp, string][] = [
  [/^3[47]/, 'AMEX'],
  [/^4/, 'VISA'],
  [/^(5[1-5]|2(22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/, 'MasterCard'],
  [/^3(0[0-5]|[689])/, 'Diners'],
  [/^(6011|65|64[4-9])/, 'Discover'],
  [/^35(2[89]|[3-8]\d)/, 'JCB'],
]

export function cardType(number: string): string {
  return SCHEMES.find(([prefix]) => prefix.test(number))?.[1] ?? 'Unknown'
}

export const newCardToken = () => randomCode(20, LOWER_ALPHANUMERIC)

/**
 * MM/YYYY, or M/YYYY: ActiveMerchant's Fat Zebra gateway sends `"#{month}/#{year}"` with an
 * integer month, and the live gateway takes it.
 */
const EXPIRY = /^(0?[1-9]|1[0-2])\/(\d{4})$/

/** `02/2030` (or `2/2030`) → `2030-02-28`, the last day of the month; undefined when not MM/YYYY. */
export function expiryDate(expiry: string): string | undefined {
  const match = EXPIRY.exec(expiry)
  if (!match) return undefined
  const [month, year] = [Number(match[1]), Number(match[2])]
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return `${year}-${String(month).padStart(2, '0')}-${lastDay}`
}

/** A card expires after the last day of its expiry month; `today` is a `formatDate` string. */
export const isExpired = (endOfMonth: string, today: string) => endOfMonth < today

/** A `card_expiry` as its end-of-month date, or the message saying why it cannot be used. */
export function readExpiry(expiry: string | undefined, today: string): {date: string} | {error: string} {
  if (isBlank(expiry)) return {error: EXPIRY_INVALID}
  const date = expiryDate(expiry.trim())
  if (date === undefined) return {error: EXPIRY_INVALID}
  return isExpired(date, today) ? {error: EXPIRY_EXPIRED} : {date}
}

export interface CardDetailsInput {
  card_number?: string
  card_holder?: string
  card_expiry?: string
}

export interface CardDetails {
  number: string
  holder: string
  expiry: string
}

const numberProblem = (number: string) =>
  number === '' ? blankMessage('card_number') : luhnValid(number) ? undefined : INVALID_CARD_NUMBER

/**
 * Validates the card details group: every problem at once, in the recorded order of the gateway's
 * empty card (holder, number, expiry, CVV, scheme; gateway-beyond.md §14.7), `cvvProblem` being
 * the caller's, who knows when a CVV is needed. The CVV is not judged (the interface names no rule
 * for it, and a client sending it as a number loses its leading zeros) and never kept.
 */
export function checkCardDetails(
  input: CardDetailsInput,
  today: string,
  cvvProblem?: string,
): {errors: string[]; details?: CardDetails} {
  const number = normalizeCardNumber(input.card_number ?? '')
  const holder = input.card_holder?.trim() ?? ''
  const expiry = readExpiry(input.card_expiry, today)
  const errors = [
    holder === '' ? blankMessage('card_holder') : undefined,
    numberProblem(number),
    'error' in expiry ? expiry.error : undefined,
    cvvProblem,
    number === '' ? NO_CARD_TYPE : undefined,
  ].filter((problem) => problem !== undefined)
  if (errors.length > 0 || 'error' in expiry) return {errors}
  return {errors, details: {number, holder, expiry: expiry.date}}
}

/** A newly tokenized card; the full number is only read here, to mask it and find its scheme. */
export function newCardRecord(details: CardDetails): CardRecord {
  return {
    token: newCardToken(),
    card_holder: details.holder,
    card_number: maskCardNumber(details.number),
    card_expiry: details.expiry,
    card_type: cardType(details.number),
    card_category: 'Credit',
    card_subcategory: 'Standard',
    card_issuer: 'Sandbox Bank',
    // A country's name, as every recorded card names it (`Benin`, for the BIN of 512345...), not its code.
    card_country: 'Australia',
    authorized: true,
    transaction_count: 0,
    alias: null,
  }
}

/** The submitted card fields as a refused request echoes them: number masked, CVV left out. */
export function submittedCard(input: CardDetailsInput): Record<string, string | undefined> {
  return {
    card_holder: input.card_holder,
    card_number: input.card_number === undefined ? undefined : maskCardNumber(normalizeCardNumber(input.card_number)),
    card_expiry: input.card_expiry,
  }
}
