import {ASCII_KINDS, digitValue, isCardDigit, isSeparator, kindOfCode, luhnValues, SEPARATOR} from './card-digits.js'

/**
 * Card numbers as design.md §3 finds them, whole values and numbers inside a text alike: 13 to 19
 * digits, in groups with a separator between each two or none (card-digits.ts has the one table of
 * both), that pass the Luhn check. Masked as the gateway masks one, first six and last four
 * digits showing, as ASCII digits, separators dropped. A value that is nothing but digits and
 * separators is one whole however many separators it has (`4111 - 1111 - 1111 - 1111`).
 */

/** What a masked number shows where a digit is hidden, besides X: masking twice changes nothing. */
const MASK_CHARACTERS = 'Xx*•'

/**
 * A whole card field made safe to show: the first six and last four digits kept (as the gateway
 * masks them), whatever separators dropped. A number already masked (the gateway's
 * `424242XXXXXX4242`, or with ten digits or fewer left showing) is kept as it is, separators aside:
 * masking twice changes nothing. One that holds anything but digits, mask characters (X, *, •) and
 * separators shows none of its digits.
 */
export function maskCardNumber(value: string): string {
  let digits = 0
  let compact = ''
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index)
    const digit = digitValue(code)
    if (digit >= 0) {
      digits++
      compact += digit
    } else if (MASK_CHARACTERS.includes(value[index]!)) compact += value[index]
    else if (!isSeparator(code)) return hideDigits(value)
  }
  if (digits < compact.length && digits <= 10) return compact
  if (compact.length < 12) return 'X'.repeat(compact.length)
  return compact.slice(0, 6) + 'X'.repeat(compact.length - 10) + compact.slice(-4)
}

/** Every digit, of any script in the table, shown as X; the rest as it is. */
function hideDigits(value: string): string {
  let hidden = ''
  for (let index = 0; index < value.length; index++) hidden += isCardDigit(value.charCodeAt(index)) ? 'X' : value[index]
  return hidden
}

/** A value that is a card number whole: nothing but 13 to 19 digits and separators, passing the Luhn check. */
export function looksLikeCardNumber(value: string): boolean {
  // Most strings of a record (names, dates, ids) are told apart by their length, or at their first letter.
  if (value.length < 13) return false
  const digits: number[] = []
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index)
    const digit = digitValue(code)
    if (digit >= 0) {
      if (digits.push(digit) > 19) return false
    } else if (!isSeparator(code)) return false
  }
  return digits.length >= 13 && luhnValues(digits)
}

/**
 * Every card number inside a text masked where it stands: a run of 13 to 19 digits, a separator
 * between each two of its groups or none, that passes the Luhn check, whatever is around it
 * (`x4111111111111111y`, `card 4242.4242.4242.4242 declined`). Numbers with separators between
 * them run on (`order 12 4111 1111 1111 1111`): there the card number is whichever groups of the
 * run make one, and where two such overlap (one may be a card number and the digits next to it, a
 * CVV say) every digit of both is hidden. An id or a number that merely passes the Luhn check is
 * masked too: that is the rule. A run of more than 19 digits with nothing between them is no card number.
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
      masked += text.slice(from, range.start) + (range.ambiguous ? 'X'.repeat(range.digits) : maskCardNumber(text.slice(range.start, range.end)))
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

/** Calls `found` with each run of 13 digits or more (a separator between them) until it returns true; whether one did. */
function forEachRun(text: string, found: (start: number, end: number) => boolean): boolean {
  let digits = 0
  let start = 0
  // One past the last character too: there charCodeAt is NaN, of no kind, which ends a run as any other such character does.
  for (let index = 0; index <= text.length; index++) {
    const code = text.charCodeAt(index)
    const kind = code < 128 ? ASCII_KINDS[code]! : kindOfCode(code)
    if (kind !== 0 && kind !== SEPARATOR) {
      if (digits++ === 0) start = index
      continue
    }
    // One separator between two digits: the run goes on. Two in a row end it (`12345/20000  1234.5/s`, columns apart).
    if (kind === SEPARATOR && isCardDigit(text.charCodeAt(index + 1))) continue
    // A run ends right after its last digit, here.
    if (digits >= 13 && found(start, index)) return true
    digits = 0
  }
  return false
}

interface Group {
  start: number
  end: number
  digits: number[]
}

/**
 * The parts of a run of digits that are card numbers: each span of whole groups (digits between
 * separators) with 13 to 19 digits that passes the Luhn check; spans that overlap are one range,
 * ambiguous. `digits`: how many the range holds.
 */
function cardRanges(text: string, start: number, end: number): {start: number; end: number; ambiguous: boolean; digits: number}[] {
  const groups: Group[] = []
  let group: Group | undefined
  for (let at = start; at < end; at++) {
    const digit = digitValue(text.charCodeAt(at))
    if (digit < 0) group = undefined
    else if (group) {
      group.digits.push(digit)
      group.end = at + 1
    } else groups.push((group = {start: at, end: at + 1, digits: [digit]}))
  }
  const ranges: {first: number; last: number; spans: number}[] = []
  for (let first = 0; first < groups.length; first++) {
    const digits: number[] = []
    for (let last = first; last < groups.length; last++) {
      digits.push(...groups[last]!.digits)
      if (digits.length > 19) break
      if (digits.length < 13 || !luhnValues(digits)) continue
      const previous = ranges.at(-1)
      if (previous && first <= previous.last) {
        previous.last = Math.max(previous.last, last)
        previous.spans++
      } else ranges.push({first, last, spans: 1})
    }
  }
  return ranges.map(({first, last, spans}) => ({
    start: groups[first]!.start,
    end: groups[last]!.end,
    ambiguous: spans > 1,
    digits: groups.slice(first, last + 1).reduce((sum, {digits}) => sum + digits.length, 0),
  }))
}
