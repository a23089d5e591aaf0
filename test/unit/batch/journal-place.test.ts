import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs'
import {DatabaseSync} from 'node:sqlite'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {Journal, type JournalDisk, JournalReplacedError} from '../../../src/batch/journal.js'
import {JournalPlace, whatIsAt} from '../../../src/batch/journal-place.js'
import {JOURNAL_SCHEMA} from '../../../src/batch/journal-file.js'
import {WriteError} from '../../../src/errors.js'
import type {FileAt, Platform} from '../../../src/lib/platform.js'
import {expectReject} from '../../expect-error.js'
import {journalText} from '../../journal-text.js'

const folder = () => mkdtempSync(join(tmpdir(), 'gw-journal-place-'))
const HEADER = '{"journal":1,"command":"refund create"}'

/** A system whose file at a path is what the test says, changed as it goes. */
function system(at: FileAt | (() => FileAt)): Pick<Platform, 'fileAt'> & {asked: number} {
  const platform = {
    asked: 0,
    fileAt: () => {
      platform.asked++
      return typeof at === 'function' ? at() : at
    },
  }
  return platform
}

describe('JournalPlace: the journal still the file at its path', () => {
  it('while the path names the file held (its identity), it is; once it names nothing, it says so', () => {
    let now: FileAt = {exists: true, id: '1:2'}
    const place = JournalPlace.of('/j', HEADER, system(() => now))
    expect(place.path).toBe('/j')
    expect(place.replacedBy()).toBeUndefined()
    now = {exists: false}
    expect(place.replacedBy()).toBe('nothing')
  })

  it('once it names another file, says what that file is', () => {
    const file = join(folder(), 'j.sqlite')
    writeFileSync(file, 'notes\n')
    let now: FileAt = {exists: true, id: '1:2'}
    const place = JournalPlace.of(file, HEADER, system(() => now))
    now = {exists: true, id: '1:3'}
    expect(place.replacedBy()).toBe('a file that is no batch journal')
  })

  it.each([
    ['when opened (a Windows file system that keeps no file index)', {exists: true, id: undefined}, {exists: true, id: '1:3'}],
    ['now', {exists: true, id: '1:2'}, {exists: true, id: undefined}],
  ] as const)('with no identity to tell it by %s: only its removal shows', (_, opened, now) => {
    let at: FileAt = opened
    const place = JournalPlace.of('/j', HEADER, system(() => at))
    at = now
    expect(place.replacedBy()).toBeUndefined()
    at = {exists: false}
    expect(place.replacedBy()).toBe('nothing')
  })

  it('a path that cannot be looked at (a folder made unreadable) says nothing of the file', () => {
    let fails = false
    const place = JournalPlace.of('/j', HEADER, {
      fileAt: () => {
        if (fails) throw Object.assign(new Error('EACCES'), {code: 'EACCES'})
        return {exists: true, id: '1:2'}
      },
    })
    fails = true
    expect(place.replacedBy()).toBeUndefined()
  })
})

function withDatabase(file: string, use: (db: DatabaseSync) => void): void {
  const db = new DatabaseSync(file)
  try {
    use(db)
  } finally {
    db.close()
  }
}

/** A journal database at `file` whose first entry is `header`. */
function journalAt(file: string, header: string): void {
  withDatabase(file, (db) => {
    db.exec(`BEGIN; ${JOURNAL_SCHEMA}; COMMIT`)
    db.prepare('INSERT INTO entries (line) VALUES (?)').run(header)
  })
}

describe('whatIsAt: the file now at a journal path, in words', () => {
  it.each([
    ['an empty file', (file: string) => writeFileSync(file, '')],
    ['a file that is no batch journal', (file: string) => writeFileSync(file, 'notes\n')],
    ['a file that is no batch journal', (file: string) => writeFileSync(file, `${HEADER}\n`)],
    ['a folder', (file: string) => mkdirSync(file)],
    ['a database that is no batch journal', (file: string) => void withDatabase(file, (db) => db.exec('CREATE TABLE t (x)'))],
    ['an earlier copy of this journal', (file: string) => journalAt(file, HEADER)],
    ['another journal', (file: string) => journalAt(file, '{"journal":1,"command":"purchase create"}')],
  ])('%s', (words, make) => {
    const file = join(folder(), 'j.sqlite')
    make(file)
    expect(whatIsAt(file, HEADER)).toBe(words)
  })

  it('one it cannot look at, naming why', () => {
    expect(whatIsAt(`${folder()}\0`, HEADER)).toBe('a file gw cannot read (ERR_INVALID_ARG_VALUE)')
  })
})

describe('JournalReplacedError', () => {
  const rerun = 'run the same command again to finish the batch: it looks each row up at the gateway before sending it, so none is made twice.'

  it.each(['nothing', 'an empty file', 'an earlier copy of this journal'])('with %s at the path: says what happened, how many rows were answered and where they are, and to run it again (exit 1)', (now) => {
    const error = new JournalReplacedError('/d/j.sqlite', now, 3)
    expect(error).toBeInstanceOf(WriteError)
    expect(error.exitCode).toBe(1)
    expect(error).toMatchObject({path: '/d/j.sqlite', now})
    expect(error.message).toBe(`The batch journal /d/j.sqlite was replaced while the batch ran (${now} is at that path now): no more rows are sent`)
    expect(error.hint).toBe(`Its 3 answered rows, and any answered since, are at the gateway; this run's output shows each row it reported. R${rerun.slice(1)}`)
  })

  it.each(['another journal', 'a file that is no batch journal', 'a folder'])('with %s at the path: says to move it away first', (now) => {
    expect(new JournalReplacedError('/d/j.sqlite', now, 1).hint).toBe(`Its 1 answered row, and any answered since, are at the gateway; this run's output shows each row it reported. Move that file away (or give another --journal FILE), then ${rerun}`)
  })
})

const target = {base_url: 'http://127.0.0.1:8787', username: 'TEST'}
const now = new Date('2026-11-22T10:00:00Z')

describe.each([
  ['on a worker thread', {}],
  ['on this thread', {thread: 'this' as const}],
])('a Journal whose path is checked after each commit, %s', (_, holder) => {
  /** A journal whose path names its file until `replace()`; what it writes, counted. */
  async function journalOn(file: string) {
    let id = 'held'
    const platform = system(() => ({exists: true, id}))
    let appends = 0
    const disk: Partial<JournalDisk> = {append: (journal, lines) => (appends++, journal.append(lines))}
    const journal = await Journal.open(file, {command: 'refund create', input: {sha256: 'a'.repeat(64)}, now, target, platform, disk, ...holder})
    return {journal, platform, appends: () => appends, replace: () => (id = 'another')}
  }

  it('checks once a group is in; a group written once the path names another file fails, and nothing more is written', async () => {
    const file = join(folder(), 'j.sqlite')
    const {journal, platform, appends, replace} = await journalOn(file)
    const asked = platform.asked
    await Promise.all([journal.intent({intent: 'r-1', row: 1, line: 2, request: {}, sent_at: '2026-11-22T10:00:00.000Z'}), journal.intent({intent: 'r-2', row: 2, line: 3, request: {}, sent_at: '2026-11-22T10:00:00.000Z'})])
    expect(platform.asked).toBe(asked + 1)
    replace()
    const failed = await expectReject(journal.intent({intent: 'r-3', row: 3, line: 4, request: {}, sent_at: '2026-11-22T10:00:00.000Z'}), JournalReplacedError, `The batch journal ${file} was replaced while the batch ran (an earlier copy of this journal is at that path now): no more rows are sent`)
    const written = appends()
    // Written before the check, which fails it all the same.
    expect(journalText(file)).toContain('"intent":"r-3"')
    expect(await journal.result({result: 'r-1', status: 'approved', exit_code: 0}).catch((err: unknown) => err)).toBe(failed)
    await expectReject(journal.withdraw('r-2'), JournalReplacedError, /was replaced/)
    expect(appends()).toBe(written)
    expect(journalText(file)).not.toContain('"result"')
    await journal.close()
  })

  it('counts the rows the replaced file had answered: the earlier runs\' and this run\'s final answers, written', async () => {
    const file = join(folder(), 'j.sqlite')
    const first = await journalOn(file)
    for (const [reference, exit_code] of [['r-1', 0], ['r-2', 8]] as const) {
      await first.journal.intent({intent: reference, row: 1, line: 2, request: {}, sent_at: '2026-11-22T10:00:00.000Z'})
      await first.journal.result({result: reference, status: exit_code === 0 ? 'approved' : 'unknown', exit_code})
    }
    await first.journal.close()

    const {journal, replace} = await journalOn(file)
    await journal.intent({intent: 'r-3', row: 3, line: 4, request: {}, sent_at: '2026-11-22T10:00:00.000Z'})
    // Final: approved, declined, refused. Not: a failure (exit 1); nor a final answer not written.
    await journal.result({result: 'r-3', status: 'declined', exit_code: 3})
    await journal.result({result: 'r-2', status: 'failed', exit_code: 1})
    await journal.result({result: 'r-4', status: 'rejected', exit_code: 7})
    replace()
    const failed = await expectReject(journal.result({result: 'r-5', status: 'approved', exit_code: 0}), JournalReplacedError, /was replaced/)
    expect(failed.hint).toMatch(/^Its 3 answered rows, and any answered since/)
    await journal.close()
  })
})
