import {isAscii} from 'node:buffer'
import {isCardDigit, isDigitOrSeparator, NON_ASCII_LEAD_BYTES} from './card-digits.js'

const ESCAPE = Buffer.from('\\u')

/**
 * Whether JSON text in these UTF-8 bytes (a web hook delivery) may hold a card number (13 digits,
 * the table's separators between them or none: card-digits.ts) or a CVV (`cvv` or `cvc` in any
 * case), so that what was parsed from it must go through redact before it is shown. Conservative,
 * and cheap for a receiver that runs per event (a fraction of the ~3 µs a charge event takes to
 * parse): such a run covers one of every 13th byte, so only those are read and the run measured
 * around one found there, each byte at most once more; a `v` is found with memchr. JSON may spell
 * a tab and a slash `\t` and `\/`, and any character as a `\u` escape (`\u0034` for 4): a body with
 * an escaped ASCII character or one of the table's is redacted whatever it holds, and so is one
 * that holds any character of the table beyond ASCII (a full-width digit, a no-break space).
 */
export function bytesMayHoldCardData(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const n = buffer.length
  // Where the last run measured ended: a run is measured once, however many samples fall in it.
  let measured = 0
  for (let at = 12; at < n; at += 13) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: what keeps a long run from being measured again at each of its samples, to the same answer.
    if (at < measured) continue
    if (!inRun(buffer, at)) continue
    // No byte before the first or after the last is in a run (inRun).
    let start = at
    while (inRun(buffer, start - 1)) start--
    let digits = 0
    let end = start
    for (; inRun(buffer, end); end++) if (isCardDigit(buffer[end]!) && ++digits === 13) return true
    measured = end
  }
  if (holdsTableCharacter(buffer)) return true
  for (const v of [0x76, 0x56]) {
    for (let at = buffer.indexOf(v, 1); at !== -1; at = buffer.indexOf(v, at + 1)) {
      // c, v, then v or c, in any case: `| 0x20` folds ASCII letters to lower case.
      const before = buffer[at - 1]! | 0x20
      const after = (buffer[at + 1] ?? 0) | 0x20
      if (before === 0x63 && (after === 0x76 || after === 0x63)) return true
    }
  }
  for (let at = buffer.indexOf(ESCAPE); at !== -1; at = buffer.indexOf(ESCAPE, at + 2)) {
    const code = Number.parseInt(buffer.toString('latin1', at + 2, at + 6), 16)
    // ASCII, which JSON never needs to escape but for the controls; a digit or separator of the table.
    if (code < 0x80 || isDigitOrSeparator(code)) return true
  }
  return false
}

/** Whether UTF-8 bytes may hold a character of the table beyond ASCII: one of those characters' first bytes. */
function holdsTableCharacter(buffer: Buffer): boolean {
  // Stryker disable next-line ConditionalExpression: a shortcut; ASCII holds none of those bytes, which are looked for to the same answer.
  if (isAscii(buffer)) return false
  for (const lead of NON_ASCII_LEAD_BYTES) if (buffer.includes(lead)) return true
  return false
}

/** An ASCII digit or separator, or the backslash and letter of `\t` or `\/` (a tab, a slash): part of a run that may be a card number. */
function inRun(bytes: Buffer, at: number): boolean {
  // Out of the bytes (before the first, after the last) is undefined: in no run.
  const byte = bytes[at]
  if (byte === undefined) return false
  // Stryker disable next-line EqualityOperator: 0x80 is no character of the table, as a byte or a code.
  if (byte < 0x80 && isDigitOrSeparator(byte)) return true
  if (byte === 0x5c) return isEscapedSeparator(bytes[at + 1])
  return bytes[at - 1] === 0x5c && isEscapedSeparator(byte)
}

/** After a backslash in JSON: `t` (a tab) or `/` (a slash), each a separator of the table. */
const isEscapedSeparator = (byte: number | undefined) => byte === 0x74 || byte === 0x2f
