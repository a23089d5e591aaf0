import {spawnSync} from 'node:child_process'
import {rmSync} from 'node:fs'
import {useRunFolder} from '../scripts/run-folder.js'
import {mountPoints} from './mount-table.js'

/**
 * What the tests make in the temporary folder (homes, journals, state files: about 500 MB a run of
 * npm test, and a folder for each test StrykerJS runs against each mutant) goes into one folder of
 * this run's, removed when the run ends. StrykerJS runs it too (vitest.mutate.config.ts).
 */
export default function runFolder(): () => void {
  // As the temporary folder itself: the tests that run gw as another user make folders in it too.
  // The workers, started after this, take it with the rest of the environment. A run's terminals
  // had left thousands of tmux's sockets in /tmp.
  const run = useRunFolder('gw-test-run-', 0o1777)
  return () => {
    // A test ended before it unmounted what it mounted there: unmounted first, innermost first.
    for (const point of mountPoints().filter((each) => each.startsWith(`${run}/`)).reverse()) spawnSync('umount', [point])
    rmSync(run, {recursive: true, force: true, maxRetries: 3})
  }
}
