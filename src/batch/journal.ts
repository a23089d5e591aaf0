import {mkdir} from 'node:fs/promises'
import {dirname, resolve} from 'node:path'
import {UsageError, WriteError} from '../errors.js'
import {realPath} from '../lib/file-identity.js'
import {checkOwnPath} from '../lib/own-file.js'
import {syncDirectory} from '../lib/sync-directory.js'
import {letteredHex} from '../safety/at-rest.js'
import {type JournalFile, JournalFileError, openJournalFile} from './journal-file.js'
import {openJournalInWorker} from './journal-thread.js'
import {type JournalWorker, startJournalWorker} from './journal-worker.js'
import {batchName, newBatchName} from './batch-name.js'
import {type Header, type Intent, notAJournal, readEntries, type Result, type Withdrawal} from './journal-entries.js'
import {type JournalInput, type JournalTarget, journalTarget, parseEntry, unreadable, writtenTarget} from './journal-identity.js'
import {entryKey, headerLine, journalLine, keyOf} from './journal-names.js'
import {isFinal, standingOf} from './journal-state.js'
import {JournalPlace, JournalReplacedError} from './journal-place.js'
import type {Platform} from '../lib/platform.js'

// The summary (output/batch.ts) names a journal's state by this module.
export type {JournalState} from './journal-state.js'
export {defaultJournalPath, inputHash, type JournalInput, type JournalTarget, journalTarget, lockSameBatch, rowChanges} from './journal-identity.js'
export {JournalReplacedError} from './journal-place.js'

/** What a journal does with the disk, so that a test can fail one of them as a full or broken disk would. */
export interface JournalDisk {
  /** The journal's entries so far, in order; rejects when they cannot be read. */
  read(file: JournalFile): Promise<string[]>
  /** Writes the entries in one transaction, durable when it returns (or its promise resolves); throws or rejects, leaving none of them, when it cannot. */
  append(file: JournalFile, lines: readonly string[]): void | Promise<void>
}

const realDisk: JournalDisk = {read: async (file) => file.lines(), append: (file, lines) => file.append(lines)}

/** What a journal is opened for: this batch's command, input and gateway, and (to keep only theirs) the input's references. */
export interface JournalOptions {
  command: string
  input: JournalInput
  now: Date
  target: JournalTarget
  /**
   * The references of the input's valid rows: the journal's entries for others (an edited input's
   * removed rows) are not kept; those the journal holds masked are found by them (journal-names.ts).
   */
  references?: {has(reference: string): boolean; keys(): Iterable<string>}
  /** In place of the real disk's, for a test to fail them. */
  disk?: Partial<JournalDisk>
  /** --new-batch: a new journal begins a batch of its own name (batch-name.ts), though an earlier batch had its rows; an earlier run's journal of it is resumed. */
  newBatch?: boolean
  /**
   * `this`: the journal's connection is on the caller's thread (openJournalFile), whose commits
   * stop it while they sync. Otherwise on a worker thread of its own (journal-worker.ts), its
   * commits syncing while this thread reads answers: the one given, started ahead so that it
   * loads while the input is read, or one started now.
   */
  thread?: 'this' | JournalWorker
  /** How the journal's path is checked to still name its file (journal-place.ts): the host's, or a test's. */
  platform?: Pick<Platform, 'fileAt'>
}

/**
 * A batch's journal (design.md §5): its entries in a SQLite file held under the kernel's lock
 * (journal-file.ts), intent before a row is sent and result after, each committed (synchronous
 * FULL) before the send or the report it precedes. Entries that arrive in one turn of the event
 * loop go together in one commit (group commit), so N rows in flight cost about one commit, not N;
 * commits run one at a time, on the journal's worker thread (the entries that arrive meanwhile
 * making the next group) or, for a batch whose rows all go out at once, on this one.
 * A commit that fails fails every entry in it and leaves none of them: an entry counts only once
 * committed. Only the earlier runs' entries are kept in memory.
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
  /** Settles once every entry given so far is written, or has failed. */
  private written: Promise<void> = Promise.resolve()
  /** Answers given to result() and not yet written (or failed). */
  private unwrittenResults = 0
  /** Final answers this run wrote: with the earlier runs', what a replaced journal had recorded. */
  private answeredHere = 0
  /** Set once the path names another file, or none: nothing more is written (journal-place.ts). */
  private replaced?: JournalReplacedError

  private constructor(
    readonly path: string,
    private readonly file: JournalFile,
    /** Whether this run found an earlier one's journal. */
    readonly resumed: boolean,
    private readonly disk: JournalDisk,
    /** The key of the keyed hashes its lines keep of references that hold a card number (journal-names.ts). */
    private readonly secret: string,
    /** The input file this journal was begun for, when this run's input is the same rows at another path. */
    readonly movedFrom: string | undefined,
    /** Whether this run's input holds the rows the journal was begun for, not an edit of them (Entries.sameRows). */
    readonly sameRows: boolean,
    /** The batch's name at the gateway (batch-name.ts): what its refunds carry, and are known by, from any copy of this journal. */
    readonly batch: string,
    /** Its path, and the file it named when opened. */
    private readonly place: JournalPlace,
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
    let real: string
    try {
      real = realPath(path)
      await mkdir(dirname(real), {recursive: true, mode: 0o700})
    } catch (err) {
      throw journalError(path, err, {opening: true})
    }
    // Another user's journal, or a link or folder of theirs on the way to it, is never adopted (lib/own-file.ts).
    checkOwnPath(path)
    const file = await openFile(path, real, options.thread)
    try {
      const lines = await disk.read(file).catch((err: NodeJS.ErrnoException) => Promise.reject(unreadable(path, err)))
      const entries = lines.length === 0 ? undefined : readEntries(path, lines.join('\n') + '\n', {command, input, target, references})
      if (options.newBatch && entries && !entries.begunAnew) {
        throw new UsageError(`--new-batch begins a batch in a journal of its own, and ${path} holds a batch begun for these rows without it: nothing was sent`, 'Give --journal a new file to begin the new batch in; run the same command again to finish it.')
      }
      const batch = entries?.batch ?? (options.newBatch ? newBatchName() : batchName(command, input.sha256))
      // JSON leaves `input` out for stdin, which has no path.
      const header = headerLine({journal: 1, command, input: input.path, input_sha256: letteredHex(input.sha256), target: writtenTarget(target), created_at: now.toISOString(), ...(options.newBatch ? {batch} : {})} satisfies Header)
      const place = JournalPlace.of(path, lines[0] ?? header.line, options.platform)
      const journal = new Journal(path, file, entries !== undefined, disk, entries?.secret ?? header.secret, entries?.movedFrom, entries?.sameRows ?? true, batch, place)
      if (entries) {
        for (const [reference, intent] of entries.intents) {
          const result = entries.results.get(reference)
          if (!references || references.has(reference)) journal.intents.set(reference, intent)
          else if (standingOf(intent, result) === 'inDoubt') journal.inDoubtElsewhere.push(intent)
        }
        for (const [reference, result] of entries.results) if (!references || references.has(reference)) journal.results.set(reference, result)
      } else {
        // Written as the journal opens, before any row: a failure of it is the opening's (nothing was sent).
        await disk.append(file, [header.line])
        // The new file's name must survive a crash as well as its entries.
        syncDirectory(dirname(real))
      }
      return journal
    } catch (err) {
      await file.close()
      throw journalError(path, err, {opening: true})
    }
  }

  /** Resolves once the intent is on disk: only then may the row be sent. */
  intent(entry: Intent): Promise<void> {
    return this.append(entry)
  }

  /** Resolves once the withdrawal is on disk: until then the row counts as in doubt. */
  withdraw(reference: string): Promise<void> {
    return this.append({withdrawn: reference} satisfies Withdrawal)
  }

  /** Resolves once the result is on disk: only then is the row reported. */
  result(entry: Result): Promise<void> {
    this.unwrittenResults++
    const written = this.append(entry)
    void this.written.then(() => this.unwrittenResults--)
    if (isFinal(entry)) written.then(() => this.answeredHere++, () => {})
    return written
  }

  /**
   * Whether the file holds the row's intent now, not withdrawn (an earlier run's or this one's):
   * read back after a write whose failure leaves that untold (a commit may reach the disk all the
   * same). True when the file cannot be read either.
   */
  async holds(reference: string): Promise<boolean> {
    let lines: string[]
    try {
      lines = await this.disk.read(this.file)
    } catch {
      return true
    }
    let held = false
    // As the file names the row: its reference, or for one that holds a card number its keyed hash (journal-names.ts).
    const key = keyOf(reference, this.secret)
    const named = key.inLine
    for (const line of lines.filter((each) => each.includes(named))) {
      const entry = parseEntry(line) as Record<string, unknown> | undefined
      if (typeof entry?.intent === 'string' && entryKey(entry, entry.intent) === key.entry) held = true
      if (typeof entry?.withdrawn === 'string' && entryKey(entry, entry.withdrawn) === key.entry) held = false
    }
    return held
  }

  async close(): Promise<void> {
    try {
      await this.flushing
    } finally {
      await this.file.close()
    }
  }

  /**
   * Resolves once fewer than `limit` answers given to result() wait to be on disk (each commit
   * runs on the journal's thread while answers keep coming): what a row waits for before it is
   * sent, so that a crash finds at most `limit - 1` answered rows unjournaled beside those in
   * flight, and none with one slot, as when each commit held up the main thread. An answer that
   * came in this turn of the event loop is given in it: so this waits out the turn first.
   */
  async caughtUp(limit: number): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    while (this.unwrittenResults >= limit) await this.written
  }

  private append(entry: object): Promise<void> {
    const written = new Promise<void>((resolve, reject) => {
      // As the file keeps it: card numbers masked, CVVs left out (journal-names.ts).
      this.pending.push(journalLine(entry, this.secret))
      this.waiting.push({resolve, reject})
      this.flushing ??= this.flush()
    })
    this.written = written.catch(() => {})
    return written
  }

  private async flush(): Promise<void> {
    // Waits out this turn of the event loop: the answers that came in it are committed together.
    // While a group commits (on the journal's worker), the entries that come meanwhile make the next.
    await new Promise((resolve) => setImmediate(resolve))
    while (this.pending.length > 0) {
      const lines = this.pending
      const waiting = this.waiting
      this.pending = []
      this.waiting = []
      try {
        if (this.replaced) throw this.replaced
        await this.disk.append(this.file, lines)
        // Checked once the group is in: one that went into a file no longer at the path counts as not written.
        const now = this.place.replacedBy()
        if (now !== undefined) {
          const answered = [...this.results.values()].filter(isFinal).length + this.answeredHere
          throw (this.replaced = new JournalReplacedError(this.path, now, answered))
        }
        for (const waiter of waiting) waiter.resolve()
      } catch (err) {
        const failure = journalError(this.path, err)
        for (const waiter of waiting) waiter.reject(failure)
      }
    }
    this.flushing = undefined
  }
}

/**
 * One gw at a time per journal: two runs of one batch would each send the rows the other has not
 * journaled yet. The lock is the kernel's on the file itself (journal-file.ts): a symlink, a bind
 * mount, a new name after a rename or another TMPDIR finds it held, and it ends with its process.
 */
async function openFile(path: string, file: string, thread: 'this' | JournalWorker | undefined): Promise<JournalFile> {
  const same = file === resolve(path) ? '' : ` (the same file as ${file})`
  try {
    return thread === 'this' ? openJournalFile(file) : await openJournalInWorker(file, thread ?? startJournalWorker())
  } catch (err) {
    if (!(err instanceof JournalFileError)) throw journalError(path, err, {opening: true})
    if (err.reason === 'directory') throw unreadable(path, Object.assign(new Error(), {code: 'EISDIR'}))
    if (err.reason === 'damaged') throw unreadable(path, new Error(`it is damaged: ${err.detail.why}`))
    if (err.reason === 'overlay') {
      throw new UsageError(`The batch journal ${path} is on an overlay file system, and ${err.detail.why}: a gw reaching the file through it would not meet this one's lock, so nothing was sent`, 'Give --journal a file outside the overlay (on a volume, or another file system).')
    }
    if (err.reason === 'not-a-journal') throw notAJournal(path)
    const {pid} = err.detail
    if (pid === process.pid) throw new UsageError(`The batch journal ${path}${same} is already open in this gw: nothing was sent`)
    const who = pid === undefined ? 'Another gw' : `Another gw (pid ${pid})`
    throw new UsageError(`${who} is running the batch of journal ${path}${same}: nothing was sent`, 'Wait for it to finish, or stop it; then run this again to resume.')
  }
}

/** Why the journal cannot be written, naming it: the batch stops, and says which rows were sent (exit 1); `opening`, before any was. */
export class JournalError extends WriteError {
  constructor(
    readonly path: string,
    cause: unknown,
    {opening = false}: {opening?: boolean} = {},
  ) {
    const code = (cause as NodeJS.ErrnoException)?.code
    const message = cause instanceof Error ? cause.message : String(cause)
    super(`The batch journal ${path} cannot be ${opening ? 'used' : 'written'} (${code ?? message}): ${opening ? 'nothing was sent' : 'no more rows are sent'}`, cause, {
      hint: `Free space or fix permissions there, or give another --journal FILE, then run the same command again: ${opening ? 'nothing of it was sent yet' : 'it finishes the batch, sending only what was not sent'}.`,
    })
  }
}

function journalError(path: string, err: unknown, options?: {opening: boolean}): Error {
  if (err instanceof UsageError || err instanceof JournalError || err instanceof JournalReplacedError) return err
  return new JournalError(path, err, options)
}
