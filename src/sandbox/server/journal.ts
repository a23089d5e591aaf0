import {type FileLock} from '../../lib/file-lock.js'
import {realPath} from '../../lib/file-identity.js'
import type {Batch} from '../domain/change-log.js'
import {storableJson} from '../domain/storable.js'
import type {Store} from '../domain/store.js'
import {type OpenStateFile, type StateFileHandle, openStateFile, writeSnapshot} from './persist.js'

interface Pending {
  batch: Batch
  /** The batch's changes as JSON, comma-separated; empty for a commit that only waits. */
  json: string
  resolve(): void
  reject(error: unknown): void
}

/**
 * Appends each batch of store changes to the state file. Batches that arrive while a write is
 * on its way go out together in the next one, one line and one fdatasync for all (group commit).
 * When a write fails, every batch not yet on disk is taken back out of the store, latest first,
 * and its request answered with an error: what was not saved was not done.
 */
export class Journal {
  private queued: Pending[] = []
  private flushing: Promise<void> | undefined
  /** Set when a failed write could not be cut back off the file: nothing more may follow it. */
  private broken: Error | undefined

  private constructor(
    private readonly path: string,
    private readonly openFile: OpenStateFile,
    private readonly store: Store,
    private readonly file: StateFileHandle,
    private length: number,
    private readonly lock: FileLock | undefined,
  ) {}

  /** Compacts the file into a snapshot of `store` and opens it for appending. */
  static async start(path: string, store: Store, openFile: OpenStateFile = openStateFile, lock?: FileLock): Promise<Journal> {
    store.takeBatch()
    // The real file, named once: each later snapshot replaces it, and never a symlink to it.
    const file = realPath(path)
    const length = await writeSnapshot(file, store.snapshot(), openFile, lock)
    return new Journal(file, openFile, store, await openFile(file, 'r+'), length, lock)
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
    if (batch.changes.length === 0 && this.flushing === undefined) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.queued.push({batch, json: batch.changes.map((change) => storableJson(change)).join(','), resolve, reject})
      this.flushing ??= this.flush()
    })
  }

  /** Waits for what is queued, then folds the journal into a snapshot. */
  async close(): Promise<void> {
    await this.flushing
    await this.file.close()
    if (!this.broken) await writeSnapshot(this.path, this.store.snapshot(), this.openFile, this.lock)
  }

  private async flush(): Promise<void> {
    // Lets commit() record this flush before it runs, and lets the commits of this tick join the group.
    await null
    while (this.queued.length > 0) {
      const group = this.queued.splice(0)
      const changes = group.filter((pending) => pending.json !== '').map((pending) => pending.json)
      // One line per group, so a write cut short leaves one torn last line and no part of a group.
      const data = changes.length === 0 ? undefined : Buffer.from(`{"changes":[${changes.join(',')}]}\n`)
      try {
        if (data) {
          await this.file.write(data, this.length)
          await this.file.sync()
          this.length += data.length
        }
        for (const pending of group) pending.resolve()
      } catch (error) {
        // Later batches were made on top of the failed ones: they go too, latest first.
        const undone = [...group, ...this.queued.splice(0)]
        for (const pending of [...undone].reverse()) this.store.revert(pending.batch)
        for (const pending of undone) pending.reject(error)
        try {
          await this.file.truncate(this.length)
        } catch {
          this.broken = error instanceof Error ? error : new Error(String(error))
        }
      }
    }
    // No await between the last look at the queue and this: a commit after it starts a new flush.
    this.flushing = undefined
  }
}
