import {createHash} from 'node:crypto'
import {closeSync, existsSync, openSync, readdirSync, readSync} from 'node:fs'
import {join} from 'node:path'
import {gatewayAddress} from '../loopback.js'

/**
 * What a batch journal belongs to, known by what things are rather than how they are named
 * (design.md §5): the input file by its real path, the gateway by its address in one spelling,
 * and each row by what it asks for.
 */

/** The gateway and merchant a journal's rows were sent to: its answers hold for them alone. */
export interface JournalTarget {
  base_url: string
  username: string
}

/** A batch's input as a journal knows it: a file by its real path (edited, it is the same input), stdin by its content. */
export interface JournalInput {
  /** The file's real path (symlinks resolved); undefined for stdin. */
  path?: string
  sha256: string
}

/** The content hash of a batch read from stdin, which has no file to be known by. */
export function inputHash(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** The gateway and merchant as a journal records and compares them: the base URL in one spelling (loopback.ts). */
export function journalTarget(baseUrl: string, username: string): JournalTarget {
  return {base_url: gatewayAddress(baseUrl), username}
}

/**
 * gw's data directory holds journals by command, input and gateway: the same file (by its real
 * path, however it was edited since) run again against the same gateway and merchant, however its
 * address is spelled, finds its journal; against another, it gets its own. A file with no journal
 * of its own whose rows a journal was begun for at another path (the file moved, copied or
 * hard-linked since) finds that journal: the same rows are the same batch. A journal an earlier gw
 * named (by the input's content and the address as written, `spelledAs`) is still found.
 */
export function defaultJournalPath(dataDir: string, command: string, input: JournalInput, target: JournalTarget, spelledAs = target.base_url): string {
  const prefix = `${command.replaceAll(' ', '-')}-`
  const suffix = (baseUrl: string) => `-${inputHash(`${baseUrl}\n${target.username}`).slice(0, 8)}.ndjson`
  const name = (key: string, baseUrl: string) => join(dataDir, 'journals', `${prefix}${key.slice(0, 16)}${suffix(baseUrl)}`)
  const path = name(input.path === undefined ? input.sha256 : inputHash(input.path), target.base_url)
  if (existsSync(path)) return path
  const earlier = name(input.sha256, spelledAs.replace(/\/+$/, ''))
  if (existsSync(earlier)) return earlier
  return (input.path !== undefined && journalOfSameRows(join(dataDir, 'journals'), {prefix, suffix: suffix(target.base_url), command, sha256: input.sha256, target})) || path
}

/** The most of a header line read: a journal's header is its first line, and holds one path. */
const HEADER_BYTES = 64 * 1024
const FIRST_READ_BYTES = 4096

/**
 * The journal in `directory` of this command, gateway and merchant begun for rows of this content
 * (by its header), the newest when there are several; undefined when there is none. A file that
 * cannot be read, or whose first line is no such header, is passed over.
 */
function journalOfSameRows(directory: string, wanted: {prefix: string; suffix: string; command: string; sha256: string; target: JournalTarget}): string | undefined {
  let names: string[]
  try {
    names = readdirSync(directory)
  } catch {
    return undefined
  }
  let found: {path: string; createdAt: string} | undefined
  for (const name of names) {
    if (!name.startsWith(wanted.prefix) || !name.endsWith(wanted.suffix)) continue
    const path = join(directory, name)
    const header = headerOf(path)
    const target = header?.target as Partial<JournalTarget> | undefined
    const sameTarget = typeof target?.base_url === 'string' && URL.canParse(target.base_url) && gatewayAddress(target.base_url) === wanted.target.base_url && target.username === wanted.target.username
    if (header?.command !== wanted.command || header.input_sha256 !== wanted.sha256 || !sameTarget) continue
    const createdAt = String(header.created_at)
    if (!found || createdAt > found.createdAt) found = {path, createdAt}
  }
  return found?.path
}

function headerOf(path: string): Record<string, unknown> | undefined {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    // A header is a line of a few hundred bytes: a first small read has it, a long input path aside.
    const bytes = Buffer.alloc(HEADER_BYTES)
    let read = readSync(fd, bytes, 0, FIRST_READ_BYTES, 0)
    if (read === FIRST_READ_BYTES && !bytes.subarray(0, read).includes(0x0a)) read += readSync(fd, bytes, read, HEADER_BYTES - read, read)
    const line = bytes.subarray(0, read).toString('utf8').split('\n', 1)[0]!
    const value = JSON.parse(line) as unknown
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Fields whose values an edited row's message shows; others (a card token) are only named. */
const SHOWN_FIELDS = new Set(['amount', 'currency', 'transaction_id'])

/**
 * How a row, as the file asks for it now, differs from what an earlier run journaled for its
 * reference (the row as the file asked then, or else its request): a text per field that differs,
 * `amount 500, now 700`; none when it is the same row, or the journal has nothing of it.
 */
export function rowChanges(earlier: {request: Record<string, unknown>; asked?: Record<string, unknown>} | undefined, asked: Record<string, unknown>): string[] {
  if (!earlier) return []
  const then = earlier.asked ?? earlier.request
  // As the journal would hold it: a field left undefined is no field.
  const now = JSON.parse(JSON.stringify(asked)) as Record<string, unknown>
  const fields = [...new Set([...Object.keys(then), ...Object.keys(now)])]
  const shown = (value: unknown) => (value === undefined ? 'blank' : String(value))
  return fields
    .filter((field) => JSON.stringify(then[field]) !== JSON.stringify(now[field]))
    .map((field) => (SHOWN_FIELDS.has(field) ? `${field} ${shown(then[field])}, now ${shown(now[field])}` : `${field} changed`))
}
