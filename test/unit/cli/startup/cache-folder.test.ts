import {chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

// Gw's cache folder holds what gw runs and prints at start (V8's code cache of the
// bundle, the root help). One another user made first (GW_CACHE_DIR or XDG_CACHE_HOME under /tmp,
// as on CI runners), or can write, is neither read nor written (bin/start.js ownCacheDir).
const root = join(import.meta.dirname, '..', '..', '..', '..')
const require = createRequire(import.meta.url)
const start = require(join(root, 'bin', 'start.js')) as {ownCacheDir(dir?: string, uid?: number): string | undefined}
const posix = process.platform !== 'win32'
const asRoot = process.getuid?.() === 0

const made: string[] = []
afterAll(() => made.forEach((dir) => rmSync(dir, {recursive: true, force: true})))

/** A folder of the user's own, 0700, in the system's temporary folder. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-cache-'))
  made.push(dir)
  return dir
}

describe.skipIf(!posix)("gw's cache folder, used only where it is the user's alone (POSIX; Windows tells no owners)", () => {
  it("is used when the user's, 0700, or not made yet in a folder of the user's", () => {
    const dir = folder()
    mkdirSync(join(dir, 'gw'), {mode: 0o700})
    expect(start.ownCacheDir(join(dir, 'gw'))).toBe(join(dir, 'gw'))
    expect(start.ownCacheDir(join(dir, 'none', 'gw'))).toBe(join(dir, 'none', 'gw'))
  })

  it('is not used when others can write it, or the folder it is (to be) made in, unless that one is sticky as /tmp is', () => {
    const dir = folder()
    mkdirSync(join(dir, 'gw'))
    chmodSync(join(dir, 'gw'), 0o777)
    expect(start.ownCacheDir(join(dir, 'gw'))).toBeUndefined()
    chmodSync(join(dir, 'gw'), 0o700)
    chmodSync(dir, 0o777)
    expect(start.ownCacheDir(join(dir, 'gw'))).toBeUndefined()
    expect(start.ownCacheDir(join(dir, 'none', 'gw'))).toBeUndefined()
    chmodSync(dir, 0o1777)
    expect(start.ownCacheDir(join(dir, 'gw'))).toBe(join(dir, 'gw'))
    chmodSync(dir, 0o700)
  })

  it('is not used when another user owns it (this process seen as uid 1001, or 1003: no root needed)', () => {
    const dir = folder()
    mkdirSync(join(dir, 'gw'), {mode: 0o700})
    // Root's folders are trusted as ssh trusts them: as root, the folder is given to uid 1002 first.
    if (asRoot) chownSync(join(dir, 'gw'), 1002, 1002)
    const other = process.getuid!() === 1001 ? 1003 : 1001
    expect(start.ownCacheDir(join(dir, 'gw'), other)).toBeUndefined()
  })

  it.skipIf(!asRoot)("is not used, as root, when uid 1001 owns it (chown needs root: skipped when not root)", () => {
    const dir = folder()
    mkdirSync(join(dir, 'gw'), {mode: 0o700})
    chownSync(join(dir, 'gw'), 1001, 1001)
    expect(start.ownCacheDir(join(dir, 'gw'))).toBeUndefined()
  })
})
