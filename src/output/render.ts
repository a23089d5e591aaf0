import type {Column} from './columns.js'
import type {GwError} from '../errors.js'
import {paint} from './colors.js'
import type {Io} from './io.js'
import {hintFor} from './hints.js'
import {errorJson, toJson, toNdjsonLine} from './json.js'

type GwRecord = Record<string, unknown>

export interface RenderOptions {
  json: boolean
}

/** One record: exactly the gateway's JSON with --json, otherwise a two-column table. */
export async function renderRecord(io: Io, record: GwRecord, columns: Column[], {json}: RenderOptions): Promise<void> {
  if (json) return io.out(toJson(record))
  const {recordTable} = await import('./table.js')
  io.out(recordTable(record, columns, {color: io.color}))
}

/** A list: a JSON array with --json, otherwise a table with a row per record. */
export async function renderList(io: Io, records: GwRecord[], columns: Column[], {json}: RenderOptions): Promise<void> {
  if (json) return io.out(toJson(records))
  const {listTable} = await import('./table.js')
  io.out(listTable(records, columns, {color: io.color}))
}

/**
 * Records that arrive one at a time (several ids): NDJSON for scripts (--json or a pipe),
 * tables one after another for a person at a terminal.
 */
export function recordStream(io: Io, columns: Column[], {json}: RenderOptions): (record: GwRecord) => Promise<void> {
  const ndjson = json || !io.isStdoutTTY
  let first = true
  return async (record) => {
    if (ndjson) return io.out(toNdjsonLine(record))
    const {recordTable} = await import('./table.js')
    io.out((first ? '' : '\n') + recordTable(record, columns, {color: io.color}))
    first = false
  }
}

/** A failure on stderr: the message with status and request id, a hint, and with --json the §3 object. */
export function renderError(io: Io, error: GwError, {json, subject}: RenderOptions & {subject?: string}): void {
  const context = [error.status ? `HTTP ${error.status}` : undefined, error.requestId ? `request-id ${error.requestId}` : undefined].filter(Boolean)
  const prefix = subject ? `${subject}: ` : ''
  // Ctrl-C is the person's own doing, not a failure to shout about.
  const label = error.kind === 'interrupted' ? '' : paint(io.errColor, 'red', 'Error:') + ' '
  let text = `${label}${prefix}${error.message}${context.length > 0 ? ` (${context.join(', ')})` : ''}\n`
  const hint = hintFor(error)
  if (hint) text += `${paint(io.errColor, 'dim', 'Hint:')} ${hint}\n`
  io.err(text)
  if (json) io.err(errorJson(error, subject, hint))
}

// C0 controls but tab and newline, DEL and the C1 controls: what a terminal would act on.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * A body exactly as the gateway sent it (gw api), ending in a newline. On a terminal its control
 * characters are shown as \u escapes instead of acting on the terminal; a pipe gets the bytes.
 */
export function renderBody(io: Io, text: string): void {
  if (text === '') return
  const shown = io.isStdoutTTY ? text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`) : text
  io.out(shown.endsWith('\n') ? shown : shown + '\n')
}
