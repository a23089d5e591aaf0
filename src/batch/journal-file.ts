import {closeSync, existsSync, openSync, readSync, statSync} from 'node:fs'
import type {DatabaseSync} from 'node:sqlite'
import {pathToFileURL} from 'node:url'
import {OverlayNameError} from '../lib/overlay-names.js'
import {DamagedDatabaseError, DatabaseLockedError, isHeldHere, type LockedDatabase, lockRefusal, NotADatabaseError, nodeSqlite, openLockedDatabase, primaryCode, systemError} from '../lib/locked-database.js'

// A batch journal's file (design.md §5): a SQLite database of one table holding the journal's
// entries in order, each the JSON text of one entry. Its writer holds the kernel's lock on the
// file itself (openLockedDatabase), so one gw runs a batch whatever name, bind mount, container or
// TMPDIR the other came by; each write is one transaction, whole or not at all.

/** `PRAGMA application_id` of a gw journal ("gwJ1"): another program's SQLite file is no journal. */
export const JOURNAL_ID = 0x67774a31

/** A new journal's mark and table, made in one transaction: a journal marked as one always has its table. */
export const JOURNAL_SCHEMA = `PRAGMA application_id = ${JOURNAL_ID}; CREATE TABLE entries (seq INTEGER PRIMARY KEY, line TEXT NOT NULL)`

const SQLITE_MAGIC = 'SQLite format 3\0'

/** What a file holds: nothing yet, a journal database, or something else. */
export type JournalFormat = 'none' | 'database' | 'other'

/**
 * What the file at `file` (a real path) holds, by its first bytes; a FIFO, a device or a socket is
 * other, never opened (a FIFO would block the read), and a database this process holds is one. Throws the system's error when it cannot be
 * read (EACCES; EISDIR for a folder).
 */
export function journalFormat(file: string): JournalFormat {
  const stat = statSync(file, {throwIfNoEntry: false})
  if (!stat) return 'none'
  // A database this process holds is never opened a second time: closing that descriptor would end the kernel's lock.
  if (isHeldHere(file)) return 'database'
  if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${file}'`), {code: 'EISDIR'})
  if (!stat.isFile()) return 'other'
  const fd = openSync(file, 'r')
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length)
    const read = readSync(fd, head, 0, head.length, 0)
    const text = head.subarray(0, read).toString('latin1')
    if (read === 0) return 'none'
    return text === SQLITE_MAGIC ? 'database' : 'other'
  } finally {
    closeSync(fd)
  }
}

/**
 * A journal this process holds for writing, until close(): by a connection on this thread
 * (openJournalFile), whose calls return once done, or on a worker's (openJournalInWorker), whose
 * calls return promises of the same.
 */
export interface JournalFile {
  readonly path: string
  /** Every entry written so far, in order. */
  lines(): string[] | Promise<string[]>
  /**
   * Writes the entries in one transaction: durable when it returns or its promise resolves
   * (synchronous FULL); throws or rejects, leaving none of them, when it cannot. `beforeCommit`
   * runs once they are in, before the commit: what it throws fails the append.
   */
  append(lines: readonly string[], beforeCommit?: () => void): void | Promise<void>
  close(): void | Promise<void>
}

/** Why a journal cannot be opened for writing, for Journal.open to say. */
export class JournalFileError extends Error {
  constructor(
    readonly reason: 'not-a-journal' | 'directory' | 'locked' | 'damaged' | 'overlay',
    /** `why`: what SQLite found wrong with a damaged one; why an overlay's other name cannot be locked. */
    readonly detail: {pid?: number; why?: string} = {},
  ) {
    super(reason)
  }
}

/**
 * Opens the journal at `file` (a real path) for writing under the kernel's lock, made when there
 * is none. Any of its names (a symlink, a
 * hard link, a bind mount, a new name after a rename) is the one file with the one lock. Throws
 * JournalFileError for a file that is no journal, a folder, or one held by another gw (or this
 * one); the system's error (code ENOSPC, EACCES...) when it cannot be written.
 */
export function openJournalFile(file: string): JournalFile {
  readyToLock(file)
  let locked: LockedDatabase
  try {
    locked = openLockedDatabase(file)
  } catch (err) {
    throw refused(err)
  }
  const {db} = locked
  try {
    const id = (db.prepare('PRAGMA application_id').get() as {application_id: number}).application_id
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as {n: number}
    if (id === 0 && tables.n === 0) {
      db.exec(`BEGIN; ${JOURNAL_SCHEMA}; COMMIT`)
    } else if (id !== JOURNAL_ID) {
      throw new JournalFileError('not-a-journal')
    }
  } catch (err) {
    locked.close()
    // A page past the first cut off or overwritten shows only once it is read.
    throw err instanceof JournalFileError ? err : refused(lockRefusal(file, err))
  }
  const insert = db.prepare('INSERT INTO entries (line) VALUES (?)')
  return {
    path: file,
    lines: () => readLines(db),
    append(lines, beforeCommit) {
      try {
        db.exec('BEGIN IMMEDIATE')
        for (const line of lines) insert.run(line)
        beforeCommit?.()
        db.exec('COMMIT')
      } catch (err) {
        // Nothing of it may stay: a commit that failed may have been rolled back by SQLite already.
        if (db.isTransaction) db.exec('ROLLBACK')
        throw systemError(err)
      }
    },
    close() {
      locked.close()
    },
  }
}

/** What openJournalFile does before it takes the lock: a folder refused. */
export function readyToLock(file: string): void {
  const before = statSync(file, {throwIfNoEntry: false})
  if (before?.isDirectory()) throw new JournalFileError('directory')
}

/** An error of taking the lock as openJournalFile throws it. */
export function refused(err: unknown): unknown {
  if (err instanceof DatabaseLockedError) return new JournalFileError('locked', {pid: err.pid})
  if (err instanceof DamagedDatabaseError) return new JournalFileError('damaged', {why: err.reason})
  if (err instanceof OverlayNameError) return new JournalFileError('overlay', {why: err.reason})
  if (err instanceof NotADatabaseError) return new JournalFileError('not-a-journal')
  return err
}

function readLines(db: DatabaseSync): string[] {
  const lines: string[] = []
  eachEntry(db, (line) => {
    lines.push(line)
  })
  return lines
}

/** SQLite's result code for a database image that does not hold together. */
const SQLITE_CORRUPT = 11

/**
 * Each entry in order, `onLine` returning false stopping the read. Entries are numbered from 1
 * with none missing (each commit appends): a number skipped is a page read while its writer
 * rewrote it, a torn read, thrown as SQLite's SQLITE_CORRUPT for withReader to read again.
 */
function eachEntry(db: DatabaseSync, onLine: (line: string) => boolean | void): void {
  let expected = 1
  for (const {seq, line} of db.prepare('SELECT seq, line FROM entries ORDER BY seq').iterate() as Iterable<{seq: number; line: string}>) {
    if (seq !== expected++) throw Object.assign(new Error(`entry ${expected - 1} is missing: the journal was read while it was written`), {errcode: SQLITE_CORRUPT})
    if (onLine(line) === false) return
  }
}


/**
 * Each entry of the journal at `file` (a real path), in order, read without taking its lock: a
 * batch another gw is running stays readable. `onLine` returning false stops the read. Returns
 * what the file held.
 */
export async function eachJournalLine(file: string, onLine: (line: string) => boolean | void): Promise<JournalFormat> {
  const format = journalFormat(file)
  if (format !== 'database') return format
  const read = readDatabase(file, (db) => {
    eachEntry(db, onLine)
    return true
  })
  return read ? format : 'other'
}

/** Every entry of the journal at `file` (a real path), in order, as eachJournalLine reads them; none when it holds none, or is no journal. */
export function readJournal(file: string): string[] {
  const format = journalFormat(file)
  return (format === 'database' && readDatabase(file, readLines)) || []
}

/** The first entry of the journal at `file` (its header), as eachJournalLine reads it; undefined when it holds none, or is no journal. */
export function journalHeaderLine(file: string): string | undefined {
  if (journalFormat(file) !== 'database') return undefined
  return readDatabase(file, (db) => (db.prepare('SELECT line FROM entries ORDER BY seq LIMIT 1').get() as {line: string} | undefined)?.line)
}

/**
 * `read` given the journal database at `file` opened immutable, without taking its lock (no undo
 * record looked for); undefined when the file is no journal (another program's database, a lock).
 * A file this process holds keeps its lock: SQLite keeps the descriptors of a file it holds a lock
 * on open until that lock ends, whichever of its connections closes.
 */
function readDatabase<T>(file: string, read: (db: DatabaseSync) => T): T | undefined {
  return withReader(file, (db) => (isJournal(db) ? read(db) : undefined))
}

/** SQLite's result codes of a page read while its writer rewrote it: read again. */
const TORN_READ = new Set([SQLITE_CORRUPT, 26])

/** How many times a torn read is read again, and the pause before each (its number, in ms): a writer's commit takes a few ms. */
const READS = 20

/**
 * The journal at `file` opened immutable: SQLite takes no lock on it, and looks for no undo record
 * beside it. Read only, so that a journal removed since it was found (another gw reads every
 * journal it knows of) is not made again, empty, where its owner removed it: it is gone (ENOENT).
 */
function openImmutable(file: string): DatabaseSync {
  const {DatabaseSync} = nodeSqlite()
  const url = pathToFileURL(file)
  url.searchParams.set('immutable', '1')
  try {
    return new DatabaseSync(url, {readOnly: true})
  } catch (err) {
    if (!existsSync(file)) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`, {cause: err}), {code: 'ENOENT'})
    throw systemError(err)
  }
}

/**
 * `read` given the file opened by `open` (immutable), begun again where a page read torn: it was
 * read while its writer rewrote it (measured: under a writer committing without pause, about one
 * read in ten). After a pause that grows each time (1, 2, ... ms), up to READS times; entries
 * already given may come again.
 */
export function withReader<T>(file: string, read: (db: DatabaseSync) => T, open: (file: string) => DatabaseSync = openImmutable): T {
  for (let attempt = 1; ; attempt++) {
    const db = open(file)
    try {
      return read(db)
    } catch (err) {
      if (attempt === READS || !TORN_READ.has(primaryCode(err) ?? 0)) throw systemError(err)
    } finally {
      db.close()
    }
    Atomics.wait(PAUSE, 0, 0, attempt)
  }
}

/** What withReader waits on, for nothing but the time. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4))

/** Whether a database is a gw journal: its application_id says so (another program's SQLite file, or a lock, is none). */
function isJournal(db: DatabaseSync): boolean {
  return (db.prepare('PRAGMA application_id').get() as {application_id: number}).application_id === JOURNAL_ID
}
