import {ASCII_KINDS, kindOfCode, SEPARATOR} from './card-digits.js'
import {KIND_KEY_LENGTHS, kindOf, maskCardNumber} from './redact.js'

// The text is a record's JSON as the gateway sent it, which JSON.parse has read: valid JSON, so a
// string holds no raw control character, and a line break or tab stands only between tokens.

/**
 * Whether a record's JSON text, as the gateway sent it, may be printed as it is, as one line of
 * NDJSON: a check on the text alone, in one pass over it, that what it holds needs no change
 * (redact would leave the record as it is), erring towards "no". No: a line break or a control
 * character to escape (json.ts); a key of a CVV or a secret; a card field (card_number, number,
 * pan) that is a number, or a string not masked already, or one with escapes; 13 digits with only
 * separators between them anywhere (card-digits.ts: `\t` and `\/` are a tab and a slash), in a
 * string or a number (which holds every card number, whole or inside a text, and every number a
 * card number's size); a number with an exponent; a \u escape that may stand for a digit, a
 * letter or a separator (a key or a card number spelt with escapes).
 */
export function printsAsSent(text: string): boolean {
  // Digits since the last character that cannot stand between a card number's.
  let digits = 0
  let inString = false
  let stringStart = 0
  // Where the last `cv` (in any case) starts: a string holding one may be a CVV's key (kindOf).
  let cvAt = -1
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    // A digit counts; a separator lets the digits run on (card-digits.ts).
    const kind = code < 128 ? ASCII_KINDS[code]! : kindOfCode(code)
    if (kind !== 0) {
      if (kind !== SEPARATOR && ++digits === 13) return false
      continue
    }
    if (code === 34) {
      digits = 0
      if (!inString) stringStart = at + 1
      else {
        // Stryker disable next-line ConditionalExpression: whether the key is looked up at all; looked up, it is told apart by kindOf, to the same answer.
        const mayNameCvv = cvAt >= stringStart
        if (!cardSafeField(text, stringStart, at, mayNameCvv)) return false
      }
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
      // \t and \/: a tab and a slash in a string, which a card number's digits may stand either side of.
      if (escaped !== 116 && escaped !== 47) digits = 0
      continue
    }
    if (code === 10 || code === 13 || (code >= 0x7f && code <= 0x9f)) return false
    // `| 0x20` folds an ASCII letter to lower case: v after c.
    if ((code | 0x20) === 0x76 && (text.charCodeAt(at - 1) | 0x20) === 0x63) cvAt = at - 1
    // An exponent: a number whose digits are not all written out.
    if (!inString && (code === 101 || code === 69) && isAsciiDigit(text.charCodeAt(at - 1))) return false
    digits = 0
  }
  return true
}

/**
 * For a string just read (`start` to its closing quote at `end`): unless it is a key, true; a key
 * of a secret, false; a card field's key, whether its value is left as it is by redact (null, a
 * list or a record, looked into as any other value is; or a string without escapes already masked).
 */
function cardSafeField(text: string, start: number, end: number, holdsCv: boolean): boolean {
  let next = end + 1
  while (isSpaceOrTab(text.charCodeAt(next))) next++
  if (text.charCodeAt(next) !== 58) return true
  // Stryker disable next-line ConditionalExpression: a shortcut; without it each key is looked up, to the same answer.
  if (!KIND_KEY_LENGTHS.has(end - start) && !holdsCv) return true
  const kind = kindOf(text.slice(start, end))
  if (kind === 'secret' || kind === 'cvv') return false
  if (kind !== 'card') return true
  do next++
  while (isSpaceOrTab(text.charCodeAt(next)))
  const first = text.charCodeAt(next)
  if (first === 45 || isAsciiDigit(first)) return false
  if (first !== 34) return true
  const value = text.slice(next + 1, text.indexOf('"', next + 1))
  return !value.includes('\\') && maskCardNumber(value) === value
}

/**
 * Whether a \u escape may hide what the check looks for: anything but a control that is not white
 * space (\u0000-\u0008, \u000e-\u001f) and what HTML-safe encoders escape (" & ' < > \).
 */
function hidesCharacter(code: number): boolean {
  if (code < 0x09 || (code > 0x0d && code < 0x20)) return false
  return code !== 0x22 && code !== 0x26 && code !== 0x27 && code !== 0x3c && code !== 0x3e && code !== 0x5c
}

// Between tokens: a line break ends the check anyway (printsAsSent).
const isSpaceOrTab = (code: number) => code === 32 || code === 9

const isAsciiDigit = (code: number) => code >= 48 && code <= 57
