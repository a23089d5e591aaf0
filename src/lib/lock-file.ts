import {randomBytes} from 'node:crypto'
import {closeSync, fstatSync, linkSync, openSync, readFileSync, rmSync, type Stats, statSync, writeFileSync} from 'node:fs'
import {leftByRunning} from './platform.js'

// One lock file, beside the file it locks (an older gw's journal, while it is made a database): put in
// place whole with link(2), holding its owner's pid; a dead owner's taken over by one process at a time.

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

/** One lock file, taken by this process. */
export interface LockFile {
  held(): boolean
  release(): void
}

/** A lock file that is empty (a holder between creating it and writing its pid, by an older gw) counts as held this long. */
const EMPTY_LOCK_GRACE_MS = 10_000

/** One lock file, taken with link(2), a dead owner's taken over (takeAside). */
export function takeLockFile(lockPath: string): LockFile {
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
  const alive = pid > 0 && leftByRunning(pid)
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
