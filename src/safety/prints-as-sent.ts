import {isDigitCode, kindOf, maskCardNumber} from './redact.js'

/**
 * Whether a record's JSON text, as the gateway sent it, may be printed as it is, as one line of
 * NDJSON: a check on the text alone, in one pass over it, that what it holds needs no change
 * (redact would leave the record as it is), erring towards "no". No: a line break or a control
 * character to escape (json.ts); a key of a secret; a card field (card_number, number, pan) that
 * is a number, or a string not masked already, or one with escapes; 13 digits with only spaces,
 * dashes or white space between them anywhere, in a string or a number (which holds every card
 * number, whole or inside a text, and every number a card number's size); a number with an
 * exponent; a \u escape that may stand for a digit, a letter or white space (a key or a card
 * number spelt with escapes).
 */
export function printsAsSent(text: string): boolean {
  // Digits since the last character that cannot stand between a card number's.
  let digits = 0
  let inString = false
  let stringStart = 0
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (isDigitCode(code)) {
      if (++digits === 13) return false
      continue
    }
    // A space, a dash, a tab between tokens: a card number's digits may stand either side.
    if (code === 32 || code === 45 || code === 9) continue
    if (code === 34) {
      digits = 0
      if (!inString) stringStart = at + 1
      else if (!cardSafeField(text, stringStart, at)) return false
      inString = !inString
      continue
    }
    if (code === 92) {
      const escaped = text.charCodeAt(at + 1)
      if (escaped === 117) {
        if (hidesCharacter(parseInt(text.slice(at + 2, at + 6), 16))) return false
        at += 5
        digits = 0
        continue
      }
      at++
      // \b \f \n \r \t: white space in a string, which a card number's digits may stand either side of.
      if (escaped === 98 || escaped === 102 || escaped === 110 || escaped === 114 || escaped === 116) continue
      digits = 0
      continue
    }
    if (code === 10 || code === 13 || (code >= 0x7f && code <= 0x9f)) return false
    if (code > 0x9f && /\s/.test(text[at]!)) continue
    // An exponent: a number whose digits are not all written out.
    if (!inString && (code === 101 || code === 69)) {
      const before = text.charCodeAt(at - 1)
      if (isDigitCode(before) || before === 46) return false
    }
    digits = 0
  }
  return true
}

/**
 * For a string just read (`start` to its closing quote at `end`): unless it is a key, true; a key
 * of a secret, false; a card field's key, whether its value is left as it is by redact (null, a
 * list or a record, looked into as any other value is; or a string without escapes already masked).
 */
function cardSafeField(text: string, start: number, end: number): boolean {
  let next = end + 1
  while (isJsonSpace(text.charCodeAt(next))) next++
  if (text.charCodeAt(next) !== 58) return true
  const length = end - start
  // Most keys are told apart by their length.
  if (length !== 3 && length !== 4 && length !== 6 && length !== 8 && length !== 9 && length !== 11 && length !== 12 && length !== 23) return true
  const kind = kindOf(text.slice(start, end))
  if (kind === 'secret') return false
  if (kind !== 'card') return true
  do next++
  while (isJsonSpace(text.charCodeAt(next)))
  const first = text.charCodeAt(next)
  if (first === 45 || isDigitCode(first)) return false
  if (first !== 34) return true
  const close = text.indexOf('"', next + 1)
  const value = text.slice(next + 1, close)
  return close > 0 && !value.includes('\\') && maskedAlready(value)
}

/** A card field's value that maskCardNumber leaves as it is: the quick answer for the gateway's `424242XXXXXX4242`, maskCardNumber's for any other. */
function maskedAlready(value: string): boolean {
  let digits = 0
  for (let at = 0; at < value.length; at++) {
    const code = value.charCodeAt(at)
    if (isDigitCode(code)) digits++
    else if (code !== 88 && code !== 120 && code !== 42) return maskCardNumber(value) === value
  }
  return (digits < value.length && digits <= 10) || maskCardNumber(value) === value
}

/** Whether a \u escape may hide what the check looks for: anything but HTML's characters, quotes, a backslash and controls other than white space. */
function hidesCharacter(code: number): boolean {
  const harmless = code === 0x22 || code === 0x26 || code === 0x27 || code === 0x3c || code === 0x3e || code === 0x5c || (code < 0x20 && code !== 9 && (code < 0x0a || code > 0x0d))
  return !harmless
}

const isJsonSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9
