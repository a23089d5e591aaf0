import {mkdirSync, mkdtempSync, realpathSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {defaultJournalPath, journalTarget} from '../../../src/batch/journal-identity.js'
import {UsageError} from '../../../src/errors.js'
import {expectThrow} from '../../expect-error.js'
import {writeJournal} from '../../journal-text.js'

// A journal in gw's data directory that fails as it is read, for the look-up of a batch's rows
// moved to another path (journal-identity.ts): the faults are injected into node:fs, which a
// machine run as root (CI) cannot otherwise make fail on a regular file.
const faults = vi.hoisted(() => ({open: undefined as string | undefined, read: undefined as string | undefined, faultyFd: -1, opened: 0, closed: 0}))
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>()
  const fail = (code: string) => Object.assign(new Error(`${code}: injected`), {code})
  return {
    ...fs,
    openSync: (...args: Parameters<typeof fs.openSync>) => {
      if (faults.open && String(args[0]).endsWith('faulty.ndjson')) throw fail(faults.open)
      const fd = fs.openSync(...args)
      faults.opened++
      if (String(args[0]).endsWith('faulty.ndjson')) faults.faultyFd = fd
      return fd
    },
    readSync: (...args: Parameters<typeof fs.readSync>) => {
      if (faults.read && args[0] === faults.faultyFd) throw fail(faults.read)
      return fs.readSync(...args)
    },
    closeSync: (fd: number) => {
      faults.closed++
      fs.closeSync(fd)
    },
  }
})

afterEach(() => Object.assign(faults, {open: undefined, read: undefined, faultyFd: -1, opened: 0, closed: 0}))

const to = journalTarget('http://127.0.0.1:4010', 'TEST')
const moved = {path: '/data/moved.csv', sha256: 'a'.repeat(64)}
const header = JSON.stringify({journal: 1, command: 'refund create', input: '/data/first.csv', input_sha256: 'a'.repeat(64), target: to, created_at: '2026-11-22T10:00:00.000Z'}) + '\n'

function dataDir(): {dir: string; faulty: string; found: string} {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gw-same-rows-')))
  mkdirSync(join(dir, 'journals'))
  const faulty = join(dir, 'journals', 'faulty.ndjson')
  const found = join(dir, 'journals', 'found.ndjson')
  writeJournal(faulty, header)
  writeJournal(found, header)
  return {dir, faulty, found}
}

describe('the journals looked through for the same rows, when one fails as it is read', () => {
  it('one that cannot be read is refused, naming it: it may be the journal those rows were sent under (exit 2)', () => {
    const {dir, faulty} = dataDir()
    faults.read = 'EIO'
    const error = expectThrow(() => defaultJournalPath(dir, 'refund create', moved, to), UsageError, `The batch journal ${faulty} cannot be read (EIO): nothing was sent, and it is left as it is`)
    expect(error.exitCode).toBe(2)
    // Every file opened was closed, the failed one too.
    expect(faults.closed).toBe(faults.opened)
  })

  it('one that cannot be opened is refused too', () => {
    const {dir, faulty} = dataDir()
    faults.open = 'EACCES'
    expectThrow(() => defaultJournalPath(dir, 'refund create', moved, to), UsageError, `The batch journal ${faulty} cannot be read (EACCES: permission denied)`)
    expect(faults.closed).toBe(faults.opened)
  })

  it('one removed since the folder was listed is passed over', () => {
    const {dir, found} = dataDir()
    faults.open = 'ENOENT'
    expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(found)
    expect(faults.opened).toBeGreaterThan(0)
    expect(faults.closed).toBe(faults.opened)
  })
})
