import {createHash} from 'node:crypto'
import {type Dirent, existsSync, mkdirSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {gatewayKey} from '../api/base-url.js'
import {UsageError} from '../errors.js'
import {DatabaseLockedError, openLockedDatabase} from '../lib/locked-database.js'
import {hexOfLettered, isMaskedAtRest, letteredHex} from '../safety/at-rest.js'
import {maskCardNumbersIn} from '../safety/redact.js'
import {journalHeaderLine} from './journal-file.js'

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

/** The gateway and merchant as a journal records and compares them: the base URL in one spelling (api/base-url.ts gatewayKey). */
export function journalTarget(baseUrl: string, username: string): JournalTarget {
  return {base_url: gatewayKey(baseUrl), username}
}

/**
 * gw's data directory holds journals by command, input and gateway: the same file (by its real
 * path, however it was edited since) run again against the same gateway and merchant, however its
 * address is spelled, finds its journal; against another, it gets its own. A file with no journal
 * of its own whose rows a journal was begun for at another path (the file moved, copied or
 * hard-linked since) finds that journal: the same rows are the same batch. A name is lettered
 * (at-rest.ts): a path gw shows never has digits that its masker would take for a card number.
 */
export function defaultJournalPath(dataDir: string, command: string, input: JournalInput, target: JournalTarget): string {
  const where = inputHash(`${target.base_url}\n${target.username}`).slice(0, 8)
  const key = input.path === undefined ? input.sha256 : inputHash(input.path)
  const path = join(dataDir, 'journals', `${command.replaceAll(' ', '-')}-${letteredHex(key.slice(0, 16))}-${letteredHex(where)}${JOURNAL_EXTENSION}`)
  if (existsSync(path)) return path
  return (input.path !== undefined && journalOfSameRows(join(dataDir, 'journals'), {command, sha256: input.sha256, target})) || path
}

/** Whether the rows key a journal's header wrote (`input_sha256`, lettered: at-rest.ts) is `sha256`'s. */
export function sameRowsKey(written: unknown, sha256: string): boolean {
  return typeof written === 'string' && hexOfLettered(written) === sha256
}

/** How a journal gw names is named: a SQLite database (journal-file.ts). */
export const JOURNAL_EXTENSION = '.sqlite'

/**
 * Held while a batch chooses its journal and opens it: keyed by what makes two runs the same
 * batch (command, the rows' content, gateway and merchant), not by the input's path. Two copies
 * of one input started at once would otherwise each find no journal of the other's yet, each
 * begin one, and both send every row; under this lock the second finds the first's journal
 * (journalOfSameRows), whose own lock then refuses it.
 */
export function lockSameBatch(dataDir: string, command: string, sha256: string, target: JournalTarget): {release(): void} {
  const folder = join(dataDir, 'journals')
  mkdirSync(folder, {recursive: true, mode: 0o700})
  const key = inputHash(`${command}\n${sha256}\n${target.base_url}\n${target.username}`).slice(0, 16)
  try {
    // The kernel's lock on a file of gw's own folder, which no TMPDIR names; kept (empty) after,
    // since a lock file removed while another gw opens it would let a third take a new one.
    const held = openLockedDatabase(join(folder, `.same-batch-${key}.lock`))
    return {release: () => held.close()}
  } catch (err) {
    if (!(err instanceof DatabaseLockedError)) throw err
    const who = err.pid === undefined || err.pid === process.pid ? 'Another gw' : `Another gw (pid ${err.pid})`
    throw new UsageError(`${who} is starting this batch (the same rows, for the same gateway and merchant): nothing was sent`, 'Wait for it to finish, then run this again: it finds that batch\'s journal and sends only what is left.')
  }
}

/**
 * The journal in `directory` of this command, gateway and merchant begun for rows of this content
 * (by its header), the newest when there are several; undefined when there is none. A file whose
 * first line is no such header is passed over; one that cannot be read is refused, as Journal.open
 * refuses it: it may be the one these rows were sent under.
 */
function journalOfSameRows(directory: string, wanted: {command: string; sha256: string; target: JournalTarget}): string | undefined {
  let entries: Dirent[]
  try {
    entries = readdirSync(directory, {withFileTypes: true})
  } catch {
    // No journals yet (or none that can be listed: writing this batch's own then says why).
    return undefined
  }
  let found: {path: string; createdAt: string} | undefined
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue
    const path = join(directory, entry.name)
    const header = headerOf(path)
    if (header?.command !== wanted.command || !sameRowsKey(header.input_sha256, wanted.sha256) || !sameTarget(header.target, wanted.target)) continue
    const createdAt = String(header.created_at)
    if (!found || createdAt > found.createdAt) found = {path, createdAt}
  }
  return found?.path
}

/**
 * The gateway and merchant as a journal's header writes them. A username or address whose digits
 * read as a card number (a merchant id of 16 digits) is kept masked there, as every text is, and
 * beside it the hash of the two, lettered, by which the header is known to be the target's: two
 * that mask alike stay two.
 */
export interface WrittenTarget extends JournalTarget {
  key?: string
}

export function writtenTarget(target: JournalTarget): WrittenTarget {
  return isMaskedAtRest(target.base_url) || isMaskedAtRest(target.username) ? {...target, key: targetKey(target)} : target
}

const targetKey = (target: JournalTarget) => letteredHex(inputHash(`${target.base_url}\n${target.username}`))

/**
 * The gateway and merchant as a file that compares them column by column keeps them (gw's record of
 * refunds made): as they are, or, where either holds what reads as a card number, the address
 * masked and the merchant by its key alone, so that two that mask alike stay two.
 */
export function keptTarget(target: JournalTarget): JournalTarget {
  const {key} = writtenTarget(target)
  return key === undefined ? target : {base_url: maskCardNumbersIn(target.base_url), username: `key:${key}`}
}

/**
 * Whether a gateway and merchant a journal wrote are the target's (journalTarget's one spelling):
 * the one comparison of targets, for a journal's header and for every line that names one. A
 * header written masked is known by its key alone.
 */
export function sameTarget(written: unknown, target: JournalTarget): boolean {
  const {base_url, username, key} = (written ?? {}) as Partial<WrittenTarget>
  if (key !== undefined) return key === targetKey(target)
  return writtenAddress(base_url) === target.base_url && username === target.username
}

/** A gateway address as a journal wrote it, in journalTarget's one spelling; undefined when it is no URL (a line gw did not write). */
export function writtenAddress(written: unknown): string | undefined {
  const address = String(written)
  return URL.canParse(address) ? gatewayKey(address) : undefined
}

/**
 * The first line of a file, parsed; undefined when it is not JSON, or the file went since it was
 * listed. One that cannot be read is refused: it may be the journal these rows were sent under.
 */
function headerOf(path: string): Record<string, unknown> | undefined {
  try {
    return parseEntry(journalHeaderLine(path))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw unreadable(path, err as NodeJS.ErrnoException)
  }
}

/** A line as JSON; undefined when it is none (a line torn by a crash, or no journal's). */
export function parseJson(line: string | undefined): unknown {
  try {
    return JSON.parse(line ?? '') as unknown
  } catch {
    // Not JSON: undefined, as for no line at all.
  }
  return undefined
}

/** A journal line's entry (a JSON object); undefined for a line that holds none. */
export function parseEntry(line: string | undefined): Record<string, unknown> | undefined {
  const value = parseJson(line)
  return value instanceof Object ? (value as Record<string, unknown>) : undefined
}

/** A journal gw cannot read: never taken as new, since rows already sent would be sent again. */
export function unreadable(path: string, err: NodeJS.ErrnoException): UsageError {
  // node:sqlite's own code says only that SQLite refused: its message says what it found.
  const why = err.code === 'EACCES' ? 'EACCES: permission denied' : err.code === 'EISDIR' ? 'EISDIR: it is a directory' : err.code === undefined || err.code === 'ERR_SQLITE_ERROR' ? err.message : err.code
  return new UsageError(`The batch journal ${path} cannot be read (${why}): nothing was sent, and it is left as it is`, 'It records what an earlier run sent: make it readable, then run this again. Without it, rows already sent would be sent again.')
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
