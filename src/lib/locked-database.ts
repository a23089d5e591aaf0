import {closeSync, constants, statSync} from 'node:fs'
import type {DatabaseSync} from 'node:sqlite'
import {fileId, realPath} from './file-identity.js'
import {cutShort} from './database-cut.js'
import {checkOwnPath, keepPrivate, openOwnFileSync} from './own-file.js'
import {otherNames} from './overlay-names.js'
import {hostPlatform, type Platform} from './platform.js'

// A SQLite database file (node:sqlite) that one process at a time may use (design.md §5, identity,
// not names): its lock is the kernel's, on the file itself (fcntl on its inode), so it holds through
// symlinks, hard links, bind mounts, renames, containers and every TMPDIR, and it dies with its
// process: no lock file, nothing left behind to clear.

/** Another process (or this one, a second time) holds the file: who, where the system says. */
export class DatabaseLockedError extends Error {
  constructor(
    /** The file's real path. */
    readonly path: string,
    /** The holder's pid where /proc/locks names it (this process's own when it asked twice); undefined elsewhere. */
    readonly pid: number | undefined,
    /** /proc/locks was read after the refusal and no process holds the file by then: its holder let go meanwhile, and the lock is worth another try. */
    readonly letGo = false,
  ) {
    super(`${path} is locked${pid === undefined ? '' : ` by pid ${pid}`}`)
  }
}

/** The file is no SQLite database (or no regular file): it is left as it is. */
export class NotADatabaseError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} is not a SQLite database (${reason})`)
  }
}

/** The file is a SQLite database whose pages do not hold together (cut short, overwritten): it is left as it is. */
export class DamagedDatabaseError extends NotADatabaseError {}

/** A database this process holds until close(): no other process may read or write it meanwhile. */
export interface LockedDatabase {
  readonly db: DatabaseSync
  /** The file's real path (symlinks resolved). */
  readonly path: string
  /** Gives the lock up with the database; again, nothing. */
  close(): void
}

/** How long a connection taking the lock waits out another that is taking it too (TAKE_LOCK). */
const LOCK_WAIT_MS = 250

/** The files SQLite keeps beside a database: its rollback journal, its write-ahead log and that log's index. */
const SIDE_FILES = ['-journal', '-wal', '-shm']

/** SQLite's result codes that gw tells apart. */
const SQLITE_BUSY = 5
const SQLITE_CORRUPT = 11
const SQLITE_NOTADB = 26

/**
 * The files this process holds, by device and inode. The kernel's locks are a process's, and a
 * process that closes any descriptor of a file loses every lock it had on it: what would open such
 * a file by other means than its database first asks isHeldHere.
 */
const HELD = new Set<string>()

/**
 * Opens the SQLite database at `path` (made, empty and readable by its owner alone, when there is
 * none) and takes the kernel's lock on it, held until close(): one writer, whatever name the other
 * used. SQLite's own default, synchronous FULL, makes each commit durable. Throws
 * DatabaseLockedError when another process, or this one, holds it; NotADatabaseError for a file
 * that is no database, left untouched; an error with the system's code (EACCES, EROFS, ENOENT for
 * a folder that is not there, ENOSPC for a full disk) when it cannot be opened for writing;
 * NotYoursError (own-file.ts) for a file, or a folder or link on the way, of another user's.
 */
export function openLockedDatabase(path: string): LockedDatabase {
  const file = lockableFile(path)
  const others = otherNames(file, (other) => lockedAs(lockableFile(other), HOLD_SHARED))
  let own: LockedDatabase | undefined
  try {
    others.before()
    own = lockedAs(file)
    others.after()
  } catch (err) {
    own?.close()
    others.release()
    throw err
  }
  const {db} = own
  return {
    db,
    path: file,
    close() {
      own.close()
      others.release()
    },
  }
}

/** The database at `file` (a real path, lockableFile's) opened and locked by that name alone: by `take` (TAKE_LOCK, or HOLD_SHARED). */
export function lockedAs(file: string, take = TAKE_LOCK): LockedDatabase {
  const {DatabaseSync} = nodeSqlite()
  let db: DatabaseSync
  for (let tries = 1; ; tries++) {
    db = new DatabaseSync(file)
    try {
      db.exec(take)
      break
    } catch (err) {
      db.close()
      const refusal = lockRefusal(file, err)
      if (!tryAgain(refusal, tries)) throw refusal
    }
  }
  const release = holdHere(file)
  let open = true
  return {
    db,
    path: file,
    close() {
      if (!open) return
      open = false
      release()
      db.close()
    },
  }
}

/**
 * What takes the kernel's lock on a database just opened, kept until its connection closes: in
 * EXCLUSIVE mode the lock a transaction takes is kept once it ends. Run by the connection that
 * holds the file, on whichever thread of this process owns it (journal-worker.ts). SQLite takes
 * a shared lock first: two processes that both hold it and want the exclusive one were both
 * refused (two copies of one batch started at once, neither ran); with a busy timeout the first
 * to reserve waits for the other to let go, and only the other is refused. A lock held for good
 * is refused after that wait.
 */
export const TAKE_LOCK = `PRAGMA busy_timeout = ${LOCK_WAIT_MS}; BEGIN EXCLUSIVE; PRAGMA locking_mode = EXCLUSIVE; COMMIT`

/**
 * What holds a database's other name (overlay-names.ts) against every writer, and writes nothing
 * through it: a read in EXCLUSIVE mode takes the shared lock and keeps it. A writer by that name
 * meets it; this process writes by its own name alone (an overlay's upper directory written
 * underneath it would leave the overlay's view of the folder stale).
 */
export const HOLD_SHARED = `PRAGMA busy_timeout = ${LOCK_WAIT_MS}; PRAGMA locking_mode = EXCLUSIVE; SELECT count(*) FROM sqlite_schema`

/**
 * The real path of the database at `path`, made (empty, its owner's alone) when there is none and
 * tried for writing, for a connection to open and lock (TAKE_LOCK): openLockedDatabase's first
 * half. Throws as openLockedDatabase does, before any connection is opened.
 */
export function lockableFile(path: string): string {
  const file = realPath(path)
  const before = statSync(file, {throwIfNoEntry: false})
  if (before && !before.isFile()) throw new NotADatabaseError(file, before.isDirectory() ? 'it is a directory' : 'it is not a regular file')
  // Asked before any descriptor of it is opened here: closing one would give up this process's lock.
  if (before && HELD.has(fileId(before))) throw new DatabaseLockedError(file, process.pid)
  const cut = before && cutShort(file, before.size)
  if (cut) throw new DamagedDatabaseError(file, cut)
  // Made with its mode, and tried for writing: SQLite would open an unwritable file read-only, and fail only at its first write.
  // The user's own only (own-file.ts): never another user's file, or a link they made, adopted.
  closeSync(openOwnFileSync(file, constants.O_RDWR).fd)
  // What SQLite keeps beside it (a hot journal is played back into the file): the user's own too, never another user's planted first.
  // Left readable by others (its user's umask), they are made the user's alone, as the file is.
  for (const beside of SIDE_FILES) {
    checkOwnPath(file + beside)
    keepPrivate(file + beside)
  }
  return file
}

/** Why TAKE_LOCK failed on `file`, as openLockedDatabase throws it: held by another, no database, a damaged one, or the system's error. */
export function lockRefusal(file: string, err: unknown): unknown {
  const code = primaryCode(err)
  if (code === SQLITE_BUSY) {
    const locks = readLocks()
    return new DatabaseLockedError(file, lockHolder(file, locks), locks !== undefined && lockers(file, locks).length === 0)
  }
  if (code === SQLITE_NOTADB) return new NotADatabaseError(file, 'its first bytes are no database header')
  if (code === SQLITE_CORRUPT) return new DamagedDatabaseError(file, (err as Error).message)
  return systemError(err)
}

/**
 * How many times TAKE_LOCK is tried in all when each refusal finds that the holder has let go by
 * the time /proc/locks is read (its batch ended meanwhile): "another gw is running it" would then
 * be untrue, and the lock is free to take.
 */
const LOCK_TRIES = 3

/** Whether a refusal of TAKE_LOCK, the `tries`-th, is to be tried again (its holder let go, LOCK_TRIES). */
export function tryAgain(refusal: unknown, tries: number): boolean {
  return refusal instanceof DatabaseLockedError && refusal.letGo && tries < LOCK_TRIES
}

/**
 * Notes that this process now holds `file` (its lock taken, on any thread): isHeldHere says so,
 * and openLockedDatabase refuses it, until the function returned is called.
 */
export function holdHere(file: string): () => void {
  const id = fileId(statSync(file))
  HELD.add(id)
  return () => HELD.delete(id)
}

/** SQLite's result codes for what the system refused, and the system's own words for them. */
const SYSTEM_CODES: Record<string, string> = {10: 'EIO', 13: 'ENOSPC', 14: 'EACCES'}

/**
 * A node:sqlite error as the system's (`code` ENOSPC for a full disk, EIO for a failed write or
 * sync, EACCES for a file that cannot be opened), so that what cannot be written is said as any
 * other file gw cannot write; any other error as it is.
 */
export function systemError(err: unknown): unknown {
  const code = SYSTEM_CODES[String(primaryCode(err))]
  return code === undefined ? err : Object.assign(new Error((err as Error).message, {cause: err}), {code})
}

/** A node:sqlite error's result code without its extended part (SQLITE_IOERR_FSYNC is SQLITE_IOERR); undefined for another error. */
export function primaryCode(err: unknown): number | undefined {
  const code = (err as {errcode?: unknown})?.errcode
  return typeof code === 'number' ? code & 0xff : undefined
}

/** Whether this process holds the file at `path` (by device and inode) in an openLockedDatabase. */
export function isHeldHere(path: string): boolean {
  const stat = statSync(path, {throwIfNoEntry: false})
  return stat !== undefined && HELD.has(fileId(stat))
}

/**
 * Who holds a lock on the file, as `locks` (Linux's /proc/locks, readLocks) says: a pid in this
 * process's namespace; undefined where it says nothing: another system, a holder in another
 * container, or gone since.
 */
export function lockHolder(file: string, locks: string | undefined): number | undefined {
  if (locks === undefined) return undefined
  return lockers(file, locks).find((pid) => pid > 0)
}

/**
 * The pids of the locks `locks` (/proc/locks) lists on the file, a waiter's left out: 0 for a
 * holder outside this process's namespace (another container), as the kernel writes it.
 */
function lockers(file: string, locks: string): number[] {
  const stat = statSync(file, {bigint: true, throwIfNoEntry: false})
  if (!stat) return []
  const wanted = `${deviceName(stat.dev)}:${stat.ino}`
  return locks.split('\n').flatMap((line) => {
    // "1: POSIX  ADVISORY  WRITE 2019 fe:00:2146535 0 EOF"; a waiter's line has "->" after its number.
    const fields = line.split(/\s+/)
    const at = fields.indexOf(wanted)
    return fields[1] === '->' || at < 1 ? [] : [Number(fields[at - 1])]
  })
}

/** A device number as /proc/locks writes it: its major and minor number (as glibc's major() and minor() split it), in hex. */
export function deviceName(dev: bigint): string {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & 0xfffff000n)
  const minor = (dev & 0xffn) | ((dev >> 12n) & 0xffffff00n)
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}`
}

/** The kernel's table of file locks: Linux's /proc/locks, read on Linux alone; undefined elsewhere. */
export function readLocks(platform: Pick<Platform, 'procFile'> = hostPlatform()): string | undefined {
  return platform.procFile('locks')
}

let loaded: typeof import('node:sqlite') | undefined

/** node:sqlite, loaded once it is needed (it costs start-up time). */
export function nodeSqlite(): typeof import('node:sqlite') {
  loaded ??= withoutSqliteWarning(() => process.getBuiltinModule('node:sqlite'))
  return loaded
}

/**
 * What `load` returns, every warning it emits passed on but one: Node 22 warns, as node:sqlite
 * loads, that SQLite is experimental (a warning for Node's developers, not gw's users).
 */
export function withoutSqliteWarning<T>(load: () => T): T {
  const emitWarning = process.emitWarning
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message
    if (!text.startsWith('SQLite is an experimental feature')) Reflect.apply(emitWarning, this, [warning, ...rest])
  } as typeof process.emitWarning
  try {
    return load()
  } finally {
    process.emitWarning = emitWarning
  }
}
