import {readlinkSync, realpathSync, statSync} from 'node:fs'
import {basename, dirname, isAbsolute, join, sep} from 'node:path'

// Which file a path names: where it really is, every symlink resolved, and its device and inode
// while it exists (design.md §5: identity, not names).

/** A file as gw tells files apart (design.md §5): where it really is, and what it is once it exists. */
export interface FileIdentity {
  /** The absolute path with every symlink resolved, the file's own too. */
  path: string
  /** `device:inode`, undefined while the file does not exist. */
  id?: string
  /** How many names (hard links) the file has; 0 while it does not exist, 1 for a folder (whose `..` entries are no names of it). */
  links: number
}

export function fileIdentity(path: string): FileIdentity {
  const real = realPath(path)
  const stat = statSync(real, {throwIfNoEntry: false})
  if (!stat) return {path: real, links: 0}
  return {path: real, id: fileId(stat), links: stat.isDirectory() ? 1 : stat.nlink}
}

/** A file's `device:inode`: what tells it from every other file while it exists. */
export function fileId(stat: {dev: number; ino: number}): string {
  return `${stat.dev}:${stat.ino}`
}

/**
 * The absolute path of the file a path names, every symlink resolved, whether or not the file
 * exists yet: a dangling symlink is followed to where it points (a file written there keeps the
 * link a link), and a file not made yet is named in its folder's real path. `..` is the kernel's:
 * in `sub/../j` with `sub` a symlink it leads out of where `sub` points, not back to `sub`'s folder,
 * so the path is never tidied as text before the kernel has read it.
 */
export function realPath(path: string): string {
  const absolute = under(process.cwd(), path)
  try {
    return realpathSync.native(absolute)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  let target: string | undefined
  try {
    target = readlinkSync(absolute)
  } catch {
    // No symlink of that name: the file is not made yet (or a folder on the way is not).
  }
  if (target === undefined) return join(realPath(dirname(absolute)), basename(absolute))
  // A link at a time, each one the kernel has just found dangling (ENOENT): a loop of links it
  // would have called ELOOP instead, so this ends.
  return realPath(under(dirname(absolute), target))
}

/**
 * The absolute path a path names, its folder resolved as realPath does and its own name kept: a
 * symlink named stays a symlink named (for messages, and for a process started elsewhere), while
 * a `..` after a symlinked folder leads where the kernel goes. A folder that cannot be resolved (a
 * file in its place, a loop) leaves the path as given, made absolute: the file's first use fails
 * on it and says why, where that file's errors are told.
 */
export function absolutePath(path: string): string {
  try {
    return join(realPath(dirname(path)), basename(path))
  } catch {
    return under(process.cwd(), path)
  }
}

/** `path` taken from `folder` when relative, joined without tidying (see realPath). */
function under(folder: string, path: string): string {
  return isAbsolute(path) ? path : `${folder}${sep}${path}`
}
