import {luhnValid} from './api/schemas/card-rules.js'

/** Characters a gateway masks hidden digits with. */
const MASK = /[Xx*•]/

/** A number masked as the gateway masks it: its first six and last four digits. */
const GATEWAY_MASKED = /^\d{6}[Xx*•]{2,9}\d{4}$/

/**
 * The one place card data is made safe to show: card numbers keep the first six and last four
 * digits (as the gateway masks them), CVVs and secrets disappear entirely. A number already
 * masked (the gateway's `424242XXXXXX4242`) is kept as it is: masking twice changes nothing.
 */
export function maskCardNumber(value: string): string {
  // What the gateway sends (512345XXXXXX2346) is kept as it is, without the work below.
  if (GATEWAY_MASKED.test(value)) return value
  const compact = value.replace(/[\s-]/g, '')
  if ([...compact].some((char) => !/\d/.test(char) && !MASK.test(char))) return value.replace(/\d/g, 'X')
  const digits = compact.replace(/\D/g, '').length
  if (digits < compact.length && digits <= 10) return compact
  if (compact.length < 12) return 'X'.repeat(compact.length)
  return compact.slice(0, 6) + 'X'.repeat(compact.length - 10) + compact.slice(-4)
}

/** 13 to 19 digits (spaces and dashes aside) that pass the Luhn check: a card number, wherever it turns up. */
export function looksLikeCardNumber(value: string): boolean {
  // Most strings of a record (names, dates, ids) are told apart by their length or a character
  // that no card number holds, before any regular expression runs.
  if (value.length < 13) return false
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if ((code >= 48 && code <= 57) || code === 45) continue
    if (!/\s/.test(value[i]!)) return false
  }
  const digits = value.replace(/[\s-]/g, '')
  return /^\d{13,19}$/.test(digits) && luhnValid(digits)
}

const SECRET_KEYS = /^(cvv|cvc|cvv2|cvc2|password|authentication_password|token_secret|api_token)$/i
const CARD_NUMBER_KEYS = /^(card_number|number|pan)$/i

/**
 * The one function that makes card data safe to print, journal or log (design.md §3): a deep copy
 * of a record, request or answer with every whole card number masked, under its own name or any
 * other (a number typed as a token or a reference), and every CVV and secret left out, whoever sent
 * them. A card number sent as a JSON number is masked as the same digits in a string would be, and
 * so becomes a string (`424242XXXXXX4242`): JSON has no masked number. Every other field stays, in
 * its order: --json is still the gateway's record.
 */
export function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redact) as T
  if (typeof value === 'string') return (looksLikeCardNumber(value) ? maskCardNumber(value) : value) as T
  if (typeof value === 'number') return (numberLooksLikeCardNumber(value) ? maskCardNumber(String(value)) : value) as T
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const kind = kindOf(key)
    if (kind === 'secret') continue
    const field = (value as Record<string, unknown>)[key]
    copy[key] = kind === 'card' && (typeof field === 'string' || typeof field === 'number') ? maskCardNumber(String(field)) : redact(field)
  }
  return copy as T
}

/**
 * A number of 13 to 19 digits that passes the Luhn check, or that is too large for its digits to
 * have survived JSON parsing (above 2^53 they are rounded, so the check cannot tell): masked,
 * since the digits it still shows are most of a card number's.
 */
function numberLooksLikeCardNumber(value: number): boolean {
  if (!Number.isInteger(value) || value < 1e12 || value >= 1e19) return false
  return !Number.isSafeInteger(value) || looksLikeCardNumber(String(value))
}

/** What a key holds, found once per key name: records repeat the same few dozen. */
const kinds = new Map<string, 'secret' | 'card' | 'other'>()
function kindOf(key: string): 'secret' | 'card' | 'other' {
  let kind = kinds.get(key)
  if (kind === undefined) {
    kind = SECRET_KEYS.test(key) ? 'secret' : CARD_NUMBER_KEYS.test(key) ? 'card' : 'other'
    // Keys are the gateway's field names; a body of made-up keys must not grow the map for ever.
    if (kinds.size < 1000) kinds.set(key, kind)
  }
  return kind
}

/** Redacts a body that may not be JSON (an HTML error page, say): long digit runs are masked. */
export function redactText(text: string): string {
  try {
    return JSON.stringify(redact(JSON.parse(text)))
  } catch {
    return maskCardNumbersIn(text)
  }
}

/** Every run of 12 to 19 digits in free text (an error message, a page), spaces or dashes between them or not, masked. */
export function maskCardNumbersIn(text: string): string {
  return text.replace(/\b\d(?:[ -]?\d){11,18}\b/g, maskCardNumber)
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

/** The gateway's `Card <token> could not be found`, its words kept and the token's masked. */
export function maskCardTokensIn(text: string): string {
  return text.replace(/\b(Card )(\S+)( could not be found)/g, (_, before: string, token: string, after: string) => before + maskCardToken(token) + after)
}

/**
 * Words a person typed where gw expected none (an unexpected argument), made safe to repeat: card
 * numbers masked, and a word shaped as the gateway's card tokens are (20 lower-case letters and
 * digits, gateway-notes.md) masked as a token.
 */
export function maskCardDataIn(text: string): string {
  return maskCardNumbersIn(text).replace(/(?<![\w*-])[a-z\d]{20}(?![\w-])/g, maskCardToken)
}
