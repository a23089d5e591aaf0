import {closeSync, fstatSync, openSync, readSync} from 'node:fs'
import {join} from 'node:path'
import type {DatabaseSync, StatementSync} from 'node:sqlite'
import {gatewayKey} from '../api/base-url.js'
import {fileId} from '../lib/file-identity.js'
import {maskCardNumbersIn} from '../safety/redact.js'
import {keptTarget} from './journal-identity.js'

/**
 * Where an earlier gw kept its record of single refund creates: one JSON line a refund, appended,
 * each line begun with a line break so that a torn one spoiled no other.
 */
export const legacyRefundsMadeFile = (dataDir: string) => join(dataDir, 'refunds-made.ndjson')

/** How much of the file is read at a time, and imported in one transaction: another gw waits for no more than one. */
const CHUNK_BYTES = 1 << 20
const BATCH_BYTES = 8 * CHUNK_BYTES

/**
 * Imports into the record (refunds-made.ts) the lines of an earlier gw's refunds-made.ndjson not
 * imported yet, each once. The database keeps how many of the file's bytes (by its device and
 * inode) it holds, in the same transaction as their rows, some megabytes at a time: a gw killed
 * midway leaves the lines of its last transaction unimported and unmarked, and the next goes on
 * from there; two gw at once each read where to go on from under SQLite's write lock, so they
 * import a part each. An earlier gw still appending lines has them imported by the next look-up.
 * A file put in its place (another inode) is read from its start: a refund already recorded is
 * kept as it was (its row's unique key), so none is counted twice. Only whole lines are read: a
 * torn last one waits for its end. Throws what stops it (an unreadable file, another gw's
 * transaction that did not end in time); what it imported before stays.
 */
export function importRefundsMadeLines(db: DatabaseSync, dataDir: string, insert: StatementSync): void {
  let fd: number
  try {
    fd = openSync(legacyRefundsMadeFile(dataDir), 'r')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
    throw err
  }
  try {
    const file = fileId(fstatSync(fd))
    // Read already at this size: nothing new (a torn last line waits for an earlier gw to end it).
    while (imported(db, file)?.size !== fstatSync(fd).size) {
      // A batch's pages kept in memory until its commit: written once, not spilled to the file midway.
      db.exec('PRAGMA cache_size = -32768')
      db.exec('BEGIN IMMEDIATE')
      try {
        const size = fstatSync(fd).size
        const before = imported(db, file)
        // Shorter than what was imported of it: written again from its start.
        const start = before !== undefined && before.bytes <= size ? before.bytes : 0
        const read = importLines(fd, start, (text) => {
          const row = rowOf(text)
          if (row) insert.run(...row)
        })
        // Read to its end: marked with the size it had, which a later look-up compares.
        db.prepare('INSERT INTO imported_lines (file, bytes, size) VALUES (?, ?, ?) ON CONFLICT (file) DO UPDATE SET bytes = excluded.bytes, size = excluded.size').run(file, read.end, read.ended ? size : -1)
        db.exec('COMMIT')
        if (read.ended) return
      } catch (err) {
        // SQLite has rolled back itself after some failures (a full disk).
        if (db.isTransaction) db.exec('ROLLBACK')
        throw err
      }
    }
  } finally {
    closeSync(fd)
  }
}

/** How much of the file (by its device and inode) is imported: up to `bytes`; `size`, what it had when read to its end (-1 before). */
function imported(db: DatabaseSync, file: string): {bytes: number; size: number} | undefined {
  return db.prepare('SELECT bytes, size FROM imported_lines WHERE file = ?').get(file) as {bytes: number; size: number} | undefined
}

/**
 * Hands each whole line from `start` on to `line`, up to some BATCH_BYTES: where the last whole
 * line handed on ends, and whether the file was read to its end.
 */
function importLines(fd: number, start: number, line: (text: string) => void): {end: number; ended: boolean} {
  const chunk = Buffer.alloc(CHUNK_BYTES)
  let pending = Buffer.alloc(0)
  let at = start
  let end = start
  // A line longer than a batch (no record of gw's) is read through, not begun again and again.
  while (at - start < BATCH_BYTES || end === start) {
    const read = readSync(fd, chunk, 0, CHUNK_BYTES, at)
    if (read === 0) return {end, ended: true}
    at += read
    const text = pending.length === 0 ? chunk.subarray(0, read) : Buffer.concat([pending, chunk.subarray(0, read)])
    const last = text.lastIndexOf(0x0a)
    if (last >= 0) {
      for (const one of text.subarray(0, last).toString('utf8').split('\n')) line(one)
      end = at - (text.length - last - 1)
    }
    // Copied: the chunk is read into again.
    pending = Buffer.from(text.subarray(last + 1))
  }
  return {end, ended: false}
}

/** A line's row (refunds-made.ts INSERT_REFUND_MADE's values); undefined for a line that is no record of gw's (blank, torn, another's). */
function rowOf(text: string): (string | null)[] | undefined {
  if (!text.startsWith('{')) return undefined
  let line: Record<string, unknown>
  try {
    line = JSON.parse(text) as Record<string, unknown>
  } catch {
    return undefined
  }
  const {refund, transaction_id, target} = line
  const {base_url, username} = (target ?? {}) as Record<string, unknown>
  const address = typeof base_url === 'string' && URL.canParse(base_url) ? gatewayKey(base_url) : undefined
  if (typeof refund !== 'string' || typeof transaction_id !== 'string' || typeof username !== 'string' || address === undefined) return undefined
  const maybe = (value: unknown) => (typeof value === 'string' ? maskCardNumbersIn(value) : null)
  // An earlier gw spelled some addresses otherwise (address: journalTarget's one spelling now); it masked card numbers, as they are masked again.
  const kept = keptTarget({base_url: address, username})
  return [refund, kept.base_url, kept.username, typeof line.gateway_instance === 'string' ? line.gateway_instance : null, maybe(line.reference), maskCardNumbersIn(transaction_id), maybe(line.purchase_id), maybe(line.purchase_reference), typeof line.at === 'string' ? line.at : null]
}
