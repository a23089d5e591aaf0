import {closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, type Stats} from 'node:fs'
import type {FileHandle} from 'node:fs/promises'
import {isAbsolute, join, parse, resolve} from 'node:path'

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

export type NotYoursProblem = 'owner' | 'writable' | 'readable' | 'link'

/** A file, folder or link on the way that is not the user's: what it is, what is wrong, and what to do. */
export class NotYoursError extends Error {
  override name = 'NotYoursError'

  constructor(
    readonly path: string,
    readonly problem: NotYoursProblem,
    message: string,
    readonly hint: string,
    /** Its permission bits, as its stat gave them. */
    readonly mode: number,
  ) {
    super(message)
  }
}

export interface OwnOptions {
  /** A secret (a token, a signing secret): no one else may read it either. */
  secret?: boolean
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
export function checkOwnPath(path: string, {secret = false, ownership = ownershipHere(), fs = realFs}: OwnOptions = {}): string {
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
    else checkFile(next, stat, ownership.uid, secret)
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

/** The file itself: the user's (or root's), no one else may write it, and a secret no one else may read. */
function checkFile(path: string, stat: Stats, uid: number, secret: boolean): void {
  if (stat.isDirectory()) return checkFolder(path, stat, uid)
  if (!trusted(stat.uid, uid)) throw notYours(path, 'owner', stat, uid)
  if ((stat.mode & 0o022) !== 0) throw notYours(path, 'writable', stat, uid)
  if (secret && (stat.mode & 0o044) !== 0) throw notYours(path, 'readable', stat, uid)
}

function notYours(path: string, problem: NotYoursProblem, stat: Stats, uid: number): NotYoursError {
  const bits = stat.mode & 0o7777
  const mode = bits.toString(8).padStart(4, '0')
  const folder = stat.isDirectory()
  const owner = who(stat.uid)
  const you = who(uid)
  switch (problem) {
    case 'link':
      return new NotYoursError(path, problem, `${path} is a symbolic link made by ${owner}, not by you (${you}): gw does not follow another user's links`, `Give the path it should lead to yourself, or remove the link (rm ${path}) if you may.`, bits)
    case 'owner':
      return new NotYoursError(
        path,
        problem,
        `${path} belongs to ${owner}, not to you (${you}): gw uses only what is your own (or root's), as ssh does`,
        folder
          ? `Use a folder of your own; if it is yours, take it back (chown ${name(uid) ?? uid} ${path}) once you have checked what it holds.`
          : `Another user may have written or read it: use another path, or remove it (rm ${path}) once you have checked what it holds; gw makes it afresh, private.`,
        bits,
      )
    case 'writable':
      return new NotYoursError(
        path,
        problem,
        folder
          ? `${path} is a folder that others than you can write (mode ${mode}, not sticky as /tmp is): gw uses only what no one else can change, as ssh does`
          : `${path} can be written by others than you (mode ${mode}): gw uses only what no one else can change, as ssh does`,
        folder ? `Take the others' write permission away (chmod go-w ${path}), or use a folder of your own.` : `Check what it holds, then take the others' write permission away (chmod go-w ${path}).`,
        bits,
      )
    case 'readable':
      return new NotYoursError(path, problem, `${path} holds a secret that others than you can read (mode ${mode}): it may be known already`, `Make it yours alone (chmod 600 ${path}) and replace the secret it holds.`, bits)
  }
}

/** A user as messages name one: `alice (uid 1000)`, or `uid 1000` where the name is not known. */
function who(uid: number): string {
  const known = name(uid)
  return known === undefined ? `uid ${uid}` : `${known} (uid ${uid})`
}

/** A user's name, as /etc/passwd has it; undefined where it has none (macOS keeps most users elsewhere). */
function name(uid: number): string | undefined {
  try {
    return readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.split(':')[2] === String(uid))
      ?.split(':')[0]
  } catch {
    return undefined
  }
}

/** O_NOFOLLOW where the platform has it (not Windows, where a link is no threat the flag could stop). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0

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
    return {fd: openSync(real, flags | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, mode), path: real, created: true}
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const fd = openSync(real, flags | NO_FOLLOW)
  try {
    checkOpened(real, fstatSync(fd), options)
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
    return {handle: await open(real, flags | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, mode), path: real, created: true}
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const handle = await open(real, flags | NO_FOLLOW)
  try {
    checkOpened(real, await handle.stat(), options)
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
    fd = openSync(real, constants.O_RDONLY | NO_FOLLOW)
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

/** What was opened: checked as the file itself is (checkFile), where the platform tells owners. */
function checkOpened(path: string, stat: Stats, {secret = false, ownership = ownershipHere()}: OwnOptions): void {
  if (ownership.kind === 'posix') checkFile(path, stat, ownership.uid, secret)
}
