import {randomBytes} from 'node:crypto'
import {closeSync, constants, existsSync, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, rmSync, type Stats, statSync, writeFileSync} from 'node:fs'
import {tmpdir, userInfo} from 'node:os'
import {join} from 'node:path'
import {fileId, fileIdentity} from './file-identity.js'

// The paths a lock is keyed by, for the modules that lock a file and name it as its lock does.
export {absolutePath, realPath} from './file-identity.js'

/** Another process (or this one, a second time) holds the lock: who, when it says. */
export class LockHeldError extends Error {
  constructor(
    readonly lockPath: string,
    /** The holder's pid; this process's own when it asked twice; none for a lock being written or contended. */
    readonly pid: number | undefined,
  ) {
    super(`${lockPath} is held${pid === undefined ? '' : ` by pid ${pid}`}`)
  }
}

/**
 * The file has more than one name (hard links): a lock beside one name is not seen from another,
 * and a file replaced whole (a state file's snapshot, written aside and renamed) would leave the
 * other names holding an old copy. gw takes no lock on such a file.
 */
export class HardLinkedError extends Error {
  constructor(
    readonly file: string,
    readonly links: number,
  ) {
    super(`${file} has ${links} names (hard links)`)
  }
}

export interface FileLock {
  /** Whether the lock is still this process's (a stale-lock take-over by another cannot have moved it). */
  held(): boolean
  /** Gives the lock up, if it is still this process's. */
  release(): void
  /**
   * Locks the file at `path` by its device and inode too, until release: a file about to take the
   * locked file's place by rename (a state file's snapshot: a new inode), so that a bind mount of
   * it is refused as the file is. Throws LockHeldError when another holds it, the lock left as it
   * was for the caller to release.
   */
  cover(path: string): void
}

/** One lock file of a FileLock. */
interface LockFile {
  held(): boolean
  release(): void
}

/** Locks this process holds, by lock path and by the device and inode of the file locked: a second take in the same process is refused, not granted twice. */
const HELD = new Set<string>()

/** A lock file that is empty (a holder between creating it and writing its pid, by an older gw) counts as held this long. */
const EMPTY_LOCK_GRACE_MS = 10_000

/**
 * Where the locks by device and inode live: one folder per user, so that every name of a file (a
 * bind mount's too, which no path can tell from another file) finds the same lock. It must be a
 * folder of this user's own that no one else can write, or another user could plant a lock.
 */
export function identityLockFolder(): string {
  const {uid} = userInfo()
  const folder = join(tmpdir(), `gw-locks-${uid}`)
  try {
    mkdirSync(folder, {mode: 0o700})
  } catch {
    // There already, or not to be made: what is there (lstat) says whether it will do.
  }
  const stat = lstatSync(folder)
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
    throw Object.assign(new Error(`${folder} is not a folder of this user's own that only they can write`), {code: 'EACCES'})
  }
  return folder
}

/**
 * A lock on a file that two processes cannot both take (a batch's journal, the local gateway's
 * state file), which belongs to the file itself (design.md §5): one lock kept beside the real
 * file, so a symlink to it is the same file, and one keyed by its device and inode in
 * identityLockFolder, so a bind mount of it under another name is the same file too (and a file
 * put in its place by rename, once covered). A file that does not exist yet is made (empty) under
 * the first, when `create` is asked, so that it has an inode before anyone else can reach it by
 * another name. A file locked by its inode is held open until release, so that its inode number
 * names no other file meanwhile. A file with other names (hard links) is
 * refused (HardLinkedError): a file replaced whole would leave the other names holding an old copy.
 * Each lock file holds the owner's pid and is put in place whole with link(2), which fails when
 * the name exists: no reader ever sees an empty lock of ours. A dead owner's lock is removed by one
 * process at a time, and only while it is still, by inode, the lock found dead (takeAside); then
 * the link race decides again. Throws LockHeldError.
 */
export function takeLock(file: string, {create = false}: {create?: boolean} = {}): FileLock {
  const identity = fileIdentity(file)
  if (identity.links > 1) throw new HardLinkedError(file, identity.links)
  const lockPath = `${identity.path}.lock`
  if (HELD.has(lockPath)) throw new LockHeldError(lockPath, process.pid)
  const locks = [takeOne(lockPath)]
  const keys = [lockPath]
  // Each file locked by its inode is held open until release: a file's inode number is given to
  // the next file made once no name or open file keeps it (ext4 does so at once), and a lock on a
  // number that came to name another file would refuse that file to every other gw.
  const open: number[] = []
  HELD.add(lockPath)
  const lock: FileLock = {
    held: () => locks.every((one) => one.held()),
    release() {
      for (const key of keys.splice(0)) HELD.delete(key)
      for (const one of locks) one.release()
      for (const fd of open.splice(0)) closeSync(fd)
    },
    cover(path) {
      // Without waiting: a FIFO given as the file would block an open for reading.
      const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
      open.push(fd)
      const id = fileId(fstatSync(fd))
      if (keys.includes(id)) return
      // This process holds the file under another name (renamed since): the same inode is the same file.
      if (HELD.has(id)) throw new LockHeldError(lockPath, process.pid)
      locks.push(takeOne(join(identityLockFolder(), `${id.replace(':', '-')}.lock`)))
      keys.push(id)
      HELD.add(id)
    },
  }
  try {
    if (identity.id === undefined && create) closeSync(openSync(identity.path, 'a', 0o600))
    if (identity.id !== undefined || create) lock.cover(identity.path)
  } catch (err) {
    lock.release()
    throw err
  }
  return lock
}

/** One lock file, taken with link(2), a dead owner's taken over (takeAside). */
function takeOne(lockPath: string): LockFile {
  const candidate = ownFile(lockPath)
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      if (!linked(candidate, lockPath)) {
        const holder = readHolder(lockPath)
        if (holder?.alive) throw new LockHeldError(lockPath, holder.pid)
        // Vanished while looked at (holder undefined), the next link may have it.
        if (holder) takeAside(lockPath, holder.ino)
        continue
      }
      const ino = statSync(lockPath).ino
      return {
        held: () => statOf(lockPath)?.ino === ino,
        release() {
          if (statOf(lockPath)?.ino === ino) remove(lockPath)
        },
      }
    }
    throw new LockHeldError(lockPath, undefined)
  } finally {
    remove(candidate)
  }
}

/** A file of this process's beside `path`, holding its pid, to be put in place with link(2); its name is its own (pid, random). */
function ownFile(path: string): string {
  const name = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
  writeFileSync(name, String(process.pid), {mode: 0o600})
  return name
}

/** Puts `file` in place under the name `as` with link(2), whole: false when the name is taken. */
function linked(file: string, as: string): boolean {
  try {
    linkSync(file, as)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    return false
  }
}

/** Who holds a lock and whether they still run; undefined when it vanished while looked at. */
export function readHolder(lockPath: string): {pid?: number; alive: boolean; ino: number} | undefined {
  // Its pid and its inode from one open: a lock replaced meanwhile can never lend its pid to another's inode.
  const lock = readWhole(lockPath)
  if (!lock) return undefined
  const text = lock.text.trim()
  if (text === '') return {alive: !isOld(lock.stat), ino: lock.stat.ino}
  const pid = Number(text)
  // A lock naming this very process that it does not hold is a dead one's: the pid came round again.
  const alive = pid > 0 && pid !== process.pid && isRunning(pid)
  return {pid, alive, ino: lock.stat.ino}
}

/** A lock or take-over file with no pid in it, or left behind, counts as abandoned once this old. */
function isOld(stat: Stats): boolean {
  return Date.now() - stat.mtimeMs > EMPTY_LOCK_GRACE_MS
}

/**
 * Removes a dead owner's lock, if it is still the one found dead (inode `staleIno`). Only the
 * process that holds the take-over lock (LOCK.takeover, made with link(2) as the lock is) may
 * remove one, so the lock's name is never left vacant by one process while another puts it back:
 * two racing take-overs once left it vacant for a moment, a third process took it, and two held
 * the lock. Returns without removing anything when another process is taking it over; the caller
 * tries again.
 */
export function takeAside(lockPath: string, staleIno: number): void {
  const takeover = `${lockPath}.takeover`
  const candidate = ownFile(takeover)
  try {
    if (!linked(candidate, takeover)) {
      // One left behind by a process killed in the middle of a take-over is old: cleared for the next try.
      const left = statOf(takeover)
      if (left && isOld(left)) remove(takeover)
      return
    }
    try {
      // Still the lock found dead, and still dead, read again under the take-over lock: the inode
      // of a lock removed by an earlier take-over can come back as a live racer's lock, and an
      // inode alone once let a process remove it, so that two held the lock (seen on Node 26).
      const now = readHolder(lockPath)
      if (now && now.ino === staleIno && !now.alive) remove(lockPath)
    } finally {
      remove(takeover)
    }
  } finally {
    remove(candidate)
  }
}

/** The file's status; undefined when there is none. */
function statOf(path: string): Stats | undefined {
  return statSync(path, {throwIfNoEntry: false})
}

/** A file's content and status, read through one open (so they are one file's); undefined when there is none. */
function readWhole(path: string): {text: string; stat: Stats} | undefined {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  try {
    return {text: readFileSync(fd, 'utf8'), stat: fstatSync(fd)}
  } finally {
    closeSync(fd)
  }
}

/** Removes a file of gw's own, gone already or not. */
function remove(path: string): void {
  rmSync(path, {force: true})
}

/** Whether the process runs: a zombie (killed, its parent not told yet) holds nothing any more. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
  // Linux: /proc/PID/stat is "PID (name) STATE ...", the name in parentheses and possibly holding any of them.
  const proc = readWhole(`/proc/${pid}/stat`)
  // None: gone since it was signalled, or a system without /proc (macOS), where the signal said it runs.
  if (!proc) return !existsSync('/proc/self')
  const stat = proc.text
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
}
