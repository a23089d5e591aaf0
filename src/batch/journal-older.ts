import {closeSync, createReadStream, openSync, readFileSync, renameSync, rmSync} from 'node:fs'
import {dirname} from 'node:path'
import {takeLockFile} from '../lib/lock-file.js'
import {nodeSqlite, systemError} from '../lib/locked-database.js'
import {syncDirectory} from '../lib/sync-directory.js'

// An older gw's batch journal: NDJSON, one entry a line, locked by a file beside it. Read as it
// is, and made a journal database (journal-file.ts) in place once a batch opens it.

/**
 * Each whole line of a file, in order, read a chunk at a time (constant memory, however long the
 * file); a line torn by a crash, unended, is left out. `onLine` returning false stops the read.
 */
export async function eachLine(path: string, onLine: (line: string) => boolean | void): Promise<void> {
  let carried = ''
  for await (const chunk of createReadStream(path, {encoding: 'utf8', highWaterMark: 1 << 20})) {
    const lines = (carried + (chunk as string)).split('\n')
    carried = lines.pop()!
    for (const line of lines) if (onLine(line) === false) return
  }
}

/**
 * Makes an older gw's NDJSON journal at `file` a journal database in place: its whole lines
 * written to a new database beside it, synced, and renamed over it. Under the lock an older gw
 * takes beside the file, so that none is appending to it meanwhile.
 */
export function fromLines(file: string, schema: string): void {
  // Throws LockHeldError while an older gw runs the batch.
  const olderLock = takeLockFile(`${file}.lock`)
  const aside = `${file}.${process.pid}.new`
  try {
    const text = readWholeLines(file)
    const {DatabaseSync} = nodeSqlite()
    rmSync(aside, {force: true})
    closeSync(openSync(aside, 'wx', 0o600))
    const db = new DatabaseSync(aside)
    try {
      db.exec(`BEGIN; ${schema}`)
      const insert = db.prepare('INSERT INTO entries (line) VALUES (?)')
      for (const line of text) insert.run(line)
      db.exec('COMMIT')
    } finally {
      db.close()
    }
    renameSync(aside, file)
    syncDirectory(dirname(file))
  } catch (err) {
    // SQLite removes its undo record beside it when the connection closes.
    rmSync(aside, {force: true})
    throw systemError(err)
  } finally {
    olderLock.release()
  }
}

/** The whole lines of an older gw's NDJSON journal, in order: a last line torn by a crash (never synced, so nothing was sent after it) left out. */
export function readWholeLines(file: string): string[] {
  const bytes = readFileSync(file)
  return bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1).toString('utf8').split('\n').slice(0, -1)
}

