import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {isRunning, readHolder} from '../../../src/lib/lock-file.js'

// A system without /proc (macOS): a process is running when a signal reaches it, as the kernel says.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  return {...fs, existsSync: (path: string) => !path.startsWith('/proc') && fs.existsSync(path)}
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('file locks where there is no /proc', () => {
  it('take a process the signal reaches as running', () => {
    vi.spyOn(process, 'kill').mockImplementation(() => true)
    expect(isRunning(2_000_000_000)).toBe(true)
  })

  it('still take no holder from a lock naming no process (0 or below), which every signal would reach', () => {
    vi.spyOn(process, 'kill').mockImplementation(() => true)
    const lock = join(mkdtempSync(join(tmpdir(), 'gw-no-proc-')), 'j.lock')
    for (const text of ['0', '-1']) {
      writeFileSync(lock, text)
      expect(readHolder(lock), text).toMatchObject({alive: false})
    }
    writeFileSync(lock, '2000000000')
    expect(readHolder(lock)).toMatchObject({pid: 2_000_000_000, alive: true})
  })
})
