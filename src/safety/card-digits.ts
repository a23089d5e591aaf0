/**
 * The masker's one table (design.md §3): which characters are a card number's digits, and which
 * people type between its groups. Every check that looks for a card number reads it from here:
 * masking inside a text and whole fields (redact.ts), whether a record's JSON prints as sent
 * (prints-as-sent.ts), gw listen's look at a delivery's bytes, the local gateway's state file and
 * request log, gw's journals and messages. Luhn and 13 to 19 digits decide what is a card number;
 * this says only what counts as its digits and what may stand between them.
 */

/** Digits, by the code of their zero: a card number typed in any of these is one (its digits shown masked as ASCII). */
export const CARD_DIGITS: readonly {name: string; zero: number}[] = [
  {name: 'ASCII', zero: 0x30},
  {name: 'full-width', zero: 0xff10},
  {name: 'Arabic-Indic', zero: 0x0660},
  {name: 'Extended Arabic-Indic', zero: 0x06f0},
  {name: 'Devanagari', zero: 0x0966},
]

/**
 * What may stand between two groups of a card number's digits (one; a value that is nothing but
 * digits and separators, any number of them): spaces of
 * every width and tabs, what people type to group digits (dashes, dots, underscores, slashes), and
 * the characters that show as nothing, which would otherwise hide a card number in plain sight. A
 * line break is none: each line of a text (a --jq output, a message) is read on its own, so that
 * numbers on lines one after another never make a card number together.
 */
export const CARD_SEPARATORS: readonly {name: string; chars: string}[] = [
  {name: 'space', chars: ' \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000'},
  {name: 'tab', chars: '\t'},
  {name: 'dash', chars: '-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d'},
  {name: 'dot', chars: '.\u00b7\u2024\u3002\uff0e\uff61'},
  {name: 'underscore', chars: '_\uff3f'},
  {name: 'slash', chars: '/\u2044\u2215\uff0f'},
  {name: 'invisible', chars: '\u00ad\u200b\u200c\u200d\u2060\ufeff'},
]

// What a character is, by its code: a digit's value plus one (1 to 10), SEPARATOR, or 0 for
// anything else. ASCII_KINDS answers for ASCII, the bulk of every text, in one lookup that the
// loops over every character of every record printed make themselves: `code < 128 ?
// ASCII_KINDS[code] : kindOfCode(code)`.
export const SEPARATOR = 11
export const ASCII_KINDS = new Uint8Array(128)
const OTHER_KINDS = new Map<number, number>()
for (const {zero} of CARD_DIGITS) for (let value = 0; value < 10; value++) setKind(zero + value, value + 1)
for (const {chars} of CARD_SEPARATORS) for (const char of chars) setKind(char.charCodeAt(0), SEPARATOR)

function setKind(code: number, kind: number): void {
  // Stryker disable next-line EqualityOperator: no character of the table is U+0080.
  if (code < 128) ASCII_KINDS[code] = kind
  else OTHER_KINDS.set(code, kind)
}

/** What the character with this code is: a digit's value plus one, SEPARATOR, or 0. */
export const kindOfCode = (code: number): number => (code < 128 ? ASCII_KINDS[code]! : (OTHER_KINDS.get(code) ?? 0))

/** The value of a card number's digit (0 to 9) with this character code; -1 for any other character. */
export function digitValue(code: number): number {
  const kind = kindOfCode(code)
  // Anything else is of kind 0, one less than a digit's value too: -1.
  return kind === SEPARATOR ? -1 : kind - 1
}

/** Whether the character with this code may stand between a card number's groups of digits. */
export function isSeparator(code: number): boolean {
  return kindOfCode(code) === SEPARATOR
}

/** Whether the character with this code is a card number's digit, in any of the table's scripts. */
export function isCardDigit(code: number): boolean {
  const kind = kindOfCode(code)
  return kind !== 0 && kind !== SEPARATOR
}

/** Whether the character with this code is a digit or a separator: part of what a card number may be written with. */
export function isDigitOrSeparator(code: number): boolean {
  return kindOfCode(code) !== 0
}

const escaped = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`

/** The table's digits as a regular expression's character class (its inside, without the brackets). */
export const DIGIT_CLASS = CARD_DIGITS.map(({zero}) => `${escaped(zero)}-${escaped(zero + 9)}`).join('')

/** The table's separators as a regular expression's character class (its inside, without the brackets). */
export const SEPARATOR_CLASS = CARD_SEPARATORS.flatMap(({chars}) => [...chars].map((char) => escaped(char.charCodeAt(0)))).join('')

/** Whether a byte above ASCII may start the UTF-8 of a character in the table (gw listen reads a delivery's bytes before it decodes them). */
export const NON_ASCII_LEAD_BYTES: ReadonlySet<number> = new Set([...OTHER_KINDS.keys()].map((code) => Buffer.from(String.fromCharCode(code))[0]!))

/** A digit's worth in the Luhn check where it is doubled: 2 × digit, less 9 when that is over 9. */
const DOUBLED = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9]

/** The Luhn check over digit values, the last digit the check digit. */
export function luhnValues(values: readonly number[]): boolean {
  let sum = 0
  for (let index = 0; index < values.length; index++) {
    const digit = values[values.length - 1 - index]!
    sum += index % 2 === 1 ? DOUBLED[digit]! : digit
  }
  return sum % 10 === 0
}
