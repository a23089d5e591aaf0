import {luhnValid} from '../api/schemas/card-rules.js'
import {keepNumbersWritten, parseKeepingNumbers, stringifyAsWritten} from '../lib/json-as-written.js'

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
    if (kind === 'secret') continue
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
  if (typeof value === 'string') return holdsCardNumber(value) || looksLikeCardNumber(value)
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

// What a key holds, by its name in lower case: a CVV or a secret, left out; a card number, masked.
const KEY_KINDS: ReadonlyMap<string, 'secret' | 'card'> = new Map([
  ['cvv', 'secret'],
  ['cvc', 'secret'],
  ['cvv2', 'secret'],
  ['cvc2', 'secret'],
  ['password', 'secret'],
  ['authentication_password', 'secret'],
  ['token_secret', 'secret'],
  ['api_token', 'secret'],
  ['card_number', 'card'],
  ['number', 'card'],
  ['pan', 'card'],
])

/** What a key holds, by its name in any case: a CVV or a secret, left out; a card number, masked. */
export function kindOf(key: string): 'secret' | 'card' | undefined {
  return KEY_KINDS.get(key.toLowerCase())
}

/** The lengths of the keys kindOf knows (lower case keeps an ASCII key's length): most keys are told apart by theirs alone. */
export const KIND_KEY_LENGTHS: ReadonlySet<number> = new Set([...KEY_KINDS.keys()].map((key) => key.length))

/** Redacts a body that may not be JSON (an HTML error page, say): the card numbers in its text are masked. */
export function redactText(text: string): string {
  try {
    return stringifyAsWritten(redact(parseKeepingNumbers(text)))
  } catch {
    return maskCardNumbersIn(text)
  }
}

/**
 * Every card number inside a text masked where it stands (design.md §3): a run of 13 to 19 digits,
 * single spaces or dashes between them or not, that passes the Luhn check, whatever is around it
 * (`x4111111111111111y`, `card 4242-4242-4242-4242 declined`). It is masked as the gateway masks
 * one, first six and last four, spaces and dashes dropped. Numbers with spaces between them run
 * on (`order 12 4111 1111 1111 1111`): there the card number is whichever groups of the run make
 * one, and where two such overlap (one may be a card number and the digits next to it, a CVV say)
 * every digit of both is hidden. An id or a number that merely passes the Luhn check is masked
 * too: that is the rule. A run of more than 19 digits with nothing between them is no card number.
 */
export function maskCardNumbersIn(text: string): string {
  // A number masked in a run of groups leaves its last four as a group of their own, which with
  // the groups after it may make another card number (`4242424242424242-4242 4242 4242 4242...`):
  // masked again until none is left, so masking twice is masking once.
  for (let masked = text; ; ) {
    if (!holdsCardNumber(masked)) return masked
    masked = maskOnce(masked)
  }
}

function maskOnce(text: string): string {
  let masked = ''
  let from = 0
  forEachRun(text, (start, end) => {
    for (const range of cardRanges(text, start, end)) {
      masked += text.slice(from, range.start) + (range.ambiguous ? 'X'.repeat(digitCount(text, range.start, range.end)) : maskCardNumber(text.slice(range.start, range.end)))
      from = range.end
    }
    return false
  })
  return masked + text.slice(from)
}

/**
 * Whether a text holds a card number (maskCardNumbersIn's rule). Made for the path every string of
 * every record printed takes: one pass over the text's characters, the Luhn check only where 13
 * digits or more run together, and nothing at all for a text shorter than a card number.
 */
export function holdsCardNumber(text: string): boolean {
  return text.length >= 13 && forEachRun(text, (start, end) => cardRanges(text, start, end).length > 0)
}

export const isDigitCode = (code: number) => code >= 48 && code <= 57

/** Calls `found` with each run of 13 digits or more (single spaces or dashes between them) until it returns true; whether one did. */
function forEachRun(text: string, found: (start: number, end: number) => boolean): boolean {
  let digits = 0
  let start = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (isDigitCode(code)) {
      if (digits++ === 0) start = index
      continue
    }
    // A space or a dash between two digits: the run goes on.
    if (digits > 0 && (code === 32 || code === 45) && isDigitCode(text.charCodeAt(index + 1))) continue
    if (digits >= 13 && found(start, index)) return true
    digits = 0
  }
  return digits >= 13 && found(start, text.length)
}

/**
 * The parts of a run of digits that are card numbers: each span of whole groups (digits between
 * spaces or dashes) with 13 to 19 digits that passes the Luhn check; spans that overlap are one
 * range, ambiguous.
 */
function cardRanges(text: string, start: number, end: number): {start: number; end: number; ambiguous: boolean}[] {
  const groups: {start: number; end: number; digits: string}[] = []
  for (let at = start; at < end; ) {
    let stop = at
    while (stop < end && isDigitCode(text.charCodeAt(stop))) stop++
    groups.push({start: at, end: stop, digits: text.slice(at, stop)})
    at = stop + 1
  }
  const ranges: {first: number; last: number; spans: number}[] = []
  for (let first = 0; first < groups.length; first++) {
    let digits = ''
    for (let last = first; last < groups.length; last++) {
      digits += groups[last]!.digits
      if (digits.length > 19) break
      if (digits.length < 13 || !luhnValid(digits)) continue
      const previous = ranges.at(-1)
      if (previous && first <= previous.last) {
        previous.last = Math.max(previous.last, last)
        previous.spans++
      } else ranges.push({first, last, spans: 1})
    }
  }
  return ranges.map(({first, last, spans}) => ({start: groups[first]!.start, end: groups[last]!.end, ambiguous: spans > 1}))
}

function digitCount(text: string, start: number, end: number): number {
  let count = 0
  for (let index = start; index < end; index++) if (isDigitCode(text.charCodeAt(index))) count++
  return count
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
  // A person's typing: a run of 12 to 19 digits is masked whether or not it passes the Luhn check (a card number mistyped is still most of one).
  return maskCardNumbersIn(text)
    .replace(/\b\d(?:[ -]?\d){11,18}\b/g, maskCardNumber)
    .replace(/(?<![\w*-])[a-z\d]{20}(?![\w-])/g, maskCardToken)
}
