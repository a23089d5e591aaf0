import {luhnValid} from './api/schemas/card-rules.js'

/**
 * The one place card data is made safe to show: card numbers keep the first six and last four
 * digits (as the gateway masks them), CVVs and secrets disappear entirely. A number already
 * masked (the gateway's `424242XXXXXX4242`, or with ten digits or fewer left showing) is kept as
 * it is, spaces and dashes aside: masking twice changes nothing. One that holds anything but
 * digits, mask characters (X, *, •), spaces and dashes shows none of its digits.
 */
export function maskCardNumber(value: string): string {
  let digits = 0
  for (let index = 0; index < value.length; index++) {
    const char = value[index]!
    if (char >= '0' && char <= '9') digits++
    else if (!'Xx*•-'.includes(char) && !/\s/.test(char)) return value.replace(/\d/g, 'X')
  }
  const compact = value.replace(/[\s-]/g, '')
  if (digits < compact.length && digits <= 10) return compact
  if (compact.length < 12) return 'X'.repeat(compact.length)
  return compact.slice(0, 6) + 'X'.repeat(compact.length - 10) + compact.slice(-4)
}

/** 13 to 19 digits (spaces and dashes aside) that pass the Luhn check: a card number, wherever it turns up. */
export function looksLikeCardNumber(value: string): boolean {
  // Most strings of a record (names, dates, ids) are told apart by their length, or at their first letter.
  if (value.length < 13) return false
  let digits = ''
  for (let index = 0; index < value.length; index++) {
    const char = value[index]!
    if (char >= '0' && char <= '9') digits += char
    else if (char !== '-' && !/\s/.test(char)) return false
  }
  return digits.length >= 13 && luhnValid(digits)
}

/**
 * The one function that makes card data safe to print, journal or log (design.md §3): a record,
 * request or answer with every whole card number masked, under its own name or any other (a number
 * typed as a token or a reference), and every CVV and secret left out, whoever sent them. A card
 * number sent as a JSON number is masked as the same digits in a string would be, and so becomes a
 * string (`424242XXXXXX4242`): JSON has no masked number. Every other field stays, in its order:
 * --json is still the gateway's record. What needs no change is handed back as it is, not copied (a
 * list's records almost never do: issue 28); what does is a copy, the value given left alone.
 */
export function redact<T>(value: T): T {
  if (!needsRedacting(value)) return value
  // What needs redacting is a card number (a string, or a JSON number), or a list or record holding one or a secret.
  if (typeof value === 'string' || typeof value === 'number') return maskCardNumber(String(value)) as T
  if (Array.isArray(value)) return value.map(redact) as T
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value as object)) {
    const kind = kindOf(key)
    if (kind === 'secret') continue
    copy[key] = kind === 'card' && (typeof field === 'string' || typeof field === 'number') ? maskCardNumber(String(field)) : redact(field)
  }
  return copy as T
}

/** Whether anything in a value is a card number not yet masked, or a secret. */
function needsRedacting(value: unknown): boolean {
  if (typeof value === 'string') return looksLikeCardNumber(value)
  if (typeof value === 'number') return numberLooksLikeCardNumber(value)
  if (value === null || typeof value !== 'object') return false
  // A list's items are its values too.
  for (const [key, field] of Object.entries(value)) {
    const kind = kindOf(key)
    if (kind === 'secret' || needsRedacting(field)) return true
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

/** What a key holds, by its name in any case: a CVV or a secret, left out; a card number, masked. */
function kindOf(key: string): 'secret' | 'card' | undefined {
  switch (key.toLowerCase()) {
    case 'cvv':
    case 'cvc':
    case 'cvv2':
    case 'cvc2':
    case 'password':
    case 'authentication_password':
    case 'token_secret':
    case 'api_token':
      return 'secret'
    case 'card_number':
    case 'number':
    case 'pan':
      return 'card'
  }
  return undefined
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
