import {paint, type Style} from '../output/colors.js'
import {toNdjsonLine} from '../output/json.js'
import {formatMoney} from '../output/money.js'
import {sanitizeLine} from '../safety/sanitize.js'
import {type ElementSummary, isKnownEvent, summarize} from './events.js'

/** One received event: the `--json` line and the `--save` line (replay reads the same shape). */
export interface EventEntry {
  received_at: string
  event: string
  mode: string | null
  payload: unknown
  headers: Record<string, string>
}

/** The outcome of passing an event on to the merchant's app. */
export type ForwardResult = {status: number; ms: number} | {error: string; ms: number}

const SECRET_HEADER = /auth|token|secret|key|cookie/

/**
 * Headers worth keeping with an event: the gateway's own `x-*` headers, content type and user
 * agent. Credentials (authorization, cookies) are never printed or saved.
 */
export function selectHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const selected: Record<string, string> = {}
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined) continue
    const key = name.toLowerCase()
    if (key === 'content-type' || key === 'user-agent' || (key.startsWith('x-') && !SECRET_HEADER.test(key))) {
      selected[key] = Array.isArray(value) ? value.join(', ') : value
    }
  }
  return selected
}

/**
 * The `--json` line. JSON.stringify escapes C0 controls but leaves DEL and C1 raw, and finding
 * those with a regexp over every line cost gw listen a twentieth of its time per event. The entry
 * was parsed from `body` (when given), so its text can hold them only where the body's bytes do,
 * raw or as a \u escape, or where a header does: the bytes are searched instead (memchr), and
 * the whole line is escaped only when they may hold one.
 */
export function eventJsonLine(entry: EventEntry, body?: Uint8Array): string {
  if (body && !bytesMayHoldDelOrC1(body) && !headersHoldDelOrC1(entry)) return JSON.stringify(entry) + '\n'
  return toNdjsonLine(entry)
}

const DEL_OR_C1 = /[\u007F-\u009F]/

function headersHoldDelOrC1({mode, headers}: EventEntry): boolean {
  if (mode !== null && DEL_OR_C1.test(mode)) return true
  for (const name in headers) if (DEL_OR_C1.test(headers[name]!)) return true
  return false
}

const ESCAPE = Buffer.from('\\u')

/**
 * Whether JSON text in these UTF-8 bytes may decode to DEL or a C1 control: byte 7F, C2 80-9F, or
 * a \u007F-\u009F escape. Conservative (an escaped backslash before "u0085" counts too).
 */
function bytesMayHoldDelOrC1(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer.includes(0x7f)) return true
  for (let at = buffer.indexOf(0xc2); at !== -1; at = buffer.indexOf(0xc2, at + 1)) {
    const next = buffer[at + 1] ?? 0
    if (next >= 0x80 && next <= 0x9f) return true
  }
  for (let at = buffer.indexOf(ESCAPE); at !== -1; at = buffer.indexOf(ESCAPE, at + 2)) {
    const code = Number.parseInt(buffer.toString('latin1', at + 2, at + 6), 16)
    if (code >= 0x7f && code <= 0x9f) return true
  }
  return false
}

/**
 * Whether a delivery's bytes may hold a card number (12 digits or more, single spaces or dashes
 * between them or not, as design.md §3 counts them) or a CVV (`cvv` or `cvc` in any case), so that
 * its payload must go through redact before it is shown. Conservative, and cheap for a receiver
 * that runs per event (~0.2 µs for a charge event, against ~3 µs to parse it): such a run covers
 * one of every 12th byte, so only those are read and the run measured around one found there; a
 * `v` is found with memchr. JSON may spell any character as a `\u` escape (`\u0034` for 4): a body
 * with an escaped ASCII character is redacted whatever it holds.
 */
export function bytesMayHoldCardData(bytes: Uint8Array): boolean {
  const n = bytes.length
  for (let at = 11; at < n; at += 12) {
    if (!inDigitRun(bytes, at)) continue
    let start = at
    while (start > 0 && inDigitRun(bytes, start - 1)) start--
    let digits = 0
    for (let index = start; index < n && inDigitRun(bytes, index); index++) if (isDigit(bytes[index]!)) digits++
    if (digits >= 12) return true
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, n)
  for (const v of [0x76, 0x56]) {
    for (let at = buffer.indexOf(v, 1); at !== -1; at = buffer.indexOf(v, at + 1)) {
      // c, v, then v or c, in any case: `| 0x20` folds ASCII letters to lower case.
      const before = buffer[at - 1]! | 0x20
      const after = (buffer[at + 1] ?? 0) | 0x20
      if (before === 0x63 && (after === 0x76 || after === 0x63)) return true
    }
  }
  for (let at = buffer.indexOf(ESCAPE); at !== -1; at = buffer.indexOf(ESCAPE, at + 2)) {
    // \u0000 to \u007F: ASCII, which JSON never needs to escape but for the controls.
    if (buffer[at + 2] === 0x30 && buffer[at + 3] === 0x30 && (buffer[at + 4] ?? 0) >= 0x30 && (buffer[at + 4] ?? 0) <= 0x37) return true
  }
  return false
}

/** A digit, or a single space or dash between two digits: part of a run of digits that may be a card number. */
function inDigitRun(bytes: Uint8Array, at: number): boolean {
  const byte = bytes[at]!
  if (isDigit(byte)) return true
  return (byte === 0x20 || byte === 0x2d) && at > 0 && isDigit(bytes[at - 1]!) && isDigit(bytes[at + 1] ?? 0)
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39
}

/**
 * `14:02:11  charge:successful  Sandbox  subscription 12 customer 7 purchase 071-P-1 10.00 AUD Approved`
 * Everything in it that came with the event is sanitized: whoever can post to the receiver must
 * not be able to draw on the terminal (a fake "Approved", a new window title).
 */
export function eventLine(entry: EventEntry, {color, forward}: {color: boolean; forward?: ForwardResult}): string {
  const time = new Date(entry.received_at).toTimeString().slice(0, 8)
  const known = isKnownEvent(entry.event)
  const parts = [time, paint(color, eventStyle(entry.event), sanitizeLine(entry.event))]
  if (!known) parts.push(paint(color, 'yellow', '(unknown event)'))
  parts.push(entry.mode === null ? '-' : sanitizeLine(entry.mode))
  const elements = summarize(entry.event, entry.payload).map((summary) => describeElement(summary, color)).filter(Boolean)
  if (elements.length > 0) parts.push(elements.join('; '))
  if (forward) parts.push(describeForward(forward, color))
  return parts.join('  ') + '\n'
}

export function describeForward(forward: ForwardResult, color: boolean): string {
  if ('error' in forward) return paint(color, 'red', `→ not forwarded: ${sanitizeLine(forward.error)}`) + ` (${forward.ms} ms)`
  const ok = forward.status >= 200 && forward.status < 300
  return paint(color, ok ? 'green' : 'red', `→ ${forward.status}`) + ` in ${forward.ms} ms`
}

function describeElement(summary: ElementSummary, color: boolean): string {
  const words: string[] = []
  const clean = (value: unknown) => sanitizeLine(String(value))
  if (summary.subscription) words.push(`subscription ${clean(summary.subscription)}`)
  if (summary.customer) words.push(`customer ${clean(summary.customer)}`)
  if (summary.purchase) words.push(`purchase ${clean(summary.purchase)}`)
  if (summary.amount !== undefined) words.push(formatMoney(summary.amount, summary.currency === undefined ? undefined : clean(summary.currency)))
  if (summary.outcome !== undefined || summary.successful !== undefined) {
    const text = summary.outcome ?? (summary.successful ? 'Approved' : 'Declined')
    words.push(paint(color, summary.successful ? 'green' : 'red', clean(text)))
  }
  if (summary.lastStatus) words.push(`(${clean(summary.lastStatus)})`)
  return words.join(' ')
}

function eventStyle(event: string): Style {
  if (event === 'charge:successful') return 'green'
  if (event === 'charge:retry' || event === 'charge:failed') return 'red'
  if (event.startsWith('card:')) return 'yellow'
  return 'cyan'
}
