// A temporary folder of one run, of the tests or the benchmarks: what the run and the programs it
// starts write in the temporary folder goes into it, removed at the end, so that runs killed or
// run again and again do not fill the disk.
import {chmodSync, mkdtempSync, realpathSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

/**
 * Makes the folder, with `mode`, and makes it the temporary folder of this process and what it
 * starts after: os.tmpdir() reads TMPDIR, and TEMP and TMP on Windows; tmux ignores all three, and
 * leaves its sockets after its servers, in TMUX_TMPDIR. Returns its path.
 */
export function useRunFolder(prefix, mode) {
  const run = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  chmodSync(run, mode)
  Object.assign(process.env, {TMPDIR: run, TEMP: run, TMP: run, TMUX_TMPDIR: run})
  return run
}
