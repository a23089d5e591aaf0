import {primaryCode, type LockedDatabase} from '../../lib/locked-database.js'
import {reasonOf, UnsavedChangeError} from './state-file-error.js'

/**
 * The state file's tables: one row holding a snapshot of the whole state (JSON), and one row per
 * group commit holding its changes (a JSON array) in the order they were made. The rows are folded
 * into the snapshot, in one transaction, when the gateway starts and when it stops cleanly.
 */
const TABLES = [
  'CREATE TABLE snapshot (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL) STRICT',
  'CREATE TABLE changes (batch INTEGER PRIMARY KEY, changes TEXT NOT NULL) STRICT',
]

/** SQLite's result code for a write that found the disk full. */
const SQLITE_FULL = 13

/** "gwsb" (PRAGMA application_id): what tells a local gateway's state file from another program's SQLite file. */
const APPLICATION_ID = 0x67777362
/** The tables above (PRAGMA user_version). */
const LAYOUT = 1

/**
 * Runs one write to the state file: `run` itself, here. `step` is the SQL statement; tests give a
 * disk that fails, before the step or after it.
 */
export type StateWrite = (step: string, run: () => void) => void

export const writeThrough: StateWrite = (_, run) => run()

/** What a database file holds: nothing yet, a state file of this layout, one of another (`layout`), or something else (why not). */
export type Layout = {kind: 'new'} | {kind: 'state'} | {kind: 'another'; layout: number; reads: number} | {kind: 'other'; reason: string}

/** A state file's database, held under its lock (openLockedDatabase) until close. */
export class StateDatabase {
  private writingAhead = false

  constructor(
    private readonly held: LockedDatabase,
    private readonly write: StateWrite = writeThrough,
  ) {}

  layout(): Layout {
    const {db} = this.held
    const application = Number(db.prepare('PRAGMA application_id').get()?.application_id)
    const layout = Number(db.prepare('PRAGMA user_version').get()?.user_version)
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all()
    if (application === 0 && layout === 0 && tables.length === 0) return {kind: 'new'}
    if (application !== APPLICATION_ID) return {kind: 'other', reason: "another program's SQLite database"}
    if (layout !== LAYOUT) return {kind: 'another', layout, reads: LAYOUT}
    return {kind: 'state'}
  }

  /** Makes the tables of a new state file, holding `state` (JSON). */
  create(state: string): void {
    this.transaction([
      ...TABLES.map((sql) => ({sql})),
      {sql: `PRAGMA application_id = ${APPLICATION_ID}`},
      {sql: `PRAGMA user_version = ${LAYOUT}`},
      {sql: 'INSERT INTO snapshot (id, state) VALUES (1, ?)', values: [state]},
    ])
  }

  /** The snapshot's JSON; undefined when its row is missing. */
  snapshot(): string | undefined {
    return this.held.db.prepare('SELECT state FROM snapshot WHERE id = 1').get()?.state as string | undefined
  }

  /** The group commits since the snapshot, oldest first. */
  batches(): {batch: number; changes: string}[] {
    return this.held.db.prepare('SELECT batch, changes FROM changes ORDER BY batch').all() as {batch: number; changes: string}[]
  }

  /**
   * Adds one group commit's changes (a JSON array) as batch `batch`: durable once this returns.
   * Throws UnsavedChangeError, saying whether the file is known to hold none of them.
   */
  append(batch: number, changes: string): void {
    const commit = {tried: false}
    try {
      this.transaction([{sql: 'INSERT INTO changes (batch, changes) VALUES (?, ?)', values: [batch, changes]}], commit)
    } catch (error) {
      // Only a COMMIT that failed may have left the batch in the file.
      throw new UnsavedChangeError(reasonOf(error), !commit.tried || this.emptied(batch) || this.cutShort(error, batch))
    }
  }

  /**
   * Whether a COMMIT that failed is known to be in no file: one that found the disk full, and that
   * this process does not see (one that took, then failed in its checkpoint, it does). SQLite writes
   * the frame that marks a commit in the log last, so that frame was never whole; a rollback
   * journal undoes what was written. On a full disk emptied() finds no room either.
   */
  private cutShort(error: unknown, batch: number): boolean {
    const {db} = this.held
    return primaryCode(error) === SQLITE_FULL && !db.isTransaction && db.prepare('SELECT 1 AS found FROM changes WHERE batch = ?').get(batch) === undefined
  }

  /**
   * Makes batch `batch` empty in the file, whatever a failed commit of it left there; whether that
   * is durable. In write-ahead mode a COMMIT whose sync failed has written its frames to the log
   * all the same, and SQLite, which takes the transaction back in this process, reads them as
   * committed on the next open (it keeps every frame whose checksum holds, up to the last commit
   * frame): after a crash the batch would be back. This write starts in the log where the failed
   * one did (this process's index of the log ends before it), so once synced it overwrites it, and
   * what is left of it no longer chains. A rollback journal takes a failed commit back by itself;
   * one that failed once it had committed (its checkpoint) is replaced here.
   */
  private emptied(batch: number): boolean {
    try {
      this.transaction([{sql: "INSERT OR REPLACE INTO changes (batch, changes) VALUES (?, '[]')", values: [batch]}])
      return true
    } catch {
      return false
    }
  }

  /** Replaces the snapshot with `state` (JSON) and drops every batch it holds, in one transaction. */
  compact(state: string): void {
    this.transaction([{sql: 'UPDATE snapshot SET state = ? WHERE id = 1', values: [state]}, {sql: 'DELETE FROM changes'}])
  }

  /**
   * From now until close, each commit is appended to a write-ahead log beside the file
   * (`<file>-wal`) and synced once, where a rollback journal costs four syncs. The log is the
   * file's until a clean close folds it in: after a crash the next open reads it.
   */
  writeAhead(): void {
    this.writingAhead = this.held.db.prepare('PRAGMA journal_mode = WAL').get()?.journal_mode === 'wal'
  }

  /** Lets the file go, as one file again (its log folded in) when it was written ahead; again, nothing. */
  close(): void {
    if (this.writingAhead) foldLog(this.held.db)
    this.writingAhead = false
    this.held.close()
  }

  /** The statements as one transaction: all of them durable (synchronous FULL), or none. `commit.tried` once COMMIT is. */
  private transaction(statements: {sql: string; values?: (string | number)[]}[], commit = {tried: false}): void {
    const {db} = this.held
    try {
      this.write('BEGIN IMMEDIATE', () => db.exec('BEGIN IMMEDIATE'))
      for (const {sql, values = []} of statements) this.write(sql, () => db.prepare(sql).run(...values))
      commit.tried = true
      this.write('COMMIT', () => db.exec('COMMIT'))
    } catch (error) {
      // SQLite takes back some failed transactions itself (a full disk, an I/O error); the rest are taken back here.
      if (db.isTransaction) rollBack(db)
      throw error
    }
  }
}

/** Folds the write-ahead log into the file and removes it: a stopped gateway's file is one file, for a copy or sqlite3. */
function foldLog(db: LockedDatabase['db']): void {
  try {
    db.exec('PRAGMA journal_mode = DELETE')
  } catch {
    // The log stays beside the file (a full disk, say), and the next open reads it.
  }
}

/** Takes an open transaction back; one that cannot be is left open, which holds() reports. */
function rollBack(db: LockedDatabase['db']): void {
  try {
    db.exec('ROLLBACK')
  } catch {
    // The failure that led here is the one to report.
  }
}
