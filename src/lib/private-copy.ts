import {randomBytes} from 'node:crypto'
import {constants, existsSync} from 'node:fs'
import {lstat, mkdtemp, open, readdir, rm, unlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {leftByRunning} from './platform.js'

// What can be read once only (stdin, a pipe), kept in a private file to be read again, and gone
// however the process ends: a kill -9 must not leave a copy of the rows (card holders, amounts,
// references) in TMPDIR for anyone who can read it later.

/** A private copy, read again by its path, until dispose(). */
export interface PrivateCopy {
  readonly path: string
  dispose(): Promise<void>
}

/**
 * How a copy is kept on this platform. `unlinked` where a file's name can go at once while the
 * process reads it on through a path of its descriptor (Linux: /proc/self/fd/N opens the file
 * anew): nothing is left to remove, whatever ends the process. Elsewhere (macOS's /dev/fd/N shares
 * the one read offset, Windows has no such path) a named file in a private folder named after the
 * process, `swept`: removed when done, and a copy a killed gw left is removed by the next one that
 * keeps a copy, once no process of that pid runs.
 */
export type CopyPlace = 'unlinked' | 'swept'

export function copyPlace(platform: NodeJS.Platform = process.platform, procFd = existsSync('/proc/self/fd')): CopyPlace {
  return platform === 'linux' && procFd ? 'unlinked' : 'swept'
}

const PREFIX = 'gw-batch-'

/** The copies this process keeps now: its own pid on a folder it did not make is a dead process's. */
const madeHere = new Set<string>()

/** Keeps `chunks` in a file only this user can read (0600, made afresh), as `place` says. */
export async function keepPrivateCopy(chunks: AsyncIterable<Buffer | string>, {folder = tmpdir(), place = copyPlace()}: {folder?: string; place?: CopyPlace} = {}): Promise<PrivateCopy> {
  if (place === 'unlinked') return unlinkedCopy(chunks, folder)
  await sweep(folder)
  const own = await mkdtemp(join(folder, `${PREFIX}${process.pid}-`))
  madeHere.add(own)
  const dispose = async () => {
    await rm(own, {recursive: true, force: true})
    madeHere.delete(own)
  }
  try {
    await writeFile(join(own, 'input'), chunks, {mode: 0o600, flag: 'wx'})
  } catch (err) {
    await dispose()
    throw err
  }
  return {path: join(own, 'input'), dispose}
}

async function unlinkedCopy(chunks: AsyncIterable<Buffer | string>, folder: string): Promise<PrivateCopy> {
  const name = join(folder, `${PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`)
  const handle = await open(name, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)
  try {
    // Gone from the folder before a byte is in it: only this process's descriptor reaches it now.
    await unlink(name)
    await handle.writeFile(chunks)
  } catch (err) {
    await handle.close()
    throw err
  }
  return {path: `/proc/self/fd/${handle.fd}`, dispose: () => handle.close()} // only where copyPlace found this platform's /proc
}

/** Removes the copies of gw processes that ended without removing theirs (killed): this user's only, in `folder`. */
export async function sweep(folder: string, alive: (pid: number) => boolean = leftByRunning): Promise<void> {
  let names: string[]
  try {
    names = await readdir(folder)
  } catch {
    return
  }
  const uid = process.getuid?.()
  for (const name of names) {
    const pid = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]
    if (pid === undefined || madeHere.has(join(folder, name)) || alive(Number(pid))) continue
    const stat = await lstat(join(folder, name)).catch(() => undefined)
    if (!stat?.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue
    await rm(join(folder, name), {recursive: true, force: true})
  }
}

