import {randomBytes} from 'node:crypto'
import {linkSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {resolve} from 'node:path'

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

export interface FileLock {
  /** Whether the lock is still this process's (a stale-lock take-over by another cannot have moved it). */
  held(): boolean
  /** Gives the lock up, if it is still this process's. */
  release(): void
}

/** Locks this process holds, by absolute path: a second take in the same process is refused, not granted twice. */
const HELD = new Set<string>()

/** A lock file that is empty (a holder between creating it and writing its pid, by an older gw) counts as held this long. */
const EMPTY_LOCK_GRACE_MS = 10_000

/**
 * A lock two processes cannot both take (a batch's journal, the local gateway's state file). The
 * lock file holds the owner's pid and is put in place whole with link(2), which fails when the
 * name exists: no reader ever sees an empty lock of ours. A dead owner's lock is removed by one
 * process at a time, and only while it is still, by inode, the lock found dead (takeAside); then
 * the link race decides again. Throws LockHeldError.
 */
export function takeLock(lockPath: string): FileLock {
  const key = resolve(lockPath)
  if (HELD.has(key)) throw new LockHeldError(lockPath, process.pid)
  const candidate = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}`
  writeFileSync(candidate, String(process.pid), {mode: 0o600, flag: 'wx'})
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(candidate, lockPath)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
        const holder = readHolder(lockPath)
        if (!holder) continue
        if (holder.alive) throw new LockHeldError(lockPath, holder.pid)
        takeAside(lockPath, holder.ino)
        continue
      }
      const ino = statSync(lockPath).ino
      HELD.add(key)
      return {
        held: () => inode(lockPath) === ino,
        release() {
          HELD.delete(key)
          if (inode(lockPath) === ino) rmSync(lockPath, {force: true})
        },
      }
    }
    throw new LockHeldError(lockPath, undefined)
  } finally {
    rmSync(candidate, {force: true})
  }
}

/** Who holds the lock and whether they still run; undefined when it vanished while looked at. */
function readHolder(lockPath: string): {pid?: number; alive: boolean; ino: number} | undefined {
  try {
    const stat = statSync(lockPath)
    const text = readFileSync(lockPath, 'utf8').trim()
    if (text === '') return {alive: Date.now() - stat.mtimeMs < EMPTY_LOCK_GRACE_MS, ino: stat.ino}
    const pid = Number(text)
    // A lock naming this very process that it does not hold is a dead one's: the pid came round again.
    const alive = Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)
    return {pid: Number.isInteger(pid) && pid > 0 ? pid : undefined, alive, ino: stat.ino}
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

/**
 * Removes a dead owner's lock, if it is still the one found dead. Only the process that holds the
 * take-over lock (LOCK.takeover, made with link(2) as the lock is) may remove one, so the lock's
 * name is never left vacant by one process while another puts it back: two racing take-overs
 * once left it vacant for a moment, a third process took it, and two held the lock. Returns
 * without removing anything when another process is taking it over; the caller tries again.
 */
function takeAside(lockPath: string, staleIno: number): void {
  const takeover = `${lockPath}.takeover`
  const candidate = `${takeover}.${process.pid}.${randomBytes(4).toString('hex')}`
  writeFileSync(candidate, String(process.pid), {mode: 0o600, flag: 'wx'})
  try {
    try {
      linkSync(candidate, takeover)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      // One left behind by a process killed in the middle of a take-over is old: cleared for the next try.
      const left = statOf(takeover)
      if (left && Date.now() - left.mtimeMs > EMPTY_LOCK_GRACE_MS) rmSync(takeover, {force: true})
      return
    }
    try {
      if (statOf(lockPath)?.ino === staleIno) rmSync(lockPath, {force: true})
    } finally {
      rmSync(takeover, {force: true})
    }
  } finally {
    rmSync(candidate, {force: true})
  }
}

function statOf(path: string): {ino: number; mtimeMs: number} | undefined {
  try {
    return statSync(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

function inode(path: string): number | undefined {
  try {
    return statSync(path).ino
  } catch {
    return undefined
  }
}

/** Whether the process runs: a zombie (killed, its parent not told yet) holds nothing any more. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
  try {
    // Linux: /proc/PID/stat is "PID (name) STATE ...", the name in parentheses and possibly holding any of them.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch (err) {
    // Gone since it was signalled; elsewhere than Linux there is no /proc, and it runs.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT'
  }
}
