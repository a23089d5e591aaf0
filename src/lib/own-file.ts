import {closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, type Stats} from 'node:fs'
import type {FileHandle} from 'node:fs/promises'
import {isAbsolute, join, parse, resolve} from 'node:path'
import {notYours} from './not-yours.js'

// Files only the user owns, as ssh trusts them (its StrictModes): a file another user owns or can
// write, or a folder on the way to it that another user owns or can write (a sticky one, as /tmp
// is, aside), or a symlink on the way that another user made, is refused before gw reads or writes
// it. What gw opens to write it opens without following a link at the last step (O_NOFOLLOW),
// made afresh where there is none (O_EXCL), and checks who owns what it got (fstat).

/**
 * What this platform lets gw tell about who owns a file, through Node's stat. POSIX systems give
 * each file's owner and mode. On Windows Node gives neither (uid 0 for every file, and a mode made
 * from the read-only attribute alone): a file's owner and access list are had only from another
 * program (icacls, PowerShell's Get-Acl), at the cost of a process started by every command, so
 * there gw refuses nothing for its owner. What keeps gw's own files private there is where they
 * are: in the user's profile folder (%LOCALAPPDATA%), which Windows gives the user alone (with
 * SYSTEM and the Administrators) unless someone changed it.
 */
export type Ownership = {kind: 'posix'; uid: number} | {kind: 'unknown'}

export function ownershipHere(platform: NodeJS.Platform = process.platform, uid = process.getuid?.()): Ownership {
  return platform === 'win32' || uid === undefined ? {kind: 'unknown'} : {kind: 'posix', uid}
}

/** The file system calls the check makes, for a test to stand in for another platform's. */
export interface OwnFs {
  lstat(path: string): Stats | undefined
  readlink(path: string): string
}

const realFs: OwnFs = {
  lstat(path) {
    try {
      return lstatSync(path, {throwIfNoEntry: false})
    } catch (err) {
      // A file where a folder should be: the open that follows says so, in the system's words.
      if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined
      throw err
    }
  },
  readlink: (path) => readlinkSync(path),
}

export {NotYoursError, type NotYoursProblem} from './not-yours.js'

export interface OwnOptions {
  /** A secret (a token, a signing secret): no one else may read it either. */
  secret?: boolean
  /** A file the user makes and gw only reads (--auth-file, --merchant @FILE): gw never makes it afresh. */
  given?: boolean
  ownership?: Ownership
  fs?: OwnFs
}

/** Symlinks followed at most, as Linux's kernel does (ELOOP beyond). */
const MAX_LINKS = 40

/**
 * Checks that `path`, where it exists, and everything on the way to it are the user's, following
 * the user's own links; throws NotYoursError naming the first that is not. Returns the real path
 * (every link resolved, the file's own too): a missing part of it is the user's to make.
 */
export function checkOwnPath(path: string, options: OwnOptions = {}): string {
  const {ownership = ownershipHere(), fs = realFs} = options
  if (ownership.kind === 'unknown') return resolve(path)
  const {root} = parse(resolve(path))
  let pending = parts(resolve(path))
  let current = root
  let links = 0
  checkFolder(root, fs.lstat(root), ownership.uid)
  while (pending.length > 0) {
    const name = pending.shift()!
    if (name === '.') continue
    if (name === '..') {
      current = join(current, '..')
      continue
    }
    const next = join(current, name)
    const stat = fs.lstat(next)
    if (!stat) return join(next, ...pending)
    if (stat.isSymbolicLink()) {
      if (!trusted(stat.uid, ownership.uid)) throw notYours(next, 'link', stat, ownership.uid)
      if (++links > MAX_LINKS) return join(next, ...pending)
      const target = fs.readlink(next)
      pending = [...parts(target), ...pending]
      if (isAbsolute(target)) current = parse(target).root || root
      continue
    }
    if (pending.length > 0 || stat.isDirectory()) checkFolder(next, stat, ownership.uid)
    else checkFile(next, stat, ownership.uid, options)
    current = next
  }
  return current
}

/** The names in a POSIX path, in order (a backslash is part of a name there). */
function parts(path: string): string[] {
  return path.split('/').filter((part) => part !== '')
}

function trusted(owner: number, uid: number): boolean {
  return owner === uid || owner === 0
}

/** A folder on the way: the user's (or root's), and no one else may add, remove or rename what is in it, unless it is sticky (as /tmp is), where no one else may remove or rename what is the user's. */
function checkFolder(path: string, stat: Stats | undefined, uid: number): void {
  if (!stat) return
  if (!trusted(stat.uid, uid)) throw notYours(path, 'owner', stat, uid)
  const sticky = (stat.mode & 0o1000) !== 0
  if ((stat.mode & 0o022) !== 0 && !sticky) throw notYours(path, 'writable', stat, uid)
}

/** The file itself: the user's (or root's), a regular file (no device, pipe or socket), no one else may write it, and a secret no one else may read. */
function checkFile(path: string, stat: Stats, uid: number, options: OwnOptions): void {
  if (stat.isDirectory()) return checkFolder(path, stat, uid)
  if (!trusted(stat.uid, uid)) throw notYours(path, 'owner', stat, uid, options)
  if (!stat.isFile()) throw notYours(path, 'special', stat, uid, options)
  if ((stat.mode & 0o022) !== 0) throw notYours(path, 'writable', stat, uid)
  if (options.secret && (stat.mode & 0o044) !== 0) throw notYours(path, 'readable', stat, uid)
}

/**
 * O_NOFOLLOW where the platform has it (not Windows, where a link is no threat the flag could stop),
 * and O_NONBLOCK: a named pipe put where the file was checked would hold the open until someone
 * opened its other end; with it, the open returns and fstat refuses the pipe. A regular file does
 * not block either way.
 */
const SAFE_OPEN = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/**
 * Opens the user's own file at `path` for writing (`flags`: O_WRONLY | O_APPEND, O_RDWR...): made
 * afresh, private, when there is none (O_CREAT | O_EXCL), never through a link at its last step,
 * and refused (NotYoursError, the descriptor closed) when what it opened is another user's or
 * others can write it. Everything on the way is checked first (checkOwnPath).
 */
export function openOwnFileSync(path: string, flags: number, options: OwnOptions & {mode?: number} = {}): {fd: number; path: string; created: boolean} {
  const real = checkOwnPath(path, options)
  const mode = options.mode ?? 0o600
  try {
    return {fd: openSync(real, flags | constants.O_CREAT | constants.O_EXCL | SAFE_OPEN, mode), path: real, created: true}
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const fd = openSync(real, flags | SAFE_OPEN)
  try {
    const stat = fstatSync(fd)
    checkOpened(real, stat, options)
    if (loose(stat, options)) fchmodSync(fd, stat.mode & 0o700)
  } catch (err) {
    closeSync(fd)
    throw err
  }
  return {fd, path: real, created: false}
}

/** openOwnFileSync, as a FileHandle. */
export async function openOwnFile(path: string, flags: number, options: OwnOptions & {mode?: number} = {}): Promise<{handle: FileHandle; path: string; created: boolean}> {
  const {open} = await import('node:fs/promises')
  const real = checkOwnPath(path, options)
  const mode = options.mode ?? 0o600
  try {
    return {handle: await open(real, flags | constants.O_CREAT | constants.O_EXCL | SAFE_OPEN, mode), path: real, created: true}
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const handle = await open(real, flags | SAFE_OPEN)
  try {
    const stat = await handle.stat()
    checkOpened(real, stat, options)
    if (loose(stat, options)) await handle.chmod(stat.mode & 0o700)
  } catch (err) {
    await handle.close()
    throw err
  }
  return {handle, path: real, created: false}
}

/**
 * The text of the user's own file at `path`, checked as checkOwnPath checks it and again as
 * opened (no link at its last step, its owner and mode by fstat); undefined when there is none.
 */
export function readOwnFile(path: string, options: OwnOptions = {}): string | undefined {
  const real = checkOwnPath(path, options)
  let fd: number
  try {
    fd = openSync(real, constants.O_RDONLY | SAFE_OPEN)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  try {
    checkOpened(real, fstatSync(fd), options)
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}

/**
 * Whether a file or folder is the user's own (not root's, for another user) and others than the
 * user may read it: gw takes their access away from what it writes (a request log or a journal a
 * umask of 022 made 0644), as its own files are made: the user's alone.
 */
function loose(stat: Stats, {ownership = ownershipHere()}: OwnOptions): boolean {
  return ownership.kind === 'posix' && stat.uid === ownership.uid && (stat.mode & 0o077) !== 0
}

/**
 * Makes the user's own file or folder at `path`, where there is one, the user's alone (0600 of a
 * file 0644, 0700 of a folder 0755), never through a link: what gw keeps beside a file it writes
 * (SQLite's -wal), and gw's own folders. Another user's, or root's, is left as it is.
 */
export function keepPrivate(path: string, options: OwnOptions = {}): void {
  if ((options.ownership ?? ownershipHere()).kind === 'unknown') return
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | SAFE_OPEN)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    // None there, a link (ELOOP), or one this user cannot open: nothing of the user's to make private.
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'EACCES' || code === 'ENOTDIR') return
    throw err
  }
  try {
    const stat = fstatSync(fd)
    if (loose(stat, options)) fchmodSync(fd, stat.mode & 0o700)
  } catch (err) {
    // A read-only file system, or a file system that keeps no modes: what others may read there is not gw's to change.
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'EROFS' && code !== 'EPERM') throw err
  } finally {
    closeSync(fd)
  }
}

/** What was opened: checked as the file itself is (checkFile), where the platform tells owners. */
function checkOpened(path: string, stat: Stats, options: OwnOptions): void {
  const {ownership = ownershipHere()} = options
  if (ownership.kind === 'posix') checkFile(path, stat, ownership.uid, options)
}
