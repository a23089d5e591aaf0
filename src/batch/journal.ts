import {fdatasync, ftruncateSync, writeSync} from 'node:fs'
import {mkdir, open, readFile, type FileHandle} from 'node:fs/promises'
import {dirname, resolve} from 'node:path'
import {promisify} from 'node:util'
import {UsageError, WriteError} from '../errors.js'
import {type FileLock, HardLinkedError, takeLock} from '../lib/file-lock.js'
import {realPath} from '../lib/file-identity.js'
import {LockHeldError} from '../lib/lock-file.js'
import {type Header, type Intent, notAJournal, readEntries, type Result, type Withdrawal} from './journal-entries.js'
import {type JournalInput, type JournalTarget, journalTarget, unreadable} from './journal-identity.js'
import {standingOf} from './journal-state.js'

// The summary (output/batch.ts) names a journal's state by this module.
export type {JournalState} from './journal-state.js'
export {defaultJournalPath, inputHash, type JournalInput, type JournalTarget, journalTarget, lockSameBatch, rowChanges} from './journal-identity.js'

/** What a journal does with the disk, so that a test can fail one of them as a full or broken disk would. */
export interface JournalDisk {
  /** Reads the whole file; rejects with ENOENT when there is none. */
  read(path: string): Promise<Buffer>
  /** Writes from the start of `data`; returns how many bytes went (fewer on a full disk), or throws. */
  write(fd: number, data: Uint8Array): number
  datasync(fd: number): Promise<void>
}

const realDisk: JournalDisk = {read: (path) => readFile(path), write: (fd, data) => writeSync(fd, data), datasync: promisify(fdatasync)}

/** What a journal is opened for: this batch's command, input and gateway, and (to keep only theirs) the input's references. */
export interface JournalOptions {
  command: string
  input: JournalInput
  now: Date
  target: JournalTarget
  /** The references of the input's valid rows: the journal's entries for others (an edited input's removed rows) are not kept. */
  references?: {has(reference: string): boolean}
  /** In place of the real disk's, for a test to fail them. */
  disk?: Partial<JournalDisk>
}

/**
 * A batch's journal (design.md §5): an append-only NDJSON file, intent before a row is sent and
 * result after, each durable (fdatasync) before the send or the report it precedes. Writes that
 * arrive while one is being synced wait and go together in the next write and sync (group
 * commit), so N rows in flight cost about one sync, not N. A write that fails, or goes only
 * part-way, is cut back off the file and fails every entry in it: an entry counts only once its
 * whole line is synced. A line torn by a crash (kill -9) is the last one, never synced, and is cut
 * off when the journal is opened again. Only the earlier runs' entries are kept in memory.
 */
export class Journal {
  /** The earlier runs' intents and results, by reference: what a resumed run looks up or reports. */
  readonly intents = new Map<string, Intent>()
  readonly results = new Map<string, Result>()
  /** The earlier runs' rows in doubt whose references the input no longer has (edited since): nothing of this run looks them up. */
  readonly inDoubtElsewhere: Intent[] = []
  private pending: string[] = []
  private waiting: {resolve: () => void; reject: (err: unknown) => void}[] = []
  private flushing?: Promise<void>

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    /** Whether this run found an earlier one's journal. */
    readonly resumed: boolean,
    private readonly lock: FileLock,
    private readonly disk: JournalDisk,
    /** Bytes on disk that are whole, synced lines: where a failed write is cut back to. */
    private length: number,
    /** The input file this journal was begun for, when this run's input is the same rows at another path. */
    readonly movedFrom?: string,
    /** Whether this run's input holds the rows the journal was begun for, not an edit of them (Entries.sameRows). */
    readonly sameRows = true,
  ) {}

  /**
   * Opens the journal at `path` (the real file: a symlink to it is it) under its lock, for this
   * command, input and gateway, or makes it. An earlier run's journal is read first, and refused
   * (nothing sent, the file left as it is) when it cannot be read or is another batch's.
   */
  static async open(path: string, options: JournalOptions): Promise<Journal> {
    const {command, input, now, references} = options
    const disk = {...realDisk, ...options.disk}
    const target = journalTarget(options.target.base_url, options.target.username)
    let file: string
    try {
      file = realPath(path)
      await mkdir(dirname(file), {recursive: true, mode: 0o700})
    } catch (err) {
      throw journalError(path, err)
    }
    const lock = lockOf(path, file)
    try {
      const bytes = await disk.read(file).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? Buffer.alloc(0) : Promise.reject(unreadable(path, err))))
      // Only whole lines count: a line torn by a crash was never synced, so nothing was sent after it.
      const length = bytes.lastIndexOf(0x0a) + 1
      const whole = bytes.subarray(0, length).toString('utf8')
      // Checked before the file is touched: --journal may name a file that is no journal at all.
      const entries = length === 0 ? undefined : readEntries(path, whole, {command, input, target})
      if (!entries && bytes.length > 0 && !bytes.toString('utf8').startsWith('{"journal":')) throw notAJournal(path)
      const handle = await open(file, 'a', 0o600)
      const journal = new Journal(path, handle, entries !== undefined, lock, disk, length, entries?.movedFrom, entries?.sameRows)
      try {
        await handle.truncate(length)
        if (entries) {
          for (const [reference, intent] of entries.intents) {
            const result = entries.results.get(reference)
            if (!references || references.has(reference)) journal.intents.set(reference, intent)
            else if (standingOf(intent, result) === 'inDoubt') journal.inDoubtElsewhere.push(intent)
          }
          for (const [reference, result] of entries.results) if (!references || references.has(reference)) journal.results.set(reference, result)
        } else {
          // JSON leaves `input` out for stdin, which has no path.
          const header: Header = {journal: 1, command, input: input.path, input_sha256: input.sha256, target, created_at: now.toISOString()}
          await journal.append(header)
          // The new file's name must survive a crash as well as its lines.
          await syncDirectory(dirname(file))
        }
      } catch (err) {
        await handle.close()
        throw err
      }
      return journal
    } catch (err) {
      lock.release()
      throw journalError(path, err)
    }
  }

  /** Resolves once the intent is on disk: only then may the row be sent. */
  intent(entry: Intent): Promise<void> {
    // A take-over by another gw (its stale-lock check raced ours) must not have two runs sending.
    if (!this.lock.held()) return Promise.reject(new UsageError(`The lock of journal ${this.path} is no longer this gw's: nothing more is sent`, 'Another gw took the batch over; let it finish, then run this again.'))
    return this.append(entry)
  }

  /** Resolves once the withdrawal is on disk: until then the row counts as in doubt. */
  withdraw(reference: string): Promise<void> {
    return this.append({withdrawn: reference} satisfies Withdrawal)
  }

  /** Resolves once the result is on disk: only then is the row reported. */
  result(entry: Result): Promise<void> {
    return this.append(entry)
  }

  async close(): Promise<void> {
    try {
      await this.flushing
      await this.handle.close()
    } finally {
      this.lock.release()
    }
  }

  private append(entry: object): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push(JSON.stringify(entry) + '\n')
      this.waiting.push({resolve, reject})
      this.flushing ??= this.flush()
    })
  }

  private async flush(): Promise<void> {
    // Lets append() record this flush before it runs: one that ended before its caller stored it
    // would be stored finished, and every later entry would wait for a flush that never comes.
    await null
    while (this.pending.length > 0) {
      const data = Buffer.from(this.pending.join(''))
      const waiting = this.waiting
      this.pending = []
      this.waiting = []
      try {
        // One write of the whole group (a page-cache copy, done at once; measured: the promise
        // API's appendFile cost more CPU than the rest of a row), then the sync off the main thread.
        for (let written = 0; written < data.length; ) {
          const wrote = this.disk.write(this.handle.fd, data.subarray(written))
          if (!(wrote > 0)) throw Object.assign(new Error('no byte could be written'), {code: 'EIO'})
          written += wrote
        }
        await this.disk.datasync(this.handle.fd)
        this.length += data.length
        for (const waiter of waiting) waiter.resolve()
      } catch (err) {
        const failure = journalError(this.path, err)
        try {
          // What part of the group reached the file is cut off: no half line may count as written.
          ftruncateSync(this.handle.fd, this.length)
        } catch {
          // The next write would follow the torn part; it fails the same way, never counted either.
        }
        for (const waiter of waiting) waiter.reject(failure)
      }
    }
    this.flushing = undefined
  }
}

/**
 * One gw at a time per journal: two runs of one batch would each send the rows the other has not
 * journaled yet. The lock (file-lock.ts) is the real file's, so a symlink to a journal in use is
 * refused as the journal itself is, and holds the owner's pid; a dead owner's is taken over.
 */
function lockOf(path: string, file: string): FileLock {
  const same = file === resolve(path) ? '' : ` (the same file as ${file})`
  try {
    return takeLock(file, {create: true})
  } catch (err) {
    if (err instanceof HardLinkedError) {
      throw new UsageError(
        `The batch journal ${path} has ${err.links} names (hard links): a lock beside one name is not seen from another, so two batches could run on it at once: nothing was sent`,
        'Give --journal a file with one name: remove its other names, or copy it (cp) and give the copy.',
      )
    }
    if (!(err instanceof LockHeldError)) throw journalError(path, err)
    if (err.pid === process.pid) throw new UsageError(`The batch journal ${path}${same} is already open in this gw: nothing was sent`)
    if (err.pid !== undefined) {
      throw new UsageError(`Another gw (pid ${err.pid}) is running the batch of journal ${path}${same}: nothing was sent`, `Wait for it to finish, or stop it; then run this again to resume. If no gw is running this batch (the pid was reused), remove ${err.lockPath}.`)
    }
    throw new UsageError(`The batch journal ${path}${same} is being taken by another gw: nothing was sent`, 'Run it again in a moment.')
  }
}

async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r')
  // Some file systems cannot sync a directory; the file's own syncs still hold its lines.
  await directory.sync().catch(() => {})
  await directory.close()
}

/** Why the journal cannot be written, naming it: the batch stops, and says which rows were sent (exit 1). */
export class JournalError extends WriteError {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException)?.code
    const message = cause instanceof Error ? cause.message : String(cause)
    super(`The batch journal ${path} cannot be written (${code ?? message}): no more rows are sent`, cause, {
      hint: 'Free space or fix permissions there, or give another --journal FILE, then run the same command again: it finishes the batch, sending only what was not sent.',
    })
  }
}

function journalError(path: string, err: unknown): Error {
  if (err instanceof UsageError || err instanceof JournalError) return err
  return new JournalError(path, err)
}
