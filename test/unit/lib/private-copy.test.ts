import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {copyPlace, keepPrivateCopy, sweep} from '../../../src/lib/private-copy.js'

// A stdin batch's copy of its rows is gone however gw ends (kill -9 too).
const folder = () => mkdtempSync(join(tmpdir(), 'gw-copy-'))
async function* rows() {
  yield 'amount,reference\n'
  yield Buffer.from('1000,a\n')
}

describe('where a copy is kept, by platform', () => {
  it('is unlinked on Linux with /proc, and swept elsewhere', () => {
    expect(copyPlace('linux', true)).toBe('unlinked')
    expect(copyPlace('linux', false)).toBe('swept')
    expect(copyPlace('darwin', true)).toBe('swept')
    expect(copyPlace('win32', false)).toBe('swept')
  })
})

describe.skipIf(copyPlace() !== 'unlinked')('an unlinked copy (Linux)', () => {
  it('has no name in the folder from the start, and reads whole, again and again, until disposed', async () => {
    const dir = folder()
    const copy = await keepPrivateCopy(rows(), {folder: dir})
    expect(readdirSync(dir)).toEqual([])
    expect(readFileSync(copy.path, 'utf8')).toBe('amount,reference\n1000,a\n')
    expect(readFileSync(copy.path, 'utf8')).toBe('amount,reference\n1000,a\n')
    expect(statSync(copy.path).mode & 0o777).toBe(0o600)
    await copy.dispose()
    expect(() => readFileSync(copy.path)).toThrow()
  })
})

describe('a swept copy (macOS, Windows)', () => {
  it('is a 0600 file in a folder named after the process, removed when disposed', async () => {
    const dir = folder()
    const copy = await keepPrivateCopy(rows(), {folder: dir, place: 'swept'})
    expect(readdirSync(dir)).toEqual([expect.stringMatching(new RegExp(`^gw-batch-${process.pid}-`))])
    expect(readFileSync(copy.path, 'utf8')).toBe('amount,reference\n1000,a\n')
    if (process.platform !== 'win32') expect(statSync(copy.path).mode & 0o777).toBe(0o600)
    await copy.dispose()
    expect(readdirSync(dir)).toEqual([])
  })

  it("the next copy removes what a killed gw left, once its pid runs no more, and nothing else", async () => {
    const dir = folder()
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {encoding: 'utf8'})
    const dead = Number(ended.stdout)
    for (const name of [`gw-batch-${dead}-abc123`, `gw-batch-${process.pid}-def456`, 'gw-batch-xyz', 'other']) mkdirSync(join(dir, name))
    await sweep(dir, (pid) => pid !== dead)
    expect(readdirSync(dir).sort()).toEqual([`gw-batch-${process.pid}-def456`, 'gw-batch-xyz', 'other'])
    mkdirSync(join(dir, `gw-batch-${dead}-abc123`))
    const copy = await keepPrivateCopy(rows(), {folder: dir, place: 'swept'})
    expect(readdirSync(dir)).not.toContain(`gw-batch-${dead}-abc123`)
    await copy.dispose()
  })

  it("sweeps a folder of this process's pid that it did not make (the pid came round again), never one it keeps", async () => {
    const dir = folder()
    mkdirSync(join(dir, `gw-batch-${process.pid}-left01`))
    const copy = await keepPrivateCopy(rows(), {folder: dir, place: 'swept'})
    expect(readdirSync(dir)).toEqual([expect.stringMatching(new RegExp(`^gw-batch-${process.pid}-(?!left01)`))])
    await sweep(dir)
    expect(readFileSync(copy.path, 'utf8')).toBe('amount,reference\n1000,a\n')
    await copy.dispose()
    expect(readdirSync(dir)).toEqual([])
  })
})
