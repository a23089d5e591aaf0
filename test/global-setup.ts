import {execFileSync, spawnSync} from 'node:child_process'
import {chmodSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {mountPoints} from './mount-table.js'

/**
 * End-to-end tests run the built CLI: rebuild first when a source file is newer than the build.
 * What the tests make in the temporary folder (homes, journals, state files: about 500 MB a run)
 * goes into one folder of this run's, removed when the run ends.
 */
export default function setup(): () => void {
  const root = join(import.meta.dirname, '..')
  const manifest = join(root, 'oclif.manifest.json')
  if (!existsSync(manifest) || newestSource(join(root, 'src')) > statSync(manifest).mtimeMs) execFileSync('npm', ['run', 'build'], {cwd: root, stdio: 'inherit'})
  const run = realpathSync(mkdtempSync(join(tmpdir(), 'gw-test-run-')))
  // As the temporary folder itself: the tests that run gw as another user make folders in it too.
  chmodSync(run, 0o1777)
  // The workers, started after this, take it with the rest of the environment (os.tmpdir() reads it).
  process.env.TMPDIR = run
  return () => {
    // A test ended before it unmounted what it mounted there: unmounted first, innermost first.
    for (const point of mountPoints().filter((each) => each.startsWith(`${run}/`)).reverse()) spawnSync('umount', [point])
    rmSync(run, {recursive: true, force: true, maxRetries: 3})
  }
}

function newestSource(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}
