import {DIGIT_CLASS, SEPARATOR_CLASS} from './card-digits.js'
import {holdsCardNumber, looksLikeCardNumber, maskCardNumber, maskCardNumbersIn} from './card-text.js'
import {keepNumbersWritten, parseKeepingNumbers, stringifyAsWritten} from '../lib/json-as-written.js'

// The card number rules, for what masks with redact: one import.
export {holdsCardNumber, looksLikeCardNumber, maskCardNumber, maskCardNumbersIn} from './card-text.js'

/**
 * The one function that makes card data safe to print, journal or log (design.md §3): a record,
 * request or answer with every whole card number masked, under its own name or any other (a number
 * typed as a token or a reference), every card number inside a text masked where it stands (a
 * reference `x4111111111111111y`, a note `card 4242 4242 4242 4242 declined`: maskCardNumbersIn),
 * and every CVV and secret left out, whoever sent them. A card number sent as a JSON number is
 * masked as the same digits in a string would be, and so becomes a string (`424242XXXXXX4242`):
 * JSON has no masked number. Every other field stays, in its order: --json is still the gateway's
 * record. What needs no change is handed back as it is, not copied (a list's records almost never
 * do, and a page of them is read in constant memory); what does is a copy, the value given left alone.
 */
export function redact<T>(value: T): T {
  if (!needsRedacting(value)) return value
  // What needs redacting is a card number (a string, or a JSON number), or a list or record holding one or a secret.
  if (typeof value === 'string') return maskCardText(value) as T
  if (typeof value === 'number') return maskCardNumber(String(value)) as T
  if (Array.isArray(value)) return value.map(redact) as T
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value as object)) {
    const kind = kindOf(key)
    if (kind === 'secret' || kind === 'cvv') continue
    copy[key] = kind === 'card' && (typeof field === 'string' || typeof field === 'number') ? maskCardNumber(String(field)) : redact(field)
  }
  return keepNumbersWritten(value as object, copy) as T
}

/** A text that is a card number whole, however spaced, masked as one; any other, the card numbers inside it. */
function maskCardText(text: string): string {
  return looksLikeCardNumber(text) ? maskCardNumber(text) : maskCardNumbersIn(text)
}

/** Whether anything in a value is a card number not yet masked, or a secret. */
function needsRedacting(value: unknown): boolean {
  // A text that is a card number whole holds one.
  if (typeof value === 'string') return holdsCardNumber(value)
  if (typeof value === 'number') return numberLooksLikeCardNumber(value)
  if (value === null || typeof value !== 'object') return false
  // A list's items are its values too.
  for (const [key, field] of Object.entries(value)) {
    const kind = kindOf(key)
    if (kind === 'secret' || kind === 'cvv' || needsRedacting(field)) return true
    if (kind === 'card' && (typeof field === 'number' || (typeof field === 'string' && maskCardNumber(field) !== field))) return true
  }
  return false
}

/**
 * A whole number that looks like a card number, or that is too large for its digits to have
 * survived JSON parsing (above 2^53 they are rounded, so the Luhn check cannot tell) and still
 * has no more than 19 of them: masked, since the digits it shows are most of a card number's.
 */
function numberLooksLikeCardNumber(value: number): boolean {
  if (Number.isSafeInteger(value)) return looksLikeCardNumber(String(value))
  return Number.isInteger(value) && Math.abs(value) < 1e19
}

/**
 * What a key holds, by its name: a CVV, left out of everything gw or its local gateway prints,
 * logs or keeps; a secret (a password, a token), left out of what gw shows; a card number, masked
 * whole, however short. A CVV is any key holding `cvv` or `cvc`, in any case and whatever is
 * around it (`cvv2`, `card[cvv]`, `Card_CVC`), but the gateway's `cvv_match`, the outcome of its
 * check (gateway-notes.md). By the name in lower case; a CVV's key, `cvv` and `cvc` themselves
 * too, by what it holds (namesCvv).
 */
const KEY_KINDS: ReadonlyMap<string, KeyKind | 'kept'> = new Map([
  ['cvv_match', 'kept'],
  ['password', 'secret'],
  ['authentication_password', 'secret'],
  ['token_secret', 'secret'],
  ['api_token', 'secret'],
  ['card_number', 'card'],
  ['number', 'card'],
  ['pan', 'card'],
])

export type KeyKind = 'cvv' | 'secret' | 'card'

/** What a key holds, by its name in any case (KEY_KINDS): a CVV or a secret, left out; a card number, masked. */
export function kindOf(key: string): KeyKind | undefined {
  const lower = key.toLowerCase()
  const kind = KEY_KINDS.get(lower)
  if (kind !== undefined) return kind === 'kept' ? undefined : kind
  return namesCvv(lower) ? 'cvv' : undefined
}

/** Whether a key in lower case holds `cvv` or `cvc`: one search for `cv`, which most keys do not hold. */
function namesCvv(lower: string): boolean {
  for (let at = lower.indexOf('cv'); at !== -1; at = lower.indexOf('cv', at + 1)) {
    const next = lower.charCodeAt(at + 2)
    if (next === 0x76 || next === 0x63) return true
  }
  return false
}

/** The lengths of the keys kindOf knows by their whole name (lower case keeps an ASCII key's length): the others are told apart by theirs, or by holding no `cv`. */
export const KIND_KEY_LENGTHS: ReadonlySet<number> = new Set([...KEY_KINDS.keys()].map((key) => key.length))

/**
 * Redacts a body that may not be JSON (an HTML error page, say): the card numbers in its text are
 * masked. JSON with nothing to redact is handed back as it came, spacing and all (--verbose and
 * gw api show what the gateway sent).
 */
export function redactText(text: string): string {
  let value: unknown
  try {
    value = parseKeepingNumbers(text)
  } catch {
    return maskCardNumbersIn(text)
  }
  const redacted = redact(value)
  // A card number the text holds and its value does not was under a key named twice: the value is written anew without it.
  return redacted === value && !holdsCardNumber(text) ? text : stringifyAsWritten(redacted)
}

/**
 * An error about flags, as oclif words it, made safe to show: it names the flag and never its
 * value (`--cvv=987 cannot also be provided` becomes `--cvv cannot also be provided`), and a card
 * number left anywhere in it (an unexpected argument, say) is masked. Only a flag with a fixed
 * list of choices keeps the value it refuses (`Expected --event=charge:everything to be one of`):
 * no card data or token has a choice list, and the typo is what the person needs to see.
 */
export function redactFlagMessage(message: string): string {
  const named = message.replace(
    /(Expected --[\w-]+=[\s\S]*? to be one of:)|(--[\w-]+)=[\s\S]*? (cannot also be provided when using)|(--[\w-]+)=\S*/g,
    (_, choice: string | undefined, exclusive: string | undefined, phrase: string | undefined, flag: string | undefined) => choice ?? (exclusive ? `${exclusive} ${phrase}` : flag!),
  )
  return maskCardDataIn(named)
}

/**
 * A stored card's token (or alias) as gw and the local gateway's log show it: every character but
 * the last four hidden, so that it is told apart from another without being usable to charge the
 * card; one shorter than eight characters wholly.
 */
export function maskCardToken(token: string): string {
  return token.length < 8 ? '*'.repeat(token.length) : '*'.repeat(token.length - 4) + token.slice(-4)
}

/** A path or URL naming a stored card (`/v1.0/credit_cards/<token>`), its token or alias masked. */
export function maskCardTokenPath(path: string): string {
  return path.replace(/(\/credit_cards\/)([^/?#]+)/i, (_, before: string, key: string) => {
    const json = key.endsWith('.json') ? '.json' : ''
    return before + maskCardToken(key.slice(0, key.length - json.length)) + json
  })
}

/**
 * A path or URL as gw and the local gateway show and log it: a stored card's token masked
 * (maskCardTokenPath), and every card number in it masked, as written or percent-encoded (a
 * reference `ord-4111%201111%201111%201111` in a path), each part of it that held one encoded anew.
 */
export function maskCardPath(path: string): string {
  const shown = maskCardNumbersIn(maskCardTokenPath(path))
  // Stryker disable next-line ConditionalExpression: a shortcut; a path without % decodes to itself, to the same answer.
  if (!shown.includes('%')) return shown
  return shown.replace(/[^/?&=#]+/g, (part) => {
    let decoded: string
    try {
      decoded = decodeURIComponent(part)
    } catch {
      return part
    }
    const masked = maskCardNumbersIn(decoded)
    return masked === decoded ? part : encodeURIComponent(masked)
  })
}

/** The gateway's `Card <token> could not be found`, its words kept and the token's masked. */
export function maskCardTokensIn(text: string): string {
  return text.replace(/\b(Card )(\S+)( could not be found)/g, (_, before: string, token: string, after: string) => before + maskCardToken(token) + after)
}

// 12 to 19 digits of the table's, a separator between two or none, not inside a word.
const TYPED_DIGITS = new RegExp(`(?<![\\p{L}\\p{Nd}])[${DIGIT_CLASS}](?:[${SEPARATOR_CLASS}]?[${DIGIT_CLASS}]){11,18}(?![\\p{L}\\p{Nd}])`, 'gu')

/**
 * Words a person typed where gw expected none (an unexpected argument), made safe to repeat: card
 * numbers masked, and a word shaped as the gateway's card tokens are (20 lower-case letters and
 * digits, gateway-notes.md) masked as a token.
 */
export function maskCardDataIn(text: string): string {
  // A person's typing: a run of 12 to 19 digits is masked whether or not it passes the Luhn check (a card number mistyped is still most of one).
  return maskCardNumbersIn(text)
    .replace(TYPED_DIGITS, maskCardNumber)
    .replace(/(?<![\w*-])[a-z\d]{20}(?![\w-])/g, maskCardToken)
}
