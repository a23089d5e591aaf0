import {closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync} from 'node:fs'
import {randomBytes} from 'node:crypto'
import {open, rename, rm} from 'node:fs/promises'
import {dirname, resolve} from 'node:path'
import type * as z from 'zod'
import {type FileLock, HardLinkedError, takeLock} from '../../lib/file-lock.js'
import {realPath} from '../../lib/file-identity.js'
import {LockHeldError} from '../../lib/lock-file.js'
import {JournalLine, LegacyStateFile, SnapshotLine, firstProblem} from './state-schema.js'
import type {Change} from '../domain/change-log.js'
import {storableJson} from '../domain/storable.js'
import {Store, type StoreState} from '../domain/store.js'

/**
 * The state file is a journal: its first line is a snapshot of the whole state, and each later
 * line holds the changes of one group commit. A request is answered only once the line with its
 * changes is on disk (fdatasync), so kill -9 loses nothing acknowledged; appending a line costs
 * the same at 10 records as at 100,000, unlike rewriting the whole state. The journal is folded
 * into a fresh snapshot when the sandbox starts and when it stops cleanly.
 * Here the file is locked, read and written whole (a snapshot); journal.ts appends to it.
 */

const FORMAT_VERSION = 2

/** The writes the journal makes, so tests can inject a disk that fails part-way. */
export interface StateFileHandle {
  write(data: Buffer, position: number): Promise<void>
  sync(): Promise<void>
  truncate(length: number): Promise<void>
  close(): Promise<void>
}

export type OpenStateFile = (path: string, flags: 'r+' | 'wx') => Promise<StateFileHandle>

/**
 * Only the user may read the state: it holds card holders, masked numbers and web hook passwords.
 * No card number is ever whole in it, inside a text either (domain/storable.ts).
 */
const FILE_MODE = 0o600
const DIRECTORY_MODE = 0o700

export const openStateFile: OpenStateFile = async (path, flags) => {
  const handle = await open(path, flags, FILE_MODE)
  return {
    async write(data, position) {
      let written = 0
      while (written < data.length) {
        const {bytesWritten} = await handle.write(data, written, data.length - written, position + written)
        written += bytesWritten
      }
    },
    sync: () => handle.datasync(),
    truncate: (length) => handle.truncate(length),
    close: () => handle.close(),
  }
}

/** A state file that cannot be read as one, or written: the start-up error names the file and the reason. */
export class StateFileError extends Error {
  override name = 'StateFileError'

  /** What to do about it, when picking another file is not the answer. */
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message)
  }
}

/**
 * The state file is this gateway's for as long as it runs: a second one on it would snapshot the
 * file away from under the first, whose acknowledged writes would then go to a deleted file. The
 * lock is the real file's (file-lock.ts), by path and by device and inode: a symlink to a running
 * gateway's file, or a bind mount of it, is that file (each snapshot's new inode is covered too,
 * see writeSnapshot), and a file with other names (hard links) is refused, since each snapshot
 * replaces the file whole and would leave the other names holding an old copy.
 */
export function lockStateFile(file: string): FileLock {
  try {
    // A file where the folder should be fails here as EEXIST, and more plainly below as ENOTDIR.
    mkdirSync(dirname(realPath(file)), {recursive: true, mode: 0o700})
  } catch {
    // Said by takeLock below, which cannot write there either.
  }
  let lock: FileLock
  try {
    lock = takeLock(file, {create: true})
  } catch (error) {
    if (error instanceof HardLinkedError) {
      throw new StateFileError(
        `${file} has ${error.links} names (hard links): each start and clean stop of the gateway replaces its state file whole, which would leave the other names holding an old copy, and a gateway started on another name would not be seen`,
        'Give --state a file with one name: remove the other names, or copy the file (cp) and use the copy.',
      )
    }
    if (!(error instanceof LockHeldError)) throw new StateFileError(`Cannot write the state file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
    const who = error.pid === undefined ? 'another local gateway' : error.pid === process.pid ? 'another local gateway in this process' : `another local gateway (pid ${error.pid})`
    const same = realPath(file) === resolve(file) ? '' : ` (the same file as ${realPath(file)})`
    throw new StateFileError(`${file}${same} is in use by ${who}: two gateways on one state file would lose each other's writes`, `Stop that gateway first (gw sandbox stop, or kill ${error.pid ?? 'it'}), or give this one another --state file.`)
  }
  // Checked once the lock is taken, so that a mount of a running gateway's file is refused as in use, by its pid.
  if (isMountPoint(realPath(file))) {
    lock.release()
    throw new StateFileError(
      `${file} is a mount point (a bind mount gives the file another name): each start and clean stop of the gateway replaces its state file whole, which a mount point cannot take, and a gateway started on the file's other name would not be seen`,
      'Give --state a file of its own, not one mounted over another.',
    )
  }
  return lock
}

/** Whether a file is a mount point (Linux's /proc/self/mountinfo; elsewhere none is known): a bind mount's other name. */
function isMountPoint(path: string): boolean {
  let table: string
  try {
    table = readFileSync('/proc/self/mountinfo', 'utf8')
  } catch {
    return false
  }
  // The fifth field, with spaces, tabs, newlines and backslashes written as octal escapes.
  const unescape = (field: string) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)))
  return table.split('\n').some((line) => unescape(line.split(' ')[4] ?? '') === path)
}

const notAStateFile = (file: string, reason: string) =>
  new StateFileError(`${file} is not a gw sandbox state file (${reason}); move it away or pick another file`)

/**
 * The state a file holds: its snapshot with every complete journal line replayed. A last line
 * cut short by a crash is ignored (it was never acknowledged); anything else that does not fit
 * the schemas is refused whole, naming the first bad path, rather than half-loaded.
 */
export function loadStore(file: string): Store {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Store()
    throw error
  }
  if (text.trim() === '') return new Store()
  const lines = text.split('\n')
  const head = parseJson(lines[0] as string)
  if (head === undefined || (head as {version?: unknown} | null)?.version !== FORMAT_VERSION) return new Store(legacyState(file, text))
  const store = new Store(checked(file, SnapshotLine, head, 'line 1').snapshot as StoreState)
  const last = lines.length - 1
  for (let index = 1; index <= last; index++) {
    const line = lines[index] as string
    if (line === '') continue
    const parsed = parseJson(line)
    // A torn last line: the write of a group commit that never finished, and never answered.
    if (parsed === undefined && index === last) break
    if (parsed === undefined) throw notAStateFile(file, `line ${index + 1} is not JSON`)
    store.replay(checked(file, JournalLine, parsed, `line ${index + 1}`).changes as Change[])
  }
  return store
}

/** A file from before the journal: one document with `version: 1`. */
function legacyState(file: string, text: string): StoreState {
  const parsed = parseJson(text)
  if (parsed === undefined) throw notAStateFile(file, 'not JSON')
  const version = (parsed as {version?: unknown} | null)?.version
  if (version !== 1 && version !== FORMAT_VERSION) throw notAStateFile(file, `no version ${FORMAT_VERSION} snapshot`)
  const {version: _version, ...state} = checked(file, LegacyStateFile, parsed, 'the file')
  return state as StoreState
}

/** `value` itself once it fits: zod's output would put a record's fields in the schema's order, not the gateway's. */
function checked<T>(file: string, schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value)
  if (!result.success) throw notAStateFile(file, `${where}, ${firstProblem(result.error)}`)
  return value as T
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * Writes `state` as a new state file with an empty journal: to a temporary file first, synced,
 * then renamed over the old one, so a crash at any point leaves the old file or the new one whole.
 * A rename gives the file a new inode: any other name (hard link) it had keeps the old copy, which
 * is why lockStateFile refuses a file with more than one, and why the state file's `lock` covers
 * the new inode before the rename.
 * Returns the new file's length, where the journal continues.
 */
export async function writeSnapshot(path: string, state: StoreState, openFile: OpenStateFile = openStateFile, lock?: FileLock): Promise<number> {
  // The real file is replaced, in its own folder: a symlink to it stays a symlink (a rename onto the link would replace the link).
  const file = realPath(path)
  const directory = dirname(file)
  if (!existsSync(directory)) mkdirSync(directory, {recursive: true, mode: DIRECTORY_MODE})
  // A name of its own: a crashed run's leftover (or another sandbox on the same file) is never reused.
  const temporary = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`
  const data = Buffer.from(`${storableJson({version: FORMAT_VERSION, snapshot: state})}\n`)
  const handle = await openFile(temporary, 'wx')
  try {
    try {
      await handle.write(data, 0)
      await handle.sync()
    } finally {
      await handle.close()
    }
    // The state file from the rename on: locked by its inode first, or a bind mount of it would be free.
    lock?.cover(temporary)
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, {force: true})
    throw error
  }
  syncDirectory(directory)
  return data.length
}

/** The rename is durable only once the directory is; some systems cannot sync one, and then the rename stands alone. */
function syncDirectory(directory: string): void {
  let fd: number | undefined
  try {
    fd = openSync(directory, 'r')
    fsyncSync(fd)
  } catch {
    // Windows and some network file systems refuse; the file itself was synced.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
