import {join} from 'node:path'
import type {ListOrder} from '../api/list-order.js'
import {type JournalTarget, keptTarget} from '../batch/journal-identity.js'
import {type RecordLayout, unwrittenRecord, withRecord, withRecordIfMade} from '../lib/private-database.js'

/**
 * gw's record of the web hooks it made (`gw webhook create`, `gw listen`'s registration) and when,
 * and of the order each gateway was seen to list them in: a SQLite database in gw's data directory.
 * Web hooks carry no dates, so where two hooks gw made stand on a list is what tells the gateway's
 * order (hook-order.ts). Ids, times, the gateway and the merchant only; many gw read and write it
 * at once, each in a short transaction.
 */
export const hooksMadeFile = (dataDir: string) => join(dataDir, 'web-hooks-made.sqlite')

/** When gw asked for a hook and when the gateway's answer came, in ms since 1970: made in between. */
export interface Making {
  sentAt: number
  answeredAt: number
}

/** The layout of the tables below (PRAGMA user_version). */
const VERSION = 1

/**
 * A hook once, by its id, gateway and merchant (as keptTarget keeps them) and the run of the local
 * gateway's data that made it (one reset or restarted gives its ids again); and a gateway's order,
 * once per gateway and merchant, the last seen.
 */
const SCHEMA = `
CREATE TABLE hooks_made (
  hook TEXT NOT NULL,
  base_url TEXT NOT NULL,
  username TEXT NOT NULL,
  gateway_run TEXT,
  sent_at INTEGER NOT NULL,
  answered_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX hooks_made_by_hook ON hooks_made (hook, base_url, username, ifnull(gateway_run, ''));
CREATE TABLE hook_order (
  base_url TEXT NOT NULL,
  username TEXT NOT NULL,
  paged TEXT NOT NULL,
  seen_at TEXT NOT NULL,
  PRIMARY KEY (base_url, username)
);
PRAGMA user_version = ${VERSION};
`

/** The tables above, each commit synced as it ends (FULL). */
const LAYOUT: RecordLayout = {schema: SCHEMA, version: VERSION, synchronous: 'FULL'}

/**
 * Records a hook gw made. Throws WriteError naming the file when it could not be written (a full
 * disk, a file that is no database or of another version, another gw's transaction that did not end).
 */
export function recordHookMade(dataDir: string, target: JournalTarget, made: Making & {id: string; gatewayRun?: string}): void {
  const kept = keptTarget(target)
  try {
    withRecord(hooksMadeFile(dataDir), LAYOUT, (db) =>
      db.prepare('INSERT INTO hooks_made (hook, base_url, username, gateway_run, sent_at, answered_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING').run(made.id, kept.base_url, kept.username, made.gatewayRun ?? null, made.sentAt, made.answeredAt),
    )
  } catch (err) {
    throw unwrittenRecord(hooksMadeFile(dataDir), err)
  }
}

/** Forgets a hook gw removed, so that the record keeps to the hooks that may still be listed. Nothing recorded, or a record that cannot be written: nothing to do. */
export function forgetHook(dataDir: string, target: JournalTarget, id: string): void {
  const kept = keptTarget(target)
  try {
    withRecordIfMade(hooksMadeFile(dataDir), LAYOUT, (db) => db.prepare('DELETE FROM hooks_made WHERE hook = ? AND base_url = ? AND username = ?').run(id, kept.base_url, kept.username))
  } catch {
    // A row left behind names a hook no list shows again: it tells nothing, and costs a few bytes.
  }
}

/**
 * What the record says of a list's hooks (by id) at this gateway and merchant: when gw made those
 * it made in this run of the gateway's data (`gatewayRun`; none from a gateway that names none),
 * and the order the gateway was last seen to list hooks in. A record that cannot be read tells nothing.
 */
export function hookFacts(dataDir: string, target: JournalTarget, ids: readonly string[], gatewayRun: string | undefined): {made: Map<string, Making>; seen?: ListOrder} {
  const made = new Map<string, Making>()
  const kept = keptTarget(target)
  try {
    // Nothing recorded yet: a list makes no file, and finds nothing.
    return (
      withRecordIfMade(hooksMadeFile(dataDir), LAYOUT, (db) => {
        const rows = db
          .prepare('SELECT hook, sent_at, answered_at FROM hooks_made WHERE hook IN (SELECT value FROM json_each(?)) AND base_url = ? AND username = ? AND gateway_run IS ?')
          .all(JSON.stringify(ids), kept.base_url, kept.username, gatewayRun ?? null) as {hook: string; sent_at: number; answered_at: number}[]
        for (const row of rows) made.set(row.hook, {sentAt: row.sent_at, answeredAt: row.answered_at})
        const order = db.prepare('SELECT paged FROM hook_order WHERE base_url = ? AND username = ?').get(kept.base_url, kept.username) as {paged: string} | undefined
        return {made, ...(order?.paged === 'newest' || order?.paged === 'oldest' ? {seen: order.paged} : {})}
      }) ?? {made}
    )
  } catch {
    return {made: new Map()}
  }
}

/** Keeps the order a gateway was seen to list hooks in. A record that cannot be written keeps nothing: the next list sees it again. */
export function keepHookOrder(dataDir: string, target: JournalTarget, paged: ListOrder, now = new Date()): void {
  const kept = keptTarget(target)
  try {
    withRecord(hooksMadeFile(dataDir), LAYOUT, (db) =>
      db.prepare('INSERT INTO hook_order (base_url, username, paged, seen_at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET paged = excluded.paged, seen_at = excluded.seen_at').run(kept.base_url, kept.username, paged, now.toISOString()),
    )
  } catch {
    // Nothing lost but the shortcut: the hooks on the list tell it again.
  }
}
