import {randomBytes} from 'node:crypto'
import {linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
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
 * name exists: no reader ever sees an empty lock of ours. A dead owner's lock is taken over by
 * renaming it aside and checking, by inode, that what was moved is the lock found dead (a newer
 * owner's is put back); then the link race decides again. Throws LockHeldError.
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

function takeAside(lockPath: string, staleIno: number): void {
  const aside = `${lockPath}.stale.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    renameSync(lockPath, aside)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
    throw err
  }
  try {
    // Between the look and the move, another process may have put a lock of its own in place: it goes back.
    if (statSync(aside).ino !== staleIno) linkSync(aside, lockPath)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  } finally {
    rmSync(aside, {force: true})
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
