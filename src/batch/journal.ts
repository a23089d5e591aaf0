import {createHash} from 'node:crypto'
import {writeSync} from 'node:fs'
import {mkdir, open, readFile, rm, type FileHandle} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {UsageError} from '../errors.js'

/** The first line of a journal: which command and which input it records. */
interface Header {
  journal: 1
  command: string
  input_sha256: string
  created_at: string
}

/** Written and fsync'd before a row's request is sent: the request itself (no card data: batch rows carry tokens). */
export interface Intent {
  intent: string
  row: number
  line: number
  request: Record<string, unknown>
}

/** Written and fsync'd once a row's answer is known, before the row is reported. */
export interface Result {
  result: string
  status: string
  exit_code: number
  record?: Record<string, unknown>
  error?: Record<string, unknown>
  amount?: number
  currency?: string
}

/** The content hash that ties a journal to its input, and names the default journal file. */
export function inputHash(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** gw's state directory holds journals by command and input: the same file run again finds its journal. */
export function defaultJournalPath(dataDir: string, command: string, hash: string): string {
  return join(dataDir, 'journals', `${command.replaceAll(' ', '-')}-${hash.slice(0, 16)}.ndjson`)
}

/**
 * A batch's journal (design.md §5): an append-only NDJSON file, intent before a row is sent and
 * result after, each durable (fdatasync) before the send or the report it precedes. Writes that
 * arrive while one is being synced wait and go together in the next write and sync (group
 * commit), so N rows in flight cost about one sync, not N. A line torn by a crash (kill -9) is the
 * last one, never synced, and is cut off when the journal is opened again.
 */
export class Journal {
  readonly intents = new Map<string, Intent>()
  readonly results = new Map<string, Result>()
  private pending: string[] = []
  private waiting: {resolve: () => void; reject: (err: unknown) => void}[] = []
  private flushing?: Promise<void>

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    /** Whether this run found an earlier one's journal. */
    readonly resumed: boolean,
    private readonly release: () => Promise<void>,
  ) {}

  static async open(path: string, {command, hash, now}: {command: string; hash: string; now: Date}): Promise<Journal> {
    await mkdir(dirname(path), {recursive: true, mode: 0o700}).catch((err: unknown) => Promise.reject(journalError(path, err)))
    const release = await lock(path)
    try {
      const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? '' : Promise.reject(journalError(path, err))))
      // Only whole lines count: a line torn by a crash was never synced, so nothing was sent after it.
      const whole = text.slice(0, text.lastIndexOf('\n') + 1)
      // Checked before the file is touched: --journal may name a file that is no journal at all.
      const entries = whole === '' ? undefined : readEntries(path, whole, command, hash)
      if (!entries && text !== '' && !text.startsWith('{"journal":')) throw notAJournal(path)
      const handle = await open(path, 'a', 0o600).catch((err: unknown) => Promise.reject(journalError(path, err)))
      const journal = new Journal(path, handle, entries !== undefined, release)
      try {
        await handle.truncate(Buffer.byteLength(whole))
        if (entries) {
          for (const intent of entries.intents) journal.intents.set(intent.intent, intent)
          for (const result of entries.results) journal.results.set(result.result, result)
        } else {
          await journal.append({journal: 1, command, input_sha256: hash, created_at: now.toISOString()} satisfies Header)
          // The new file's name must survive a crash as well as its lines.
          await syncDirectory(dirname(path))
        }
      } catch (err) {
        await handle.close()
        throw err
      }
      return journal
    } catch (err) {
      await release()
      throw err
    }
  }

  /** Resolves once the intent is on disk: only then may the row be sent. */
  intent(entry: Intent): Promise<void> {
    this.intents.set(entry.intent, entry)
    return this.append(entry)
  }

  /** Resolves once the result is on disk: only then is the row reported. */
  result(entry: Result): Promise<void> {
    this.results.set(entry.result, entry)
    return this.append(entry)
  }

  async close(): Promise<void> {
    await this.flushing
    await this.handle.close()
    await this.release()
  }

  private append(entry: object): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push(JSON.stringify(entry) + '\n')
      this.waiting.push({resolve, reject})
      this.flushing ??= this.flush()
    })
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const text = this.pending.join('')
      const waiting = this.waiting
      this.pending = []
      this.waiting = []
      try {
        // One write of the whole group (a page-cache copy, done at once; measured: the promise
        // API's appendFile cost more CPU than the rest of a row), then the sync off the main thread.
        writeSync(this.handle.fd, text)
        await this.handle.datasync()
        for (const waiter of waiting) waiter.resolve()
      } catch (err) {
        for (const waiter of waiting) waiter.reject(journalError(this.path, err))
      }
    }
    this.flushing = undefined
  }
}

/**
 * One gw at a time per journal: two runs of one batch would each send the rows the other has not
 * journaled yet. The lock file holds the owner's pid; one whose owner is gone (kill -9) is taken over.
 */
async function lock(path: string): Promise<() => Promise<void>> {
  const lockPath = path + '.lock'
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600)
      await handle.writeFile(String(process.pid))
      await handle.close()
      return () => rm(lockPath, {force: true})
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw journalError(path, err)
      const owner = Number(await readFile(lockPath, 'utf8').catch(() => ''))
      if (owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new UsageError(`Another gw (pid ${owner}) is running the batch of journal ${path}: nothing was sent`, `Wait for it to finish, or stop it; then run this again to resume. If no gw is running this batch (the pid was reused), remove ${lockPath}.`)
      }
      await rm(lockPath, {force: true})
    }
  }
  throw new UsageError(`The batch journal ${path} is being taken by another gw: nothing was sent`, 'Run it again in a moment.')
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** A journal's entries, once its header shows it is this batch's. */
function readEntries(path: string, text: string, command: string, hash: string): {intents: Intent[]; results: Result[]} {
  const lines = text.split('\n').slice(0, -1)
  const header = parseLine(lines[0]) as Partial<Header> | undefined
  if (header?.journal !== 1) throw notAJournal(path)
  if (header.command !== command) {
    throw new UsageError(`${path} is the journal of a gw ${header.command} batch, not gw ${command}: nothing was sent`, 'Give this batch a journal of its own with --journal FILE.')
  }
  if (header.input_sha256 !== hash) {
    throw new UsageError(`${path} was written for another input (sha256 ${String(header.input_sha256).slice(0, 12)}..., this input ${hash.slice(0, 12)}...): nothing was sent`, 'Run the input that journal belongs to, or give this one its own --journal FILE: a journal never applies to a changed file.')
  }
  const intents: Intent[] = []
  const results: Result[] = []
  lines.slice(1).forEach((line, index) => {
    const entry = parseLine(line) as Partial<Intent & Result> | undefined
    if (!entry) throw new UsageError(`${path} line ${index + 2} cannot be read: the journal is damaged, nothing was sent`, 'Check the rows it names with gw refund get or gw purchase get before running the batch with a new --journal.')
    if (typeof entry.intent === 'string') intents.push(entry as Intent)
    else if (typeof entry.result === 'string') results.push(entry as Result)
  })
  return {intents, results}
}

function notAJournal(path: string): UsageError {
  return new UsageError(`${path} is not a gw batch journal, and is left as it is: nothing was sent`, 'Give --journal a file of its own (a new one is made), or leave --journal out for the default one.')
}

function parseLine(line: string | undefined): unknown {
  try {
    const value = JSON.parse(line ?? '') as unknown
    return value !== null && typeof value === 'object' ? value : undefined
  } catch {
    return undefined
  }
}

async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r')
  try {
    await directory.sync()
  } catch {
    // Some file systems cannot sync a directory; the file's own syncs still hold its lines.
  } finally {
    await directory.close()
  }
}

function journalError(path: string, err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err)
  return Object.assign(new UsageError(`The batch journal ${path} cannot be written: ${message}`, 'Free space or fix permissions there, or give another --journal FILE. Rows not yet journaled were not sent.'), {cause: err})
}
