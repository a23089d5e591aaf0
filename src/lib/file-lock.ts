import {closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync} from 'node:fs'
import {tmpdir, userInfo} from 'node:os'
import {join} from 'node:path'
import {fileId, fileIdentity} from './file-identity.js'
import {LockHeldError, takeLockFile} from './lock-file.js'

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

/** Locks this process holds, by lock path and by the device and inode of the file locked: a second take in the same process is refused, not granted twice. */
const HELD = new Set<string>()

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
  const locks = [takeLockFile(lockPath)]
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
      locks.push(takeLockFile(join(identityLockFolder(), `${id.replace(':', '-')}.lock`)))
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
