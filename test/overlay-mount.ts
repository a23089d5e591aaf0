import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, realpathSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, expect} from 'vitest'

const root = process.getuid?.() === 0

/** Whether an overlay can be mounted here (root, and a kernel with overlayfs): one is mounted and unmounted at once to tell. */
export const overlaysMountable = root && probe()

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

/** An overlay in a folder of its own, or the mount's complaint where none can be mounted. */
function mountOverlay(): (Overlay & {unmount(): void}) | string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gw-overlay-')))
  for (const name of ['lower', 'upper', 'work', 'merged']) mkdirSync(join(dir, name))
  const merged = join(dir, 'merged')
  const mounted = spawnSync('mount', ['-t', 'overlay', 'overlay', '-o', `lowerdir=${dir}/lower,upperdir=${dir}/upper,workdir=${dir}/work`, merged], {encoding: 'utf8'})
  if (mounted.status !== 0) return `mount -t overlay failed: ${mounted.stderr || mounted.error?.message}`
  return {merged, upper: join(dir, 'upper'), unmount: () => void spawnSync('umount', [merged])}
}

function probe(): boolean {
  const overlay = mountOverlay()
  if (typeof overlay === 'string') return false
  overlay.unmount()
  return true
}
