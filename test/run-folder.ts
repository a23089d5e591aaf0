import {spawnSync} from 'node:child_process'
import {readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {hostPlatform, leftByRunning, type Platform} from '../src/lib/platform.js'
import {useRunFolder} from '../scripts/run-folder.js'
import {mountPoints} from './mount-table.js'

const PREFIX = 'gw-test-run-'

/**
 * What the tests make in the temporary folder (homes, journals, state files: about 500 MB a run of
 * npm test, and a folder for each test StrykerJS runs against each mutant) goes into one folder of
 * this run's, removed when the run ends. StrykerJS runs it too (vitest.mutate.config.ts).
 */
export default function runFolder(): () => void {
  // A run killed before its end (StrykerJS ends a test run that outlives its timeout) left its folder.
  removeDeadRuns(tmpdir())
  // As the temporary folder itself: the tests that run gw as another user make folders in it too.
  // The workers, started after this, take it with the rest of the environment. A run's terminals
  // had left thousands of tmux's sockets in /tmp.
  const run = useRunFolder(`${PREFIX}${process.pid}-`, 0o1777)
  return () => removeRun(run)
}

/**
 * Removes the run folders in `parent` whose run has ended: each is named for the process that made
 * it. A folder whose process runs, or whose pid another process took since, is left.
 */
export function removeDeadRuns(parent: string, platform: Pick<Platform, 'isRunning'> = hostPlatform()): string[] {
  const dead = readdirSync(parent).filter((name) => {
    const pid = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]
    return pid !== undefined && !leftByRunning(Number(pid), platform)
  })
  for (const name of dead) {
    try {
      removeRun(join(parent, name))
    } catch {
      // Another user's, in a shared /tmp: theirs to remove.
    }
  }
  return dead
}

function removeRun(run: string): void {
  // A test ended before it unmounted what it mounted there: unmounted first, innermost first.
  for (const point of mountPoints().filter((each) => each.startsWith(`${run}/`)).reverse()) spawnSync('umount', [point])
  rmSync(run, {recursive: true, force: true, maxRetries: 3})
}
