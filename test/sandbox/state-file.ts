import {execFileSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {basename, join} from 'node:path'
import {isHeldHere, nodeSqlite} from '../../src/lib/locked-database.js'
import type {Store} from '../../src/sandbox/domain/store.js'
import {openState} from '../../src/sandbox/server/persist.js'

// Reading a local gateway's state file in a test. A gateway in this process holds its file under a
// POSIX lock, which this process would lose by opening and closing the file any other way: such a
// file is copied by another process (cp, with its write-ahead log) and the copy read: what a crash would leave.

/** The state a file no gateway holds, read as a gateway would read it at start. */
export function stateIn(file: string): Store {
  const state = openState(file)
  state.close()
  return state.store
}

/** A copy of the file, and of its write-ahead log while it has one, made by another process: what is on disk now. */
export function copyOnDisk(file: string): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'gw-state-copy-')), basename(file))
  execFileSync('sh', ['-c', 'cp "$1" "$2" && if [ -e "$1-wal" ]; then cp "$1-wal" "$2-wal"; fi', 'sh', file, copy])
  return copy
}

/** The state the file holds on disk, a gateway in this process holding it or not. */
export function stateOnDisk(file: string): Store {
  return stateIn(isHeldHere(file) ? copyOnDisk(file) : file)
}

/** The rows of a state file on disk: its snapshot and each group commit's changes, as the JSON text they hold. */
export function rowsOf(file: string): {snapshot: string; batches: string[]} {
  const {DatabaseSync} = nodeSqlite()
  const db = new DatabaseSync(isHeldHere(file) ? copyOnDisk(file) : file)
  try {
    const snapshot = db.prepare('SELECT state FROM snapshot').get()?.state as string
    const batches = db.prepare('SELECT changes FROM changes ORDER BY batch').all().map((row) => row.changes as string)
    return {snapshot, batches}
  } finally {
    db.close()
  }
}

/** Runs SQL on a state file no gateway holds (a test spoiling it). */
export function runSql(file: string, sql: string, ...values: string[]): void {
  const {DatabaseSync} = nodeSqlite()
  const db = new DatabaseSync(file)
  try {
    db.prepare(sql).run(...values)
  } finally {
    db.close()
  }
}
