import {constants, mkdirSync} from 'node:fs'
import {type FileHandle, rename} from 'node:fs/promises'
import {basename, dirname, extname, join} from 'node:path'
import {type RequestLogEntry, type RequestLogPage, statusMatches} from '../../api/schemas/sandbox-control.js'
import {maskCardNumber, maskCardNumbersIn, maskCardPath, maskCardTokensIn} from '../../safety/redact.js'
import {openOwnFile} from '../../lib/own-file.js'
import type {Exchange} from './http.js'

export interface RequestLogOptions {
  /** Where each entry is appended as a JSON line; without one the log lives in memory only. */
  file?: string
  /** Past this size the file becomes FILE.1 (replacing the one before) and a new one starts. */
  maxBytes?: number
  /** Entries kept in memory for GET /_sandbox/requests, the latest. */
  kept?: number
  /** Where a file that cannot be written is reported. */
  report(line: string): void
}

export interface LogFilter {
  status?: readonly string[]
  path?: string
  merchant?: string
  limit?: number
  after?: number
}

/** 5 MiB a file, two files: about 40,000 requests on disk, never more than 10 MiB. */
const MAX_BYTES = 5 * 1024 * 1024
const KEPT = 5000
/** Lines wait this long to be written together, so a burst of requests costs one write. */
const FLUSH_MS = 100
const FLUSH_BYTES = 64 * 1024
/** How much of the end of an existing file is read back at start, for `gw sandbox logs` to show. */
const TAIL_BYTES = 1024 * 1024
/** Text from a request is cut to this: a log shows what a request was, never its body whole. */
const MAX_TEXT = 120

/** The request log's file for a state file: `gateway.json` → `gateway.requests.ndjson`, beside it. */
export function requestLogBeside(stateFile: string): string {
  return join(dirname(stateFile), `${basename(stateFile, extname(stateFile))}.requests.ndjson`)
}

/**
 * Every request the gateway answered (but its own /_sandbox/ ones, unless refused), as `gw sandbox logs` shows
 * them: time, merchant, method, path, status, milliseconds, request id, the reference the body
 * gave (or of the record a capture or void changed), its card number masked, and the first error. Nothing else of a body is kept, so a CVV, a
 * token or a password cannot reach the file or the screen; a stored card's token shows by its last
 * four only, in the path and in the error. Entries are kept in memory (the latest
 * KEPT, each with a sequence number to follow the log by) and appended to the file in batches, off
 * the request's path: a request never waits for the log.
 */
export class RequestLog {
  /** Each entry as its JSON line, the file's: made once a request, parsed again only when read, which is rare. */
  private readonly ring: (string | undefined)[]
  /** The sequence number of the latest entry; entry n sits at ring[n % kept]. */
  private last = 0
  private pending: string[] = []
  private pendingBytes = 0
  private timer: NodeJS.Timeout | undefined
  private writing: Promise<void> = Promise.resolve()
  private handle: FileHandle | undefined
  private size = 0
  private failing = false
  private closed = false

  private constructor(private readonly options: RequestLogOptions & {kept: number; maxBytes: number}) {
    this.ring = new Array<string | undefined>(options.kept)
  }

  /** A log that first takes back the latest entries of its file, if it has one already. */
  static async open(options: RequestLogOptions): Promise<RequestLog> {
    const log = new RequestLog({kept: KEPT, maxBytes: MAX_BYTES, ...options})
    if (options.file) await log.openFile(options.file)
    return log
  }

  add(exchange: Exchange): void {
    if (exchange.pathname.startsWith('/_sandbox/') && !exchange.refused) return
    const line = JSON.stringify(entryOf(exchange))
    this.last++
    this.ring[this.last % this.options.kept] = line
    if (!this.options.file || this.closed) return
    this.pending.push(line)
    this.pendingBytes += line.length + 1
    if (this.pendingBytes >= FLUSH_BYTES) this.flush()
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref()
  }

  /** The entries that pass the filter, oldest first: after the cursor, or the latest `limit`. */
  page(filter: LogFilter): RequestLogPage {
    const oldest = Math.max(1, this.last - this.options.kept + 1)
    const from = Math.max(oldest, (filter.after ?? 0) + 1)
    const missed = filter.after === undefined ? 0 : Math.max(0, oldest - filter.after - 1)
    const matching: RequestLogEntry[] = []
    // Newest first, so a limit stops early; the page is then put back in order.
    for (let seq = this.last; seq >= from; seq--) {
      const entry = JSON.parse(this.ring[seq % this.options.kept]!) as RequestLogEntry
      if (!passes(entry, filter)) continue
      matching.push(entry)
      if (filter.limit !== undefined && matching.length >= filter.limit) break
    }
    return {entries: matching.reverse(), next: this.last, missed}
  }

  /** Writes what is waiting and closes the file. */
  async close(): Promise<void> {
    this.flush()
    this.closed = true
    await this.writing
    await this.handle?.close()
    this.handle = undefined
  }

  private flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    if (this.pending.length === 0) return
    const lines = this.pending
    this.pending = []
    this.pendingBytes = 0
    this.writing = this.writing.then(() => this.write(lines.map((line) => line + '\n')))
  }

  /**
   * Appends the lines, rotating wherever the next would take the file past its size. A failed
   * write loses its lines, never the gateway's answers; the file is tried again with the next ones.
   */
  private async write(lines: string[]): Promise<void> {
    const file = this.options.file!
    try {
      let group: string[] = []
      let groupBytes = 0
      for (const line of lines) {
        const bytes = Buffer.byteLength(line)
        if (this.size + groupBytes > 0 && this.size + groupBytes + bytes > this.options.maxBytes) {
          await this.append(group.join(''))
          await this.rotate(file)
          group = []
          groupBytes = 0
        }
        group.push(line)
        groupBytes += bytes
      }
      await this.append(group.join(''))
      if (this.failing) this.options.report(`the request log ${file} is written again`)
      this.failing = false
    } catch (error) {
      if (!this.failing) this.options.report(`could not write the request log ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}): requests answered meanwhile are missing from it`)
      this.failing = true
      await this.handle?.close().catch(() => {})
      this.handle = undefined
    }
  }

  private async append(text: string): Promise<void> {
    if (text === '') return
    if (!this.handle) {
      this.handle = (await openOwnFile(this.options.file!, constants.O_WRONLY | constants.O_APPEND)).handle
      this.size = (await this.handle.stat()).size
    }
    const bytes = Buffer.from(text)
    await this.handle.write(bytes)
    this.size += bytes.length
  }

  /** The file becomes FILE.1, replacing the one before; the next line starts a new file. */
  private async rotate(file: string): Promise<void> {
    await this.handle?.close()
    this.handle = undefined
    await rename(file, `${file}.1`)
    this.size = 0
  }

  /** Opens the file (its folder made 0700 if need be) and takes back the entries at its end. */
  private async openFile(file: string): Promise<void> {
    mkdirSync(dirname(file), {recursive: true, mode: 0o700})
    // The user's own only (lib/own-file.ts): beside a --state file in /tmp, another user could have made it first, or a link of theirs.
    this.handle = (await openOwnFile(file, constants.O_RDWR | constants.O_APPEND)).handle
    this.size = (await this.handle.stat()).size
    if (this.size === 0) return
    const start = Math.max(0, this.size - TAIL_BYTES)
    const {buffer, bytesRead} = await this.handle.read({buffer: Buffer.alloc(this.size - start), position: start})
    const lines = buffer.subarray(0, bytesRead).toString('utf8').split('\n')
    // Reading from the middle of the file starts inside a line.
    if (start > 0) lines.shift()
    for (const line of lines.slice(-this.options.kept)) {
      if (!isEntry(line)) continue
      this.last++
      this.ring[this.last % this.options.kept] = line
    }
  }
}

function passes(entry: RequestLogEntry, filter: LogFilter): boolean {
  if (filter.merchant !== undefined && entry.merchant !== filter.merchant) return false
  if (filter.path !== undefined && !entry.path.startsWith(filter.path)) return false
  return filter.status === undefined || statusMatches(filter.status, entry.status)
}

/** The entry a request makes, as `gw sandbox logs` shows it (RequestLog lists its fields): every piece of text from the request cut short and its card numbers masked. */
export function entryOf(exchange: Exchange): RequestLogEntry {
  const {input, body} = exchange
  return {
    time: new Date().toISOString(),
    merchant: exchange.merchant ?? null,
    method: exchange.method,
    path: cut(maskCardPath(exchange.pathname)),
    status: exchange.status,
    ms: Math.round(exchange.ms * 10) / 10,
    request_id: exchange.requestId,
    reference: referenceOf(exchange.method, input, body),
    card_number: cardNumberOf(input, body),
    error: exchange.fault ?? firstError(body, exchange.pathname),
  }
}

/**
 * The reference the body gave; for a write that names its record otherwise (a capture or
 * increment by the id in its path, a void by the id in its body or query), the reference of the record answered.
 */
function referenceOf(method: string, input: Record<string, unknown> | undefined, body: unknown): string | null {
  if (typeof input?.reference === 'string') return shown(input.reference)
  const answered = method === 'GET' ? undefined : (body as {response?: {reference?: unknown} | null} | undefined)?.response?.reference
  return typeof answered === 'string' ? shown(answered) : null
}

/** The card of the request (a purchase's, a customer's nested one), or else the card of the record answered. */
function cardNumberOf(input: Record<string, unknown> | undefined, body: unknown): string | null {
  const nested = input?.card
  const given = input?.card_number ?? (nested !== null && typeof nested === 'object' ? (nested as {card_number?: unknown}).card_number : undefined)
  if (typeof given === 'string' || typeof given === 'number') return cut(maskCardNumber(String(given)))
  const answered = (body as {response?: {card_number?: unknown} | null} | undefined)?.response?.card_number
  return typeof answered === 'string' ? cut(maskCardNumber(answered)) : null
}

/** The answer's first error, naming no stored card's token: not in the path it may repeat, nor in `Card <token> could not be found`. */
function firstError(body: unknown, pathname: string): string | null {
  const first = (body as {errors?: unknown} | undefined)?.errors
  if (!Array.isArray(first) || typeof first[0] !== 'string') return null
  return shown(maskCardTokensIn(first[0].replaceAll(pathname, maskCardPath(pathname))))
}

/** Text from a request, its card numbers masked (design.md §3's rule, safety/card-digits.ts). */
function shown(text: string): string {
  return cut(maskCardNumbersIn(text))
}

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text
}

/** A line of the file that is an entry: a line cut short by a crash, or anything else, is left out. */
function isEntry(line: string): boolean {
  if (line.trim() === '') return false
  try {
    const entry = JSON.parse(line) as RequestLogEntry | null
    return typeof entry?.time === 'string' && typeof entry.method === 'string' && typeof entry.path === 'string'
  } catch {
    return false
  }
}
