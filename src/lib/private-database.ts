import {closeSync, constants, mkdirSync, openSync, statSync} from 'node:fs'
import {dirname} from 'node:path'
import type {DatabaseSync} from 'node:sqlite'
import {WriteError} from '../errors.js'
import {nodeSqlite} from './locked-database.js'

/**
 * A node:sqlite database readable by its owner alone, in a folder of the owner's alone: made so
 * when there is none (SQLite would make it with the process's umask). `timeoutMs`: how long a
 * statement waits for another process's transaction to end.
 */
export function openPrivateDatabase(path: string, timeoutMs: number): DatabaseSync {
  mkdirSync(dirname(path), {recursive: true, mode: 0o700})
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const {DatabaseSync} = nodeSqlite()
  return new DatabaseSync(path, {timeout: timeoutMs})
}

/** A database of another layout (PRAGMA user_version) than the one its reader knows: left as it is. */
export class LayoutVersionError extends Error {
  constructor(
    readonly path: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(`${path} is of layout version ${found}, not ${known}`)
  }
}

/**
 * Makes the tables of `schema` (which sets PRAGMA user_version to `version`) in a database that has
 * none yet, in one transaction; throws LayoutVersionError for one of another layout.
 */
export function withLayout(db: DatabaseSync, path: string, schema: string, version: number): void {
  const found = () => Number((db.prepare('PRAGMA user_version').get() as {user_version: number}).user_version)
  if (found() === 0) {
    db.exec('BEGIN IMMEDIATE')
    // Another process may have made them while this one waited for the write lock.
    if (found() === 0) db.exec(schema)
    db.exec('COMMIT')
  }
  if (found() !== version) throw new LayoutVersionError(path, found(), version)
}

/** How long a gw waits for another's transaction on one of its records: a record's takes milliseconds. */
const RECORD_BUSY_MS = 10_000

/** A record's tables (`schema`, which sets PRAGMA user_version to `version`) and how durable its commits are. */
export interface RecordLayout {
  schema: string
  version: number
  synchronous: 'NORMAL' | 'FULL' | 'EXTRA'
}

/**
 * One of gw's records (refunds made, the refund index, hooks made), private as openPrivateDatabase
 * makes it, its commits as durable as `synchronous` says, with the tables of `schema` at `version`.
 * Closed again before it throws (LayoutVersionError for one of another layout).
 */
export function openRecord(path: string, {schema, version, synchronous}: RecordLayout): DatabaseSync {
  const db = openPrivateDatabase(path, RECORD_BUSY_MS)
  try {
    db.exec(`PRAGMA synchronous = ${synchronous}`)
    withLayout(db, path, schema, version)
  } catch (err) {
    db.close()
    throw err
  }
  return db
}

/** Opens the record (made when there is none), hands it to `use`, and closes it again, whatever `use` does. */
export function withRecord<T>(path: string, layout: RecordLayout, use: (db: DatabaseSync) => T): T {
  const db = openRecord(path, layout)
  try {
    return use(db)
  } finally {
    db.close()
  }
}

/** As withRecord, for a look-up or a removal, which makes no record: undefined, `use` not run, where there is none yet. */
export function withRecordIfMade<T>(path: string, layout: RecordLayout, use: (db: DatabaseSync) => T): T | undefined {
  if (statSync(path, {throwIfNoEntry: false}) === undefined) return undefined
  return withRecord(path, layout, use)
}

/**
 * A record of gw's (refunds made, web hooks made) that could not be written, as WriteError: one of
 * another version, or why in a word: the system's code, or SQLite's own words (`database or disk is full`).
 */
export function unwrittenRecord(path: string, err: unknown): WriteError {
  if (err instanceof LayoutVersionError) return new WriteError(`${err.path} is of version ${err.found}, and this gw reads version ${err.known} only: run the gw that wrote it, or move it away and gw makes a new one`, err)
  const {code, errstr, message} = err as {code?: string; errstr?: string; message?: string}
  return new WriteError(`${path} cannot be written (${code !== undefined && code !== 'ERR_SQLITE_ERROR' ? code : (errstr ?? message ?? String(err))})`, err)
}
