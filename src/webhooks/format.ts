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
