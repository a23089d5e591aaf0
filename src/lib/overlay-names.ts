import {statSync} from 'node:fs'
import {isAbsolute, join, relative, sep} from 'node:path'
import {hostPlatform, type Platform} from './platform.js'

// A file on an overlay file system (a container's own layer) has two names no symlink or bind
// mount joins: its path through the overlay (merged) and its path in the overlay's upper
// directory. The kernel's lock taken through one is not seen through the other: the overlay locks
// an inode of its own. What the mount table says of overlays gives each name the other.

/** An overlay mount, as the mount table writes it. */
export interface Overlay {
  /** Where it is mounted: its merged view. */
  mountPoint: string
  /** The part of the overlay mounted there (`/` but for a bind mount of a folder in it). */
  root: string
  /** The upper directory as it was mounted: absolute, or relative to a folder no one can know now. */
  upperDir?: string
}

/** Another name of a file, and whether the name a process used is the overlay's (merged) one. */
export interface OverlayNames {
  /** The file's other name, where it can be reached; undefined where it cannot (another mount namespace: a container's host). */
  other?: string
  /** The file is on the overlay itself: its upper directory's name is the other one. */
  merged: boolean
  /** The overlay's upper directory as the mount table names it, for a message. */
  upperDir?: string
}

/**
 * The overlay mounts of the mount table (Linux's /proc/self/mountinfo): `36 35 0:39 / /merged rw -
 * overlay overlay rw,lowerdir=...,upperdir=...,workdir=...`. None where there is no mount table.
 */
export function overlays(mountInfo: string | undefined): Overlay[] {
  if (mountInfo === undefined) return []
  return mountInfo.split('\n').flatMap((line) => {
    const fields = line.split(' ')
    // Six fields come before the separator (id, parent, device, root, mount point, options), and optional ones between.
    const dash = fields.indexOf('-')
    if (dash < 6 || fields[dash + 1] !== 'overlay') return []
    return [{mountPoint: unescapeMountField(fields[4]!), root: unescapeMountField(fields[3]!), upperDir: upperDirOf(fields[dash + 3])}]
  })
}

/**
 * The overlay names of the file at `file` (a real path): its upper directory's name when it is on
 * an overlay, or its merged name when it is in an overlay's upper directory; undefined for any
 * other file. `exists` says whether a name can be reached from here.
 */
export function overlayNames(file: string, mounts: Overlay[] = overlays(readMountInfo()), exists: (path: string) => boolean = reachable): OverlayNames | undefined {
  const on = mounts.filter((mount) => under(file, mount.mountPoint) !== undefined).sort((a, b) => b.mountPoint.length - a.mountPoint.length)[0]
  if (on) {
    const inside = under(file, on.mountPoint)!
    const upper = on.upperDir !== undefined && isAbsolute(on.upperDir) ? join(on.upperDir, on.root, inside) : undefined
    return {merged: true, upperDir: on.upperDir, ...(upper !== undefined && exists(upper) ? {other: upper} : {})}
  }
  for (const mount of mounts) {
    if (mount.upperDir === undefined || !isAbsolute(mount.upperDir)) continue
    const inside = under(file, join(mount.upperDir, mount.root))
    if (inside === undefined) continue
    const merged = join(mount.mountPoint, inside)
    return {merged: false, upperDir: mount.upperDir, ...(exists(merged) ? {other: merged} : {})}
  }
  return undefined
}

/** `path` relative to `folder` when it is inside it (or is it: ''), by whole names; undefined otherwise. */
function under(path: string, folder: string): string | undefined {
  const inside = relative(folder, path)
  return !inside.startsWith(`..${sep}`) && inside !== '..' && !isAbsolute(inside) ? inside : undefined
}

/** The upper directory an overlay's options name (`lowerdir=...,upperdir=...`): a comma escaped with a backslash belongs to its value. */
function upperDirOf(options: string | undefined): string | undefined {
  const name = 'upperdir='
  const option = options?.split(/(?<!\\),/).find((each) => each.startsWith(name))
  return option === undefined ? undefined : unescapeMountField(option.slice(name.length).replaceAll('\\,', ','))
}

/** A mount table field's octal escapes (`\040` a space, `\134` a backslash) read back. */
export function unescapeMountField(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)))
}

function reachable(path: string): boolean {
  return statSync(path, {throwIfNoEntry: false})?.isFile() === true
}

/** The mount table of this process's mount namespace (Linux's, through the platform); undefined where there is none (a system other than Linux). */
export function readMountInfo(platform: Pick<Platform, 'procFile'> = hostPlatform()): string | undefined {
  return platform.procFile('self/mountinfo')
}

/** A file on an overlay whose other name cannot be told: another gw could write it through that name unseen, so it is refused. */
export class OverlayNameError extends Error {
  /** Why the upper directory's name of the file cannot be told. */
  readonly reason: string

  constructor(
    /** The file's real path. */
    readonly path: string,
    /** The overlay's upper directory, as the mount table names it. */
    upperDir: string | undefined,
  ) {
    const reason = upperDir === undefined ? 'the mount table names no upper directory of it' : `the mount table names its upper directory only as it was given (${upperDir})`
    super(`${path} is on an overlay file system, and ${reason}: a gw reaching the file there would not meet this one's lock`)
    this.reason = reason
  }
}

/**
 * The locks a file's other name needs: the kernel's lock taken through an overlay is not seen
 * through its upper directory, nor the other way round, so a file on an overlay is locked under
 * both names (`lock` takes one, as the caller takes its own), the upper directory's first, in the
 * one order every gw takes them: two gw, one on each name, meet at the first. `before` takes the
 * other name's lock where it comes first (the file's own name is the overlay's), `after` where it
 * comes second. An overlay whose upper directory cannot be told from the mount table is refused
 * (OverlayNameError). One whose upper directory is out of reach (this gw in a container) is locked
 * by the overlay's name alone: a gw that reaches the file by the upper name (on the container's
 * host) finds the overlay in its own mount table, and takes that lock too.
 */
export function otherNames(file: string, lock: (name: string) => {close(): void}, names: OverlayNames | undefined = overlayNames(file)): {before(): void; after(): void; release(): void} {
  if (names?.merged && (names.upperDir === undefined || !isAbsolute(names.upperDir))) throw new OverlayNameError(file, names.upperDir)
  let held: {close(): void} | undefined
  const take = (first: boolean) => {
    if (names?.other !== undefined && names.merged === first) held = lock(names.other)
  }
  return {before: () => take(true), after: () => take(false), release: () => held?.close()}
}
