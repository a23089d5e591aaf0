import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {basename, dirname, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {mountPoints} from '../../mount-table.js'
import runFolder, {removeDeadRuns} from '../../run-folder.js'

const root = process.getuid?.() === 0

const before = {TMPDIR: process.env.TMPDIR, TEMP: process.env.TEMP, TMP: process.env.TMP, TMUX_TMPDIR: process.env.TMUX_TMPDIR}
afterEach(() => {
  for (const [name, value] of Object.entries(before)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

describe("a run's temporary folder (test/run-folder.ts)", () => {
  it('is the temporary folder of this worker, and tmux keeps its sockets there too', () => {
    expect(basename(tmpdir())).toMatch(/^gw-test-run-/)
    expect([process.env.TEMP, process.env.TMP, process.env.TMUX_TMPDIR]).toEqual([tmpdir(), tmpdir(), tmpdir()])
  })

  it('is made in the temporary folder, named for tmux and os.tmpdir() (TEMP and TMP on Windows), and removed with what is in it', () => {
    const remove = runFolder()
    const run = process.env.TMPDIR!
    expect(dirname(run)).toBe(before.TMPDIR)
    expect([process.env.TEMP, process.env.TMP, process.env.TMUX_TMPDIR]).toEqual([run, run, run])
    expect(tmpdir()).toBe(run)
    // Anyone may make a folder in it, as in /tmp: the tests that run gw as another user do.
    if (process.platform !== 'win32') expect(statSync(run).mode & 0o7777).toBe(0o1777)
    mkdirSync(join(run, 'tmux-0'))
    writeFileSync(join(run, 'tmux-0', 'gw-test-1'), '')
    remove()
    expect(existsSync(run)).toBe(false)
  })

  it("is named for the process that made it, so that a killed run's folder can be told", () => {
    const remove = runFolder()
    try {
      expect(basename(process.env.TMPDIR!)).toMatch(new RegExp(`^gw-test-run-${process.pid}-\\w{6}$`))
    } finally {
      remove()
    }
  })

  it('removes the folders of runs that ended, and leaves those of runs that go on and anything else', () => {
    const parent = mkdtempSync(join(tmpdir(), 'dead-runs-'))
    try {
      const names = ['gw-test-run-101-aaaaaa', 'gw-test-run-202-bbbbbb', `gw-test-run-${process.pid}-cccccc`, 'gw-test-run-dddddd', 'gw-test-run-303', 'other-404-eeeeee']
      for (const name of names) {
        mkdirSync(join(parent, name, 'home'), {recursive: true})
        writeFileSync(join(parent, name, 'home', 'journal'), '')
      }
      // 202 runs; 101 and 303 do not; this process's own pid, named before it made a folder, is a dead run's that had it first.
      const removed = removeDeadRuns(parent, {isRunning: (pid) => pid === 202 || pid === process.pid})
      expect(removed.sort()).toEqual(['gw-test-run-101-aaaaaa', `gw-test-run-${process.pid}-cccccc`].sort())
      expect(readdirSync(parent).sort()).toEqual(['gw-test-run-202-bbbbbb', 'gw-test-run-303', 'gw-test-run-dddddd', 'other-404-eeeeee'])
    } finally {
      rmSync(parent, {recursive: true, force: true})
    }
  })

  it.skipIf(!root)(`unmounts what a killed run left mounted in its folder, the inner mount first, then removes the folder${root ? '' : ' (skipped: mounting needs root; CI runs it)'}`, () => {
    const parent = mkdtempSync(join(tmpdir(), 'dead-mounts-'))
    const outer = join(parent, 'gw-test-run-101-aaaaaa', 'mounted')
    const inner = join(outer, 'inner')
    try {
      mkdirSync(outer, {recursive: true})
      expect(spawnSync('mount', ['-t', 'tmpfs', 'gw-dead-run', outer]).status).toBe(0)
      mkdirSync(inner)
      expect(spawnSync('mount', ['-t', 'tmpfs', 'gw-dead-run', inner]).status).toBe(0)
      writeFileSync(join(inner, 'journal'), '')
      expect(removeDeadRuns(parent, {isRunning: () => false})).toEqual(['gw-test-run-101-aaaaaa'])
      expect(mountPoints().filter((point) => point.startsWith(parent))).toEqual([])
      expect(readdirSync(parent)).toEqual([])
    } finally {
      for (const point of mountPoints().filter((each) => each.startsWith(parent)).reverse()) spawnSync('umount', [point])
      rmSync(parent, {recursive: true, force: true})
    }
  })
})
