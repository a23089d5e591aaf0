import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {afterAll, beforeAll, expect} from 'vitest'
import {hostPlatform} from '../src/lib/platform.js'
import {mountPoints} from './mount-table.js'

const root = process.getuid?.() === 0

const PREFIX = 'gw-overlay-'

/** Whether an overlay can be mounted here (root, and a kernel with overlayfs): one is mounted and unmounted at once to tell. */
export const overlaysMountable = root && (unmountOrphans(), probe())

/** What a test title adds when overlays cannot be mounted here. */
export const OVERLAY_SKIPPED = overlaysMountable ? '' : root ? ' (skipped: this kernel mounts no overlay here; CI does)' : ' (skipped: mount -t overlay needs root; CI runs it)'

export interface Overlay {
  merged: string
  upper: string
}

/**
 * An overlay for the tests of one describe block: mounted before they run, unmounted after them.
 * Mounted while the block was collected instead, it stayed mounted whenever its tests were all
 * filtered out (afterAll then never runs); StrykerJS's runs left thousands behind that way, and
 * every gw that reads the mount table paid for them.
 */
export function overlayForBlock(): Overlay {
  let mounted: (Overlay & {unmount(): void}) | undefined
  beforeAll(() => {
    if (!overlaysMountable) return
    const overlay = mountOverlay()
    if (typeof overlay === 'string') throw new Error(overlay)
    mounted = overlay
  })
  afterAll(() => mounted?.unmount())
  const held = () => mounted ?? expect.unreachable('the overlay is mounted only while its block runs, and only where overlaysMountable')
  return {
    get merged() {
      return held().merged
    },
    get upper() {
      return held().upper
    },
  }
}

/**
 * An overlay in a folder of its own, with the pid of the process that mounted it, or the mount's
 * complaint where none can be mounted. Unmounted, its folder goes too.
 */
function mountOverlay(): (Overlay & {unmount(): void}) | string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), PREFIX)))
  for (const name of ['lower', 'upper', 'work', 'merged']) mkdirSync(join(dir, name))
  writeFileSync(join(dir, 'pid'), String(process.pid))
  const merged = join(dir, 'merged')
  const unmount = () => {
    spawnSync('umount', [merged])
    rmSync(dir, {recursive: true, force: true})
  }
  const mounted = spawnSync('mount', ['-t', 'overlay', 'overlay', '-o', `lowerdir=${dir}/lower,upperdir=${dir}/upper,workdir=${dir}/work`, merged], {encoding: 'utf8'})
  if (mounted.status === 0) return {merged, upper: join(dir, 'upper'), unmount}
  unmount()
  return `mount -t overlay failed: ${mounted.stderr || mounted.error?.message}`
}

/**
 * Unmounts the overlays of test processes that ended without unmounting them (StrykerJS ends a
 * worker whose mutant ran out of time, and afterAll never runs there), wherever they were made.
 */
function unmountOrphans(): void {
  for (const merged of mountPoints().filter((point) => /\/gw-overlay-[^/]+\/merged$/.test(point))) {
    const dir = dirname(merged)
    const pid = mountedBy(dir)
    // A pid used again keeps an orphan mounted: harmless.
    if (pid !== undefined && hostPlatform().isRunning(pid)) continue
    spawnSync('umount', [merged])
    rmSync(dir, {recursive: true, force: true})
  }
}

/** The pid of the process that mounted the overlay in `dir`; undefined until it has said. */
function mountedBy(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'))
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function probe(): boolean {
  const overlay = mountOverlay()
  if (typeof overlay === 'string') return false
  overlay.unmount()
  return true
}
