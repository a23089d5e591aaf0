import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {basename, dirname, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import runFolder from '../../run-folder.js'

const before = {TMPDIR: process.env.TMPDIR, TMUX_TMPDIR: process.env.TMUX_TMPDIR}
afterEach(() => Object.assign(process.env, before))

describe("a run's temporary folder (test/run-folder.ts)", () => {
  it('is the temporary folder of this worker, and tmux keeps its sockets there too', () => {
    expect(basename(tmpdir())).toMatch(/^gw-test-run-/)
    expect(process.env.TMUX_TMPDIR).toBe(tmpdir())
  })

  it('is made in the temporary folder, named for tmux and os.tmpdir(), and removed with what is in it', () => {
    const remove = runFolder()
    const run = process.env.TMPDIR!
    expect(dirname(run)).toBe(before.TMPDIR)
    expect(process.env.TMUX_TMPDIR).toBe(run)
    expect(tmpdir()).toBe(run)
    mkdirSync(join(run, 'tmux-0'))
    writeFileSync(join(run, 'tmux-0', 'gw-test-1'), '')
    remove()
    expect(existsSync(run)).toBe(false)
  })
})
