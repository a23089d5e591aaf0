import type {Batch} from '../domain/change-log.js'
import {storableJson} from '../domain/storable.js'
import type {Store} from '../domain/store.js'
import type {OpenState} from './persist.js'
import type {StateDatabase} from './state-database.js'

interface Pending {
  batch: Batch
  /** The batch's changes as JSON, comma-separated; empty for a commit that only waits. */
  json: string
  /** The group commit (the state file's row) its changes went out in, once they did. */
  row?: number
  resolve(): void
  reject(error: unknown): void
}

/**
 * Saves each batch of store changes to the state file, one row per group commit: the batches made
 * in one turn of the event loop go out together, in one transaction (node:sqlite is synchronous:
 * the requests that arrive while it writes are read in the next turn, and form the next group).
 * A request is answered only once its changes are on disk: the write-ahead log is synced off this
 * thread (StateDatabase.sync), and the groups written meanwhile wait for the next sync, which
 * covers them all. When a write or a sync fails, every batch not yet on disk is taken back out of
 * the store, latest first, its rows out of the file, and its request answered with an error: what
 * was not saved was not done.
 */
export class Journal {
  /** Made, not written yet. */
  private queued: Pending[] = []
  /** Written, waiting for a sync. */
  private written: Pending[] = []
  private flushing: NodeJS.Immediate | undefined
  /** The sync under way. */
  private syncing: Promise<void> | undefined
  /** Set when a failed write may have stayed in the file: nothing more may follow it. */
  private broken: Error | undefined
  /** The rows were folded into the snapshot at start: the first group is batch 1. */
  private nextBatch = 1

  private constructor(
    private readonly store: Store,
    private readonly database: StateDatabase,
  ) {}

  /** Folds the state file's rows into one snapshot of `state.store`, and saves its changes from then on. */
  static start(state: OpenState): Journal {
    state.store.takeBatch()
    state.database.compact(storableJson(state.store.snapshot()))
    state.database.syncHere()
    return new Journal(state.store, state.database)
  }

  /**
   * Saves the store's changes since the last commit. Resolves once they and every change made
   * before them are on disk (with no changes, it waits for those before it: what a read answers
   * is durable too); rejects, with the changes undone, when they could not be saved.
   */
  commit(): Promise<void> {
    const batch = this.store.takeBatch()
    if (this.broken) {
      this.store.revert(batch)
      return Promise.reject(this.broken)
    }
    if (batch.changes.length === 0 && this.queued.length === 0 && this.written.length === 0 && !this.syncing) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.queued.push({batch, json: batch.changes.map((change) => storableJson(change)).join(','), resolve, reject})
      this.flushing ??= setImmediate(() => this.flush())
    })
  }

  /**
   * Saves what is queued and waits for it to be on disk, then folds the rows into one snapshot of
   * the store: which holds only what was saved, so a failed write that stayed in the file goes too.
   */
  async close(): Promise<void> {
    clearImmediate(this.flushing)
    this.flush()
    while (this.syncing) await this.syncing
    this.database.compact(storableJson(this.store.snapshot()))
  }

  /** Writes the queued batches as one group, and has them synced. */
  private flush(): void {
    this.flushing = undefined
    const group = this.queued.splice(0)
    const changes = group.filter((pending) => pending.json !== '').map((pending) => pending.json)
    if (changes.length > 0) {
      const row = this.nextBatch++
      try {
        this.database.append(row, `[${changes.join(',')}]`)
      } catch (error) {
        // The groups written before it stand: they wait for their sync.
        this.undo(group, error, [row])
        return
      }
      for (const pending of group) pending.row = row
    }
    this.written.push(...group)
    this.syncWritten()
  }

  /** Syncs what is written, unless a sync is under way: its end starts the next. */
  private syncWritten(): void {
    if (this.syncing || this.written.length === 0) return
    const group = this.written.splice(0)
    this.syncing = this.database.sync().then(
      () => {
        this.syncing = undefined
        for (const pending of group) pending.resolve()
        this.syncWritten()
      },
      (error: unknown) => {
        this.syncing = undefined
        // What was made after the group was made on top of it: it goes too, written or not.
        clearImmediate(this.flushing)
        this.flushing = undefined
        const undone = [...group, ...this.written.splice(0), ...this.queued.splice(0)]
        this.undo(undone, error, [...new Set(undone.flatMap((pending) => (pending.row === undefined ? [] : [pending.row])))])
      },
    )
  }

  /** Takes the batches of `undone` (oldest first) back out of the store, latest first, and their `rows` out of the file; answers each with `error`. */
  private undo(undone: Pending[], error: unknown, rows: number[]): void {
    for (const pending of [...undone].reverse()) this.store.revert(pending.batch)
    for (const pending of undone) pending.reject(error)
    this.takeBack(rows, error)
  }

  /**
   * A transaction whose COMMIT failed may have reached the file all the same (a sync that failed
   * after the write), and a group whose sync failed did: their rows are taken out again, or, where
   * the file cannot say or be changed, nothing more is written to it.
   */
  private takeBack(rows: number[], error: unknown): void {
    try {
      for (const row of rows) if (this.database.holds(row)) this.database.remove(row)
      this.database.syncHere()
    } catch {
      this.broken = error instanceof Error ? error : new Error(String(error))
    }
  }
}
