import type {Batch} from '../domain/change-log.js'
import {storableJson, storableSnapshot} from '../domain/storable.js'
import type {Store} from '../domain/store.js'
import type {OpenState} from './persist.js'
import type {StateDatabase} from './state-database.js'
import {reasonOf, UnsavedChangeError} from './state-file-error.js'

interface Pending {
  batch: Batch
  /** The batch's changes as JSON, comma-separated; empty for a commit that only waits. */
  json: string
  resolve(): void
  reject(error: unknown): void
}

/**
 * Saves each batch of store changes to the state file, one row per group commit: the batches made
 * in one turn of the event loop go out together, in one transaction (node:sqlite is synchronous:
 * the requests that arrive while it writes are read in the next turn, and form the next group).
 * A request is answered only once its changes are on disk. When a write fails, every batch of its
 * group is taken back out of the store, latest first, and out of the file where it can be
 * (StateDatabase.append), and its request answered with an error that says whether the file is
 * known to hold none of it.
 */
export class Journal {
  private queued: Pending[] = []
  private flushing: NodeJS.Immediate | undefined
  /** Set when a failed write may have stayed in the file: nothing more may follow it. */
  private broken: UnsavedChangeError | undefined
  /** The rows were folded into the snapshot at start: the first group is batch 1. */
  private nextBatch = 1

  private constructor(
    private readonly store: Store,
    private readonly database: StateDatabase,
  ) {}

  /** Folds the state file's rows into one snapshot of `state.store`, and saves its changes from then on. */
  static start(state: OpenState): Journal {
    state.store.takeBatch()
    state.database.compact(storableSnapshot(state.store.snapshot()))
    return new Journal(state.store, state.database)
  }

  /**
   * Saves the store's changes since the last commit. Resolves once they and every change made
   * before them are on disk (with no changes, it waits for those before it: what a read answers
   * is durable too); rejects with an UnsavedChangeError, the changes taken back out of the store,
   * when they could not be saved.
   */
  commit(): Promise<void> {
    const batch = this.store.takeBatch()
    if (this.broken) {
      this.store.revert(batch)
      return Promise.reject(new UnsavedChangeError(this.broken.reason, false, true))
    }
    if (batch.changes.length === 0 && this.queued.length === 0) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.queued.push({batch, json: batch.changes.map((change) => storableJson(change)).join(','), resolve, reject})
      this.flushing ??= setImmediate(() => this.flush())
    })
  }

  /**
   * Saves what is queued, then folds the rows into one snapshot of the store: which holds only
   * what was saved, so a failed write that stayed in the file goes too.
   */
  close(): void {
    clearImmediate(this.flushing)
    this.flush()
    this.database.compact(storableSnapshot(this.store.snapshot()))
  }

  private flush(): void {
    this.flushing = undefined
    const group = this.queued.splice(0)
    const changes = group.filter((pending) => pending.json !== '').map((pending) => pending.json)
    if (changes.length === 0) return group.forEach((pending) => pending.resolve())
    const batch = this.nextBatch++
    try {
      this.database.append(batch, `[${changes.join(',')}]`)
    } catch (error) {
      // Later batches were made on top of earlier ones: taken back latest first.
      for (const pending of [...group].reverse()) this.store.revert(pending.batch)
      const unsaved = error instanceof UnsavedChangeError ? error : new UnsavedChangeError(reasonOf(error), false)
      // The file may hold what the store no longer does: a restart would bring it back, and nothing written after can say otherwise.
      if (!unsaved.undone) this.broken = unsaved
      for (const pending of group) pending.reject(unsaved)
      return
    }
    for (const pending of group) pending.resolve()
  }
}
