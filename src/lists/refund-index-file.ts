import {join} from 'node:path'
import type {DatabaseSync, StatementSync} from 'node:sqlite'
import {type JournalTarget, keptTarget} from '../batch/journal-identity.js'
import {LayoutVersionError, openRecord} from '../lib/private-database.js'
import {jsonAtRest} from '../safety/at-rest.js'
import {maskCardNumbersIn} from '../safety/redact.js'
import {recordInstant} from './window.js'
import type {GwRecord} from '../api/schemas/record.js'

/**
 * gw's index of a merchant's refunds (design.md §5, costs that do not grow with history): the
 * gateway's refund records as its lists gave them, so that what a refund must know of its
 * purchase is read here, not from a walk of every refund since it. A cache: every record is the
 * gateway's, never gw's word on what a refund is of (that is gw's record of refunds made and its
 * journals); a file deleted, copied or restored costs one walk, and a walk puts right what it holds.
 * A SQLite database in gw's data directory, readable by its owner alone; card numbers masked.
 */
export const refundIndexFile = (dataDir: string) => join(dataDir, 'refund-index.sqlite')

/** The layout of the tables below (PRAGMA user_version). */
const VERSION = 1

/**
 * A refund once a scope (a gateway, merchant and run of a local gateway's data), found by its card
 * (last four digits and holder) and time, or by its reference; `rank` keeps the gateway's order
 * among refunds of the same second (higher: listed first, newer). `walked`: the span of the list read
 * whole: every refund made from `covered_from` to `newest` (epoch ms, the records' own dates) is held.
 * `purchases_named`: other purchases looked up by the reference a refund's derives from, kept
 * as the gateway answered (null: none had it when asked, which holds for refunds made before `before`).
 */
const SCHEMA = `
CREATE TABLE refunds (scope TEXT NOT NULL, id TEXT NOT NULL, card TEXT NOT NULL, at INTEGER, rank INTEGER NOT NULL, reference TEXT, record TEXT NOT NULL, PRIMARY KEY (scope, id)) WITHOUT ROWID;
CREATE INDEX refunds_on_card ON refunds (scope, card, at, rank);
CREATE INDEX refunds_by_reference ON refunds (scope, reference);
CREATE INDEX refunds_by_rank ON refunds (scope, rank);
CREATE TABLE walked (scope TEXT PRIMARY KEY, covered_from INTEGER NOT NULL, newest INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE purchases_named (scope TEXT NOT NULL, reference TEXT NOT NULL, record TEXT, before INTEGER NOT NULL, PRIMARY KEY (scope, reference)) WITHOUT ROWID;
PRAGMA user_version = ${VERSION};
`

/** The span of the refunds list an index holds whole. */
export interface Walked {
  coveredFrom: number
  newest: number
}

/** Another purchase as the gateway had it under a reference, or none (null) for refunds made before `before`. */
export interface NamedPurchase {
  record: GwRecord | null
  before: number
}

/** The card a refund is found by: its last four digits and its holder, in any case; the matcher holds it to the rest (lists/filters.ts). */
export function indexCard(record: GwRecord): string {
  const digits = typeof record.card_number === 'string' || typeof record.card_number === 'number' ? String(record.card_number).replace(/[\s-]/g, '') : ''
  return `${digits.slice(-4)}\n${String(record.card_holder ?? '').toLowerCase()}`
}

/**
 * The index of one scope: opened for one command, closed by it. Each write is a transaction of
 * its own; readers see a page whole or not at all.
 */
export class RefundIndexFile {
  private readonly statements = new Map<string, StatementSync>()

  private constructor(
    private readonly db: DatabaseSync,
    private readonly scope: string,
  ) {}

  /**
   * Opens the index (made, readable by its owner alone in a folder of the owner's alone, when
   * there is none) for a gateway and merchant, as gw's record of refunds made keeps them (keptTarget),
   * and the run of a local gateway's data (`instance`; none for a gateway that names none).
   */
  static open(dataDir: string, target: JournalTarget, instance: string | undefined): RefundIndexFile {
    let db: DatabaseSync
    try {
      // A cache: a commit lost to a power cut costs a walk, never a wrong answer (each page and its span commit together).
      db = openRecord(refundIndexFile(dataDir), {schema: SCHEMA, version: VERSION, synchronous: 'NORMAL'})
    } catch (err) {
      // A cache: one of another version costs a walk once it is gone.
      if (err instanceof LayoutVersionError) throw new Error(`${err.path} is of version ${err.found}, and this gw reads version ${err.known} only: remove it, and gw makes it again`, {cause: err})
      throw err
    }
    const kept = keptTarget(target)
    const index = new RefundIndexFile(db, JSON.stringify([kept.base_url, kept.username, instance ?? null]))
    if (instance !== undefined && !index.walked()) index.forgetOtherRuns(JSON.stringify([kept.base_url, kept.username]).slice(0, -1) + ',')
    return index
  }

  /** A local gateway's earlier runs of its data (reset, restarted without its file) hold other refunds under these ids: their copies go. */
  private forgetOtherRuns(target: string): void {
    this.transaction(() => {
      for (const table of ['refunds', 'walked', 'purchases_named']) this.db.prepare(`DELETE FROM ${table} WHERE substr(scope, 1, length(?)) = ? AND scope <> ?`).run(target, target, this.scope)
    })
  }

  close(): void {
    this.db.close()
  }

  /** The span held whole; none before the first walk. */
  walked(): Walked | undefined {
    const row = this.statement('SELECT covered_from, newest FROM walked WHERE scope = ?').get(this.scope) as {covered_from: number; newest: number} | undefined
    return row && {coveredFrom: row.covered_from, newest: row.newest}
  }

  /** The highest and lowest rank held: a walk of newer refunds ranks them above, of older ones below. */
  ranks(): {top: number; bottom: number} | undefined {
    const row = this.statement('SELECT max(rank) AS top, min(rank) AS bottom FROM refunds WHERE scope = ?').get(this.scope) as {top: number | null; bottom: number | null}
    return row.top === null || row.bottom === null ? undefined : {top: row.top, bottom: row.bottom}
  }

  /**
   * Keeps a page of the list, newest first, ranked down from `rank`, and with it (`walked`) the
   * span now held whole, in one transaction: a walk stopped between pages keeps what it read. A
   * record held already is replaced (voided since, say), keeping its rank.
   */
  keep(records: readonly GwRecord[], walked?: Walked, rank = 0): void {
    const put = this.statement('INSERT INTO refunds (scope, id, card, at, rank, reference, record) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET card = excluded.card, at = excluded.at, reference = excluded.reference, record = excluded.record')
    this.transaction(() => {
      for (const [index, record] of records.entries()) {
        if (typeof record.id !== 'string') continue
        const reference = typeof record.reference === 'string' ? maskCardNumbersIn(record.reference) : null
        put.run(this.scope, record.id, indexCard(record), recordInstant(record.transaction_date) ?? null, rank - index, reference, jsonAtRest(record))
      }
      if (walked) this.statement('INSERT INTO walked (scope, covered_from, newest) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET covered_from = excluded.covered_from, newest = excluded.newest').run(this.scope, walked.coveredFrom, walked.newest)
    })
  }

  /** Keeps the span held whole, when a walk's end proves it with no page of its own. */
  cover(walked: Walked): void {
    this.keep([], walked)
  }

  /** The refunds on a card (indexCard) made at `since` or after, newest first, as the gateway lists them. */
  onCard(card: string, since: number): GwRecord[] {
    const rows = this.statement('SELECT record FROM refunds WHERE scope = ? AND card = ? AND at >= ? ORDER BY at DESC, rank DESC').all(this.scope, card, since) as {record: string}[]
    return rows.map(({record}) => JSON.parse(record) as GwRecord)
  }

  /** The refunds held under a reference, whenever made. */
  byReference(reference: string): GwRecord[] {
    const rows = this.statement('SELECT record FROM refunds WHERE scope = ? AND reference = ?').all(this.scope, reference) as {record: string}[]
    return rows.map(({record}) => JSON.parse(record) as GwRecord)
  }

  /** Which of these references the index holds a refund under: a batch's rows asked at once, not one query a row. */
  heldReferences(references: readonly string[]): string[] {
    if (references.length === 0) return []
    const rows = this.statement('SELECT DISTINCT reference FROM refunds WHERE scope = ? AND reference IN (SELECT value FROM json_each(?))').all(this.scope, JSON.stringify(references)) as {reference: string}[]
    return rows.map(({reference}) => reference)
  }

  /** What was learned of the purchase under each reference asked about earlier. */
  namedPurchases(references: readonly string[]): Map<string, NamedPurchase> {
    const found = new Map<string, NamedPurchase>()
    if (references.length === 0) return found
    const rows = this.statement('SELECT reference, record, before FROM purchases_named WHERE scope = ? AND reference IN (SELECT value FROM json_each(?))').all(this.scope, JSON.stringify(references)) as {reference: string; record: string | null; before: number}[]
    for (const row of rows) found.set(row.reference, {record: row.record === null ? null : (JSON.parse(row.record) as GwRecord), before: row.before})
    return found
  }

  /** Keeps what the gateway answered for each reference asked about (a reference that holds a card number is not kept: it masks). */
  keepNamedPurchases(named: ReadonlyMap<string, NamedPurchase>): void {
    const put = this.statement('INSERT INTO purchases_named (scope, reference, record, before) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET record = excluded.record, before = excluded.before')
    this.transaction(() => {
      for (const [reference, {record, before}] of named) if (maskCardNumbersIn(reference) === reference) put.run(this.scope, reference, record === null ? null : jsonAtRest(record), before)
    })
  }

  private transaction(work: () => void): void {
    this.db.exec('BEGIN IMMEDIATE')
    try {
      work()
      this.db.exec('COMMIT')
    } catch (err) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK')
      throw err
    }
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql)
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)))
    return statement
  }
}
