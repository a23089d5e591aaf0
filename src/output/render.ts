import type {Column} from './columns.js'
import type {GwError} from '../errors.js'
import {paint} from './colors.js'
import {columnsFor, pickFields} from './fields.js'
import type {Io} from './io.js'
import {hintFor} from './hints.js'
import {hintLine} from './warning.js'
import {errorJson, escapeControls, prettyJson, toJson, toNdjsonLine} from './json.js'
import {sanitize} from '../safety/sanitize.js'
import {printsAsSent} from '../safety/prints-as-sent.js'
import {redact, redactText} from '../safety/redact.js'
import {sentAs, whole} from '../api/list-text.js'
import type {ListOrder} from '../api/list-order.js'
import {favourMemory} from '../lib/favour-memory.js'
import {walkCollector} from '../lib/memory.js'
import type {GwRecord} from '../api/schemas/record.js'

export interface RenderOptions {
  json: boolean
  /** One compact JSON line a record wherever stdout goes (gw api --paginate). */
  ndjson?: boolean
  /** --fields: which fields to show, in order, in a table and in JSON. */
  fields?: string[]
  /** --jq: the JSON goes to a filter, not out as it is. */
  filtered?: boolean
}

/**
 * Where output goes decides its shape (design.md §3): a pipe or file gets one compact JSON line
 * per record, whatever the flags; a terminal gets the same stream of records with --json, each
 * pretty-printed (never an array: one shape at a prompt and in a script), otherwise a field/value
 * list for one record and one table for several.
 */
function shape(io: Io, json: boolean, ndjson = false): 'ndjson' | 'json' | 'human' {
  if (!io.isStdoutTTY || ndjson) return 'ndjson'
  return json ? 'json' : 'human'
}

/** Whether records print as a table (or a field/value list): a terminal, without --json or --jq. */
export function printsTable(io: Io, options: RenderOptions): boolean {
  return shape(io, options.json, options.ndjson) === 'human'
}

/** One record, by destination; its card numbers masked and any CVV left out, whoever sent them (design.md §3). */
export async function renderRecord(io: Io, gatewayRecord: GwRecord, columns: Column[], options: RenderOptions): Promise<void> {
  const record = redact(gatewayRecord)
  const picked = options.fields ? pickFields(record, options.fields) : record
  const as = shape(io, options.json, options.ndjson)
  if (as === 'ndjson') io.out(toNdjsonLine(picked))
  else if (as === 'json') io.out(toJson(picked, io.color))
  else {
    const {fieldList} = await import('./table.js')
    const text = fieldList(record, shownColumns(columns, options), {color: io.color, width: io.columns})
    await io.page(lineCount(text))
    io.out(text)
  }
}

/** Several records, by destination: NDJSON lines, the same records pretty-printed one after another, or one table with a row each. */
export async function renderList(io: Io, gatewayRecords: GwRecord[], columns: Column[], options: RenderOptions): Promise<void> {
  const records = gatewayRecords.map(redact)
  const picked = options.fields ? records.map((record) => pickFields(record, options.fields!)) : records
  const as = shape(io, options.json, options.ndjson)
  if (as === 'ndjson') io.out(picked.map(toNdjsonLine).join(''))
  else if (as === 'json') io.out(picked.map((record) => toJson(record, io.color)).join(''))
  else if (records.length === 0) io.err('Nothing to show.\n')
  else {
    const {recordsTable} = await import('./table.js')
    const {text, missed} = recordsTable(records, shownColumns(columns, options), {color: io.color, width: io.columns, keepEmpty: options.fields !== undefined})
    await io.page(lineCount(text))
    io.out(text)
    // Columns nobody asked for go without a word, as gh's do; one that matters, or was named, is said.
    if (missed.length > 0) io.err(paint(io.errColor, 'dim', `${missed.join(', ')} left out to fit ${io.columns} columns (--fields picks columns).`) + '\n')
  }
}

export interface RecordStream {
  /** Records that arrived together (a page): written at once. */
  write(records: GwRecord[]): Promise<void>
  /** Prints what a terminal shows once every record is in: one table. */
  end(): Promise<void>
}

/**
 * Records that arrive a few at a time (several ids, the pages of a list): JSON is written as they
 * arrive, one line each to a pipe, pretty with --json on a terminal; a table on a terminal waits
 * for them all, or with `rowsPerTable` is printed each time it has that many rows (a list: the
 * widths of each table fit its own rows, and only its rows are held).
 */
export function recordStream(io: Io, columns: Column[], options: RenderOptions, {rowsPerTable}: {rowsPerTable?: number} = {}): RecordStream {
  let held: GwRecord[] = []
  const as = shape(io, options.json, options.ndjson)
  const table = async () => {
    const rows = held
    held = []
    await renderList(io, rows, columns, options)
  }
  // JSON lines of whole records, unfiltered: a record that needs no change prints as the gateway sent it, not parsed and written again.
  const asSent = as === 'ndjson' && !options.fields && !options.filtered
  return {
    async write(gatewayRecords) {
      if (asSent) return io.out(ndjsonLines(gatewayRecords))
      // Each record read whole once, not field by field through its stand-in (api/lazy-record.ts).
      const records = gatewayRecords.map((record) => redact(whole(record)))
      if (as === 'human') {
        for (const record of records) if (held.push(record) === rowsPerTable) await table()
        return
      }
      const picked = options.fields ? records.map((record) => pickFields(record, options.fields!)) : records
      io.out(picked.map((record) => (as === 'ndjson' ? toNdjsonLine(record) : toJson(record, io.color))).join(''))
    },
    async end() {
      if (as !== 'human') return
      if (held.length === 1 && rowsPerTable === undefined) return renderRecord(io, held[0]!, columns, options)
      if (held.length > 0) await table()
    },
  }
}

/**
 * Records as JSON lines, each as the gateway sent it where its text needs no change (safety/redact.ts
 * printsAsSent), else masked and written anew: the same line either way for a gateway that writes JSON as JSON.stringify does.
 */
function ndjsonLines(records: GwRecord[]): string {
  let lines = ''
  for (const record of records) {
    const text = sentAs(record)
    lines += text !== undefined && printsAsSent(text) ? text + '\n' : toNdjsonLine(redact(whole(record)))
  }
  return lines
}

/** Rows a terminal's table of a long list shows at a time. */
const LIST_TABLE_ROWS = 100

/**
 * A list's records a page at a time as they arrive: a pipe gets each page's records
 * as JSON lines in one write, --json on a terminal each pretty-printed; a terminal's table is
 * printed every LIST_TABLE_ROWS rows. The next page is taken only once stdout's reader has kept
 * up (design.md §3: output waits for its reader, and no page is asked for meanwhile); reading stops
 * once stdout cannot be written. `paged` is told once the pages are in, before the last table.
 */
export async function renderListing(io: Io, pages: AsyncIterable<GwRecord[]>, columns: Column[], options: RenderOptions, {paged}: {paged?: () => void} = {}): Promise<void> {
  const stream = recordStream(io, columns, options, {rowsPerTable: LIST_TABLE_ROWS})
  const pagePrinted = walkCollector()
  let pagesIn = 0
  // The reader gone while a page is awaited: the walk stops there, its page neither waited for nor asked for again.
  // (Woken through one listener, not a race with a promise that lives as long as the walk, which would hold every page.)
  let wake: ((step: undefined) => void) | undefined
  io.onOutClosed(() => wake?.(undefined))
  const walk = pages[Symbol.asyncIterator]()
  let ended = false
  try {
    for (;;) {
      if (io.outFailure()) break
      const next = walk.next()
      // Left unheard once the reader has gone: a page that then fails tells nobody anything.
      next.catch(() => {})
      const step = await new Promise<IteratorResult<GwRecord[]> | undefined>((resolve, reject) => {
        wake = resolve
        next.then(resolve, reject)
      })
      wake = undefined
      if (step === undefined || step.done) {
        ended = step?.done ?? false
        break
      }
      if (io.outFailure()) break
      await stream.write(step.value)
      await io.outReady()
      // A walk of many pages: its garbage kept small before the second is asked for (lib/favour-memory.ts).
      if (++pagesIn === 1) favourMemory()
      pagePrinted()
    }
  } finally {
    // Stopped early (a reader gone, a failure printing): the walk is told, but not waited for while a page is in flight.
    if (!ended) void walk.return?.(undefined).catch(() => {})
  }
  paged?.()
  await stream.end()
}

/** How a list came out, said on a terminal under it: how many, in which order (and whether it was assumed), and how to see more. */
export function renderListSummary(io: Io, {shown, more, total, order: handed, assumed}: {shown: number; more: boolean; total?: number; order?: ListOrder; assumed?: boolean}, {noun}: {noun: string}): void {
  // Records without dates are shown as the gateway lists them: no order is claimed for them.
  const order = handed === undefined ? "in the gateway's order" : `${handed} first`
  const nouns = (count: number) => `${count} ${noun}${count === 1 ? '' : 's'}`
  if (shown === 0) io.err(`No ${noun}s match.\n`)
  else if (more) io.err(`Showing ${total === undefined ? nouns(shown) : `${shown} of ${nouns(total)}`}, ${order}; --limit N or --all shows more.\n`)
  else io.err(`${nouns(shown)}, ${order}.\n`)
  // Only web hooks carry no dates (operations/lists.ts ASSUMED_ORDER).
  if (assumed && shown > 1) io.err(ASSUMED_ORDER_NOTE)
}

/** Said under a list of web hooks whose order nothing told: the hooks gw makes tell it (webhooks/hook-order.ts). */
export const ASSUMED_ORDER_NOTE =
  "The order is assumed: web hooks carry no dates, and gw takes the gateway to list them oldest first, as most recorded gateways do. Two hooks made with gw webhook create or gw listen show the gateway's own order.\n"


const lineCount = (text: string) => text.split('\n').length - 1

function shownColumns(columns: Column[], {fields}: RenderOptions): Column[] {
  return fields ? columnsFor(columns, fields) : columns
}

/** A failure on stderr: the message with status and request id, a hint (its own, or one given), and with --json the §3 object. */
export function renderError(io: Io, error: GwError, {json, subject, hint: given}: RenderOptions & {subject?: string; hint?: string}): void {
  const context = [error.status ? `HTTP ${error.status}` : undefined, error.requestId ? `request-id ${error.requestId}` : undefined].filter(Boolean)
  // One of several, named by its key: unless the message names it already (`No refund has the id or reference ...`).
  const prefix = subject && !error.message.includes(subject) ? `${subject}: ` : ''
  // Ctrl-C is the person's own doing, not a failure to shout about.
  const label = error.kind === 'interrupted' ? '' : paint(io.errColor, 'red', 'Error:') + ' '
  // The message and hint may repeat what the gateway or the user sent: shown, never obeyed.
  const text = `${label}${sanitize(prefix + error.message)}${context.length > 0 ? ` (${sanitize(context.join(', '))})` : ''}\n`
  const hint = given ?? hintFor(error)
  io.err(text + hintLine(io, hint))
  if (json) io.err(errorJson(error, subject, hint))
}

/**
 * A body as the gateway sent it (gw api), ending in a newline, but for card data: a body holding a
 * whole card number or a CVV prints as redact leaves it (design.md §3). A pipe gets its bytes; a
 * terminal gets JSON pretty-printed and coloured (as gh api and the Stripe CLI print it), each
 * value as written, and its control characters as \u escapes instead of acting on the terminal.
 */
export function renderBody(io: Io, text: string): void {
  if (text === '') return
  const safe = printsAsSent(text) ? text : redactText(text)
  const shown = io.isStdoutTTY ? escapeControls(safe) : safe
  if (io.isStdoutTTY && isJson(shown)) io.out(prettyJson(shown, io.color) + '\n')
  else io.out(shown.endsWith('\n') ? shown : shown + '\n')
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
