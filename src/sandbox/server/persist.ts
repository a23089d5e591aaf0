import {closeSync, mkdirSync, openSync, readSync, statSync} from 'node:fs'
import {dirname, resolve} from 'node:path'
import type * as z from 'zod'
import {realPath} from '../../lib/file-identity.js'
import {hostPlatform, type Platform} from '../../lib/platform.js'
import {DatabaseLockedError, isHeldHere, NotADatabaseError, openLockedDatabase, primaryCode} from '../../lib/locked-database.js'
import {checkOwnPath, NotYoursError} from '../../lib/own-file.js'
import {OverlayNameError} from '../../lib/overlay-names.js'
import type {Change} from '../domain/change-log.js'
import {storableSnapshot} from '../domain/storable.js'
import {Store, type StoreState} from '../domain/store.js'
import {StateDatabase, type StateWrite, writeThrough} from './state-database.js'
import {ChangeBatch, StateSnapshot, misfit} from './state-schema.js'
import {reasonOf, StateFileError} from './state-file-error.js'

/**
 * The state file is a SQLite database (state-database.ts) that the gateway holds for as long as
 * it runs, under the kernel's lock on the file itself (lib/locked-database.ts): a second gateway on
 * it is refused, by whatever name it reached the file (a symlink, a bind mount, another mount
 * namespace, another TMPDIR), and the lock ends with the process that held it. The file is changed
 * in place, never replaced, so it keeps its inode, and its lock, from start to stop.
 * Only the user may read it: it holds card holders, masked numbers and web hook passwords. No card
 * number is ever whole in it, inside a text either (domain/storable.ts).
 */

const DIRECTORY_MODE = 0o700

/** "SQLite format 3" and a NUL: the first bytes of every SQLite database. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0')
/** SQLite's result codes for a file that only begins as a database. */
const SQLITE_CORRUPT = 11
const SQLITE_NOTADB = 26

/** A state file this process holds: what it held when opened, and its database, until close(). */
export interface OpenState {
  /** As it was given: what messages name. */
  readonly path: string
  readonly store: Store
  readonly database: StateDatabase
  /** Lets go of the file, and of its lock; again, nothing. */
  close(): void
}

/**
 * Opens the state file at `path` (made, with its folder, when there is none) under its lock, and
 * reads it. Throws StateFileError naming the file: in use, not a state file (or one of another
 * layout), or not to be written.
 */
export function openState(path: string, write: StateWrite = writeThrough): OpenState {
  try {
    const file = realPath(path)
    mkdirSync(dirname(file), {recursive: true, mode: DIRECTORY_MODE})
    // Another user's state file, or a link or folder of theirs on the way, is never adopted (lib/own-file.ts).
    checkOwnPath(path)
    checkFile(path, file)
    return openDatabase(path, file, write)
  } catch (error) {
    if (error instanceof StateFileError) throw error
    if (error instanceof NotYoursError) throw new StateFileError(`The state file cannot be used: ${error.message}`, error.hint)
    throw new StateFileError(`Cannot write the state file ${path} (${reasonOf(error)})`)
  }
}

/** Refuses what is at `file` unless it is nothing (or an empty file) or a SQLite database. */
function checkFile(path: string, file: string): void {
  const stat = statSync(file, {throwIfNoEntry: false})
  if (!stat) return
  if (!stat.isFile()) throw notAStateFile(path, stat.isDirectory() ? 'it is a directory' : 'it is not a regular file')
  // Read by any other means, a file this process holds would lose its lock (POSIX locks are a process's).
  if (isHeldHere(file)) throw inUse(path, file, process.pid)
  if (stat.size === 0) return
  const head = Buffer.alloc(SQLITE_HEADER.length)
  const fd = openSync(file, 'r')
  try {
    readSync(fd, head, 0, head.length, 0)
  } finally {
    closeSync(fd)
  }
  if (!head.equals(SQLITE_HEADER)) throw notAStateFile(path, 'not a SQLite database')
}

/** The database at `file`, held, checked and read; let go again when any of that fails. */
function openDatabase(path: string, file: string, write: StateWrite): OpenState {
  let database: StateDatabase
  try {
    database = new StateDatabase(openLockedDatabase(file), write)
  } catch (error) {
    if (error instanceof DatabaseLockedError) throw inUse(path, file, error.pid)
    if (error instanceof NotADatabaseError) throw notAStateFile(path, error.reason)
    if (error instanceof OverlayNameError) throw new StateFileError(`${path} is on an overlay file system, and ${error.reason}: a gateway reaching the file through it would not meet this one's lock`, 'Give --state a file outside the overlay (on a volume, or another file system).')
    throw error
  }
  try {
    // Checked once the lock is taken, so that a gateway on another name of a running one's file is refused as in use, by its pid.
    refuseOtherNames(path, file)
    const store = loadState(path, database)
    database.writeAhead()
    return {path, store, database, close: () => database.close()}
  } catch (error) {
    database.close()
    throw error
  }
}

/** The state the database holds: its snapshot, with every group commit since replayed. */
function loadState(path: string, database: StateDatabase): Store {
  try {
    const layout = database.layout()
    if (layout.kind === 'other') throw notAStateFile(path, layout.reason)
    if (layout.kind === 'another') {
      throw new StateFileError(`${path} is a gw sandbox state file of layout ${layout.layout}, and this gw reads layout ${layout.reads} only`, 'Run it with the gw that wrote it, or give this one another --state file: gw never overwrites a file it cannot read.')
    }
    if (layout.kind === 'new') {
      database.create(storableSnapshot(new Store().snapshot()))
      return new Store()
    }
    const store = new Store(parsedRow(path, database.snapshot(), StateSnapshot, 'snapshot') as StoreState)
    for (const {batch, changes} of database.batches()) store.replay(parsedRow(path, changes, ChangeBatch, `change batch ${batch}`) as Change[])
    return store
  } catch (error) {
    const code = primaryCode(error)
    if (code === SQLITE_CORRUPT || code === SQLITE_NOTADB) throw notAStateFile(path, reasonOf(error))
    throw error
  }
}

function parsedRow(path: string, json: string | undefined, schema: z.ZodType, where: string): unknown {
  if (json === undefined) throw notAStateFile(path, `no ${where}`)
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    throw notAStateFile(path, `${where}, not JSON`)
  }
  const problem = misfit(schema, value, where)
  if (problem) throw notAStateFile(path, problem)
  return value
}

/**
 * SQLite keeps the writes it has not folded into the file yet (its write-ahead log, and a rollback
 * journal) beside the name the file was opened by, `<name>-wal`: a gateway started after a crash on
 * another name of the file (a hard link, a bind mount of the file) would not find them, and would
 * run without what was acknowledged, or on a half-written file. The lock itself holds across every name.
 */
function refuseOtherNames(path: string, file: string): void {
  const {nlink} = statSync(file)
  const why = "SQLite keeps the latest writes beside the name the gateway opened it by, where a gateway started on the file's other name after a crash would not look"
  if (nlink > 1) {
    throw new StateFileError(`${path} has ${nlink} names (hard links): ${why}`, 'Give --state a file with one name: remove the other names, or copy the file (cp) and use the copy.')
  }
  if (isMountPoint(file)) {
    throw new StateFileError(`${path} is a mount point (a bind mount gives the file another name): ${why}`, 'Give --state a file of its own, not one mounted over another.')
  }
}

/** Whether a file is a mount point (Linux's /proc/self/mountinfo, read on Linux alone; elsewhere none is known): a bind mount's other name. */
export function isMountPoint(path: string, platform: Pick<Platform, 'procFile'> = hostPlatform()): boolean {
  const table = platform.procFile('self/mountinfo')
  if (table === undefined) return false
  // The fifth field, with spaces, tabs, newlines and backslashes written as octal escapes.
  const unescape = (field: string) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)))
  return table.split('\n').some((line) => unescape(line.split(' ')[4] ?? '') === path)
}

function inUse(path: string, file: string, pid: number | undefined): StateFileError {
  const same = file === resolve(path) ? '' : ` (the same file as ${file})`
  const who = pid === undefined ? 'another local gateway' : pid === process.pid ? 'another local gateway in this process' : `another local gateway (pid ${pid})`
  const stop =
    pid === undefined
      ? `Stop the gateway that runs on it (gw sandbox stop where it was started, or end its process: ${hostPlatform().hints.whoHolds(file)})`
      : pid === process.pid
        ? 'Close that gateway first'
        : `Stop that gateway first (gw sandbox stop, or ${hostPlatform().hints.stop(pid)})`
  return new StateFileError(
    `${path}${same} is in use by ${who}: two gateways on one state file would lose each other's writes`,
    `${stop}: the lock is the system's, on the file itself, and ends with that gateway. Or give this one another --state file.`,
  )
}

const notAStateFile = (path: string, reason: string) => new StateFileError(`${path} is not a gw sandbox state file (${reason}); move it away or pick another file`)
