import {spawnSync} from 'node:child_process'
import {chmodSync, mkdtempSync, realpathSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {mountPoints} from './mount-table.js'

/**
 * What the tests make in the temporary folder (homes, journals, state files: about 500 MB a run of
 * npm test, and a folder for each test StrykerJS runs against each mutant) goes into one folder of
 * this run's, removed when the run ends. StrykerJS runs it too (vitest.mutate.config.ts).
 */
export default function runFolder(): () => void {
  const run = realpathSync(mkdtempSync(join(tmpdir(), 'gw-test-run-')))
  // As the temporary folder itself: the tests that run gw as another user make folders in it too.
  chmodSync(run, 0o1777)
  // The workers, started after this, take it with the rest of the environment (os.tmpdir() reads it).
  process.env.TMPDIR = run
  // tmux ignores TMPDIR, and its sockets outlive its servers: a run's terminals left thousands in /tmp.
  process.env.TMUX_TMPDIR = run
  return () => {
    // A test ended before it unmounted what it mounted there: unmounted first, innermost first.
    for (const point of mountPoints().filter((each) => each.startsWith(`${run}/`)).reverse()) spawnSync('umount', [point])
    rmSync(run, {recursive: true, force: true, maxRetries: 3})
  }
}
