import {join} from 'node:path'
import type {DatabaseSync} from 'node:sqlite'
import {openRecord, type RecordLayout, unwrittenRecord, withRecord, withRecordIfMade} from '../lib/private-database.js'
import type {MadeFor} from '../lists/refund-match.js'
import {maskCardNumbersIn} from '../safety/redact.js'
import {type JournalTarget, keptTarget} from './journal-identity.js'
import {journaledRefunds} from './journaled-refunds.js'
import type {GwRecord} from '../api/schemas/record.js'

/**
 * gw's record of each refund a single `gw refund create` made (a batch's rows are in its journal),
 * so that `refund list --purchase` and `purchase get` know which purchase it was made for: a
 * SQLite database in gw's data directory, a row a refund, found by the refund's id through an
 * index. Ids, references, amounts, the gateway and the merchant only, card numbers in them masked:
 * never a card or a CVV.
 * Many gw read and write it at once: each in a short transaction, waiting for another's to end.
 */
export const refundsMadeFile = (dataDir: string) => join(dataDir, 'refunds-made.sqlite')

/** What a single refund create learned: the refund the gateway answered, and the purchase it was sent for, as given and as looked up. */
export interface RefundMade {
  refund: GwRecord
  /** The purchase as the request named it (an id or a reference); blank for an unmatched refund, sent with a card alone. */
  transactionId: string
  purchase?: GwRecord
  /** The run of the local gateway's data that answered (X-Sandbox-Instance); none from a gateway that names none. */
  gatewayInstance?: string
}

/** The layout of the tables below (PRAGMA user_version). */
const VERSION = 1

/**
 * A refund once, by its id, gateway and merchant (as keptTarget keeps them: the base URL in
 * journalTarget's one spelling, nothing that reads as a card number whole) and the run of the
 * local gateway's data that made it (a reset one gives its ids again): the index every look-up
 * goes by.
 */
const SCHEMA = `
CREATE TABLE refunds_made (
  refund TEXT NOT NULL,
  base_url TEXT NOT NULL,
  username TEXT NOT NULL,
  gateway_instance TEXT,
  reference TEXT,
  transaction_id TEXT NOT NULL,
  purchase_id TEXT,
  purchase_reference TEXT,
  at TEXT
);
CREATE UNIQUE INDEX refunds_made_by_refund ON refunds_made (refund, base_url, username, ifnull(gateway_instance, ''));
PRAGMA user_version = ${VERSION};
`

/** One refund's row; a refund recorded already is left as it was. */
export const INSERT_REFUND_MADE = `INSERT INTO refunds_made (refund, base_url, username, gateway_instance, reference, transaction_id, purchase_id, purchase_reference, at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`

/** The rows of these refunds (a JSON array of ids) for this gateway and merchant, in the order recorded. */
export const REFUNDS_MADE_QUERY = `SELECT refund, transaction_id, purchase_id, purchase_reference, gateway_instance FROM refunds_made
WHERE refund IN (SELECT value FROM json_each(?)) AND base_url = ? AND username = ? ORDER BY rowid`

/**
 * The tables above, each commit on the disk before it returns: synchronous EXTRA is FULL and, in
 * SQLite's rollback-journal mode, the folder synced once the journal that commits is deleted,
 * without which a power cut could bring the journal back and undo the commit.
 */
const LAYOUT: RecordLayout = {schema: SCHEMA, version: VERSION, synchronous: 'EXTRA'}

/**
 * Opens the record (made, readable by its owner alone in a folder of the owner's alone, with its
 * tables, when there is none); throws LayoutVersionError for one of another version.
 */
export function openRefundsMade(dataDir: string): DatabaseSync {
  return openRecord(refundsMadeFile(dataDir), LAYOUT)
}

/**
 * Records a refund gw made, on the disk before it returns. Two gw at once each keep theirs. Throws
 * WriteError naming the file when it could not be written (a full disk, a folder that cannot be
 * made, a file that is no database, another gw's transaction that did not end in time).
 */
export function recordRefundMade(dataDir: string, target: JournalTarget, made: RefundMade, {now = new Date()}: {now?: Date} = {}): void {
  const {refund, purchase} = made
  const {id} = refund
  if (typeof id !== 'string') return
  const masked = (value: unknown) => (typeof value === 'string' ? maskCardNumbersIn(value) : null)
  const kept = keptTarget(target)
  try {
    withRecord(refundsMadeFile(dataDir), LAYOUT, (db) =>
      db.prepare(INSERT_REFUND_MADE).run(
        id,
        kept.base_url,
        kept.username,
        made.gatewayInstance ?? null,
        masked(refund.reference),
        maskCardNumbersIn(made.transactionId),
        masked(purchase?.id),
        masked(purchase?.reference),
        now.toISOString(),
      ),
    )
  } catch (err) {
    throw unwrittenRecord(refundsMadeFile(dataDir), err)
  }
}

interface RefundRow {
  refund: string
  transaction_id: string
  purchase_id: string | null
  purchase_reference: string | null
  gateway_instance: string | null
}

/**
 * What gw's record of single refund creates says of these refunds (by id), for this gateway and
 * merchant. A record that cannot be opened or read (or is of another version) tells nothing.
 */
function recordedRefunds(dataDir: string, target: JournalTarget, refundIds: ReadonlySet<string>, holds: ((instance: string) => boolean) | undefined): Map<string, MadeFor> {
  const made = new Map<string, MadeFor>()
  if (refundIds.size === 0) return made
  try {
    const kept = keptTarget(target)
    // Nothing recorded yet: the look-up makes no file.
    const rows = withRecordIfMade(refundsMadeFile(dataDir), LAYOUT, (db) => db.prepare(REFUNDS_MADE_QUERY).all(JSON.stringify([...refundIds]), kept.base_url, kept.username) as unknown as RefundRow[]) ?? []
    for (const row of rows) {
      // Another run of the local gateway's data (reset, or restarted without its state) holds other refunds under these ids.
      if (row.gateway_instance !== null && holds !== undefined && !holds(row.gateway_instance)) continue
      made.set(row.refund, {
        transactionId: row.transaction_id,
        ...(row.purchase_id === null ? {} : {purchaseId: row.purchase_id}),
        ...(row.purchase_reference === null ? {} : {purchaseReference: row.purchase_reference}),
        by: 'refund_create',
        // Sent naming no purchase: an unmatched refund.
        ...(row.transaction_id === '' ? {unmatched: true} : {}),
      })
    }
  } catch {
    // A record that cannot be opened or read (no database, a folder in its place) tells nothing.
  }
  return made
}

/**
 * Which purchase gw recorded making each of these refunds (by id) for, for this gateway and
 * merchant: its batch journals' rows and its single refund creates.
 */
export async function refundsMade(dataDir: string, target: JournalTarget, refundIds: ReadonlySet<string>, holds?: (instance: string) => boolean): Promise<Map<string, MadeFor>> {
  const journaled = await journaledRefunds(dataDir, target, refundIds)
  return new Map([...journaled, ...recordedRefunds(dataDir, target, refundIds, holds)])
}
