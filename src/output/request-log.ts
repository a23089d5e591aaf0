import type {RequestLogEntry, RequestLogPage} from '../api/schemas/sandbox-control.js'
import {paint, type Style} from './colors.js'
import {pickFields} from './fields.js'
import type {Io} from './io.js'
import {toJson, toNdjsonLine} from './json.js'
import type {RenderOptions} from './render.js'
import {sanitizeLine} from '../safety/sanitize.js'

/**
 * The local gateway's request log as `gw sandbox logs` prints it, a page at a time as it comes
 * (--follow): one JSON line per request to a pipe, pretty JSON with --json on a terminal, else one
 * line per request, like a server's access log, since a table cannot grow as requests arrive.
 * Requests the gateway no longer kept are said to be missing, on stderr.
 */
export function requestLogPrinter(io: Io, {json, fields}: RenderOptions): (page: RequestLogPage) => void {
  return ({entries, missed}) => {
    if (missed > 0) io.err(paint(io.errColor, 'yellow', `${missed} requests were answered faster than they could be followed and are not shown.`) + '\n')
    if (entries.length === 0) return
    if (!io.isStdoutTTY || json) {
      const format = (entry: object) => (io.isStdoutTTY ? toJson(entry, io.color) : toNdjsonLine(entry))
      io.out(entries.map((entry) => format(fields ? pickFields(entry, fields) : entry)).join(''))
      return
    }
    io.out(entries.map((entry) => requestLine(entry, {color: io.color, fields})).join(''))
  }
}

const DEFAULT_FIELDS = ['time', 'merchant', 'method', 'path', 'status', 'ms', 'reference', 'card_number', 'error', 'request_id']

/**
 * `2026-11-22 19:31:05  TEST  POST /v1.0/purchases  200  3.2 ms  order-7  512345XXXXXX2346  req 1f0c…`:
 * the fields asked for (all by default) in order, the empty ones left out, the time in this
 * machine's zone, the status coloured by its class and the error in red. Text the request sent is
 * shown with its control characters made visible.
 */
export function requestLine(entry: RequestLogEntry, {color, fields = DEFAULT_FIELDS}: {color: boolean; fields?: string[]}): string {
  const shown: {field: string; text: string}[] = []
  for (const field of fields) {
    const text = fieldText(entry, field, color)
    if (text !== undefined) shown.push({field, text})
  }
  // Method and path read as one, `POST /v1.0/purchases`; the other fields are two spaces apart.
  return shown.map(({field, text}, index) => (index === 0 ? '' : field === 'path' && shown[index - 1]!.field === 'method' ? ' ' : '  ') + text).join('') + '\n'
}

function fieldText(entry: RequestLogEntry, field: string, color: boolean): string | undefined {
  const value = (entry as Record<string, unknown>)[field]
  // A dropped connection has no status: it says so where the status would be.
  if (field === 'status') return paint(color, statusStyle(entry.status), entry.status === null ? 'dropped' : String(entry.status))
  if (value === null || value === undefined) return undefined
  const text = sanitizeLine(typeof value === 'string' ? value : JSON.stringify(value))
  if (field === 'time') return localTime(text)
  if (field === 'ms') return `${text} ms`
  if (field === 'error') return paint(color, 'red', text)
  if (field === 'request_id') return paint(color, 'dim', `req ${text}`)
  return text
}

function statusStyle(status: number | null): Style {
  if (status === null || status >= 500) return 'red'
  if (status >= 400) return 'yellow'
  return 'green'
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/** `2026-11-22 19:31:05`, in this machine's zone, as a server log shows it. */
function localTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}
