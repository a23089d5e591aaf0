import {spawnSync} from 'node:child_process'
import {mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {describe, expect, it} from 'vitest'
import {eachJournalLine, journalFormat, journalHeaderLine, JournalFileError, openJournalFile, readJournal, withReader} from '../../../src/batch/journal-file.js'
import {openLockedDatabase} from '../../../src/lib/locked-database.js'
import {anotherCouldTake, closedAfterEach, heldByAnother, openDescriptors} from '../../held-file.js'
import {caught, folder} from '../lib/folders.js'

// A journal's file (journal-file.ts): a SQLite database of its entries under the kernel's lock,
// read without the lock by anyone.

const open = closedAfterEach(openJournalFile)
const lockOpen = closedAfterEach(openLockedDatabase)

const HEADER = '{"journal":1,"command":"refund create"}'

/** Every entry eachJournalLine gives, with what it says the file held. */
async function journalLines(file: string): Promise<{format: string; lines: string[]}> {
  const lines: string[] = []
  const format = await eachJournalLine(file, (line) => {
    lines.push(line)
  })
  return {format, lines}
}


/** A journal database with these entries, closed. */
function journalWith(path: string, lines: string[]): string {
  const file = openJournalFile(path)
  file.append(lines)
  file.close()
  return path
}

/** Another program's SQLite file: a table of its own, no journal's mark. */
function otherDatabase(path: string): string {
  const db = new DatabaseSync(path)
  db.exec('CREATE TABLE notes (text TEXT)')
  db.close()
  return path
}

describe('journalFormat: what a file holds, by its first bytes', () => {
  it('is none for no file and an empty one, a database, or other (JSON lines too)', () => {
    const dir = folder()
    expect(journalFormat(join(dir, 'missing'))).toBe('none')
    writeFileSync(join(dir, 'empty'), '')
    expect(journalFormat(join(dir, 'empty'))).toBe('none')
    expect(journalFormat(journalWith(join(dir, 'j'), [HEADER]))).toBe('database')
    writeFileSync(join(dir, 'lines'), `${HEADER}\n`)
    expect(journalFormat(join(dir, 'lines'))).toBe('other')
    writeFileSync(join(dir, 'short'), '{"journal"')
    expect(journalFormat(join(dir, 'short'))).toBe('other')
    writeFileSync(join(dir, 'csv'), 'transaction_id,amount\n')
    expect(journalFormat(join(dir, 'csv'))).toBe('other')
  })

  it('throws what keeps it from reading the file; a FIFO is other, never opened', () => {
    const dir = folder()
    mkdirSync(join(dir, 'folder'))
    expect(caught(() => journalFormat(join(dir, 'folder')))).toMatchObject({code: 'EISDIR', message: `EISDIR: illegal operation on a directory, read '${join(dir, 'folder')}'`})
    expect(spawnSync('mkfifo', [join(dir, 'fifo')]).status).toBe(0)
    expect(journalFormat(join(dir, 'fifo'))).toBe('other')
  })
})

describe('openJournalFile', () => {
  it('makes a journal, keeps each append in order, and reads them back', () => {
    const path = join(folder(), 'j')
    const file = open(path)
    expect(file.path).toBe(path)
    expect(file.lines()).toEqual([])
    file.append([HEADER, '{"intent":"r-1"}'])
    file.append(['{"result":"r-1"}'])
    expect(file.lines()).toEqual([HEADER, '{"intent":"r-1"}', '{"result":"r-1"}'])
    expect(readFileSync(path).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0')
  })

  it('leaves none of an append whose commit fails, and takes the next', () => {
    const file = open(join(folder(), 'j'))
    file.append([HEADER])
    const error = caught(() =>
      file.append(['{"intent":"r-1"}', '{"intent":"r-2"}'], () => {
        throw Object.assign(new Error('ENOSPC: no space left on device'), {code: 'ENOSPC'})
      }),
    )
    expect(error).toMatchObject({code: 'ENOSPC'})
    file.append(['{"intent":"r-3"}'])
    expect(file.lines()).toEqual([HEADER, '{"intent":"r-3"}'])
  })

  it('throws what failed, not ROLLBACK’s refusal, where the transaction had ended already (an append begun inside another rolls both back)', () => {
    const file = open(join(folder(), 'j'))
    file.append([HEADER])
    const error = caught(() => file.append(['{"intent":"r-1"}'], () => file.append(['{"intent":"r-2"}'])))
    expect(error).toMatchObject({message: 'cannot start a transaction within a transaction'})
    expect(file.lines()).toEqual([HEADER])
  })

  it('refuses a file of another program, text that is no journal, and a folder, each left as it was', () => {
    const dir = folder()
    const other = otherDatabase(join(dir, 'other.db'))
    const before = readFileSync(other)
    expect(caught(() => open(other))).toEqual(new JournalFileError('not-a-journal'))
    // Given back: the refusal holds no lock on it (asked first: reading the file here would end this process's lock).
    expect(anotherCouldTake(other)).toBe(true)
    expect(readFileSync(other)).toEqual(before)
    // Another program's mark, no table yet; a header that only begins as SQLite's.
    const marked = new DatabaseSync(join(dir, 'marked.db'))
    marked.exec('PRAGMA application_id = 42')
    marked.close()
    expect(caught(() => open(join(dir, 'marked.db')))).toMatchObject({reason: 'not-a-journal'})
    writeFileSync(join(dir, 'damaged.db'), Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(200, 7)]))
    expect(caught(() => open(join(dir, 'damaged.db')))).toMatchObject({reason: 'not-a-journal'})
    expect(spawnSync('mkfifo', [join(dir, 'fifo')]).status).toBe(0)
    expect(caught(() => open(join(dir, 'fifo')))).toMatchObject({reason: 'not-a-journal'})
    writeFileSync(join(dir, 'notes'), 'notes\n')
    expect(caught(() => open(join(dir, 'notes')))).toMatchObject({reason: 'not-a-journal'})
    expect(readFileSync(join(dir, 'notes'), 'utf8')).toBe('notes\n')
    mkdirSync(join(dir, 'folder'))
    expect(caught(() => open(join(dir, 'folder')))).toMatchObject({reason: 'directory'})
  })

  it('refuses a journal another process holds, naming it, and one this process holds already', async () => {
    const path = journalWith(join(folder(), 'j'), [HEADER])
    const holder = await heldByAnother(path)
    expect(caught(() => open(path))).toMatchObject({reason: 'locked', detail: {pid: holder.pid}})
    holder.kill('SIGKILL')
    await new Promise((resolve) => holder.once('exit', resolve))
    open(path)
    expect(caught(() => open(path))).toMatchObject({reason: 'locked', detail: {pid: process.pid}})
  })

  it('says the system’s error where the file cannot be made', () => {
    const dir = folder()
    writeFileSync(join(dir, 'file'), '')
    expect(caught(() => open(join(dir, 'file', 'j')))).toMatchObject({code: 'ENOTDIR'})
  })
})

describe('reading a journal without its lock', () => {
  /** An opener that throws `codes` (as SQLite's errors) first, then opens the file as withReader would. */
  const failingFirst = (codes: number[]) => {
    let calls = 0
    return {
      calls: () => calls,
      open: (file: string) => {
        calls++
        const db = new DatabaseSync(file, {readOnly: true})
        const errcode = codes[calls - 1]
        if (errcode === undefined) return db
        return Object.assign(Object.create(db) as DatabaseSync, {
          prepare: () => {
            throw Object.assign(new Error('database disk image is malformed'), {errcode})
          },
          close: () => db.close(),
        })
      },
    }
  }
  const firstLine = (db: DatabaseSync) => (db.prepare('SELECT line FROM entries ORDER BY seq LIMIT 1').get() as {line: string}).line

  it('reads again where a page read torn (corrupt, not a database: its writer rewrote it meanwhile), up to 20 times', () => {
    const path = journalWith(join(folder(), 'j'), [HEADER])
    const torn = failingFirst([11, 26, 11, 267])
    expect(withReader(path, firstLine, torn.open)).toBe(HEADER)
    expect(torn.calls()).toBe(5)
    const always = failingFirst(Array.from({length: 25}, () => 11))
    expect(caught(() => withReader(path, firstLine, always.open))).toMatchObject({errcode: 11})
    expect(always.calls()).toBe(20)
    const other = failingFirst([10])
    expect(caught(() => withReader(path, firstLine, other.open))).toMatchObject({code: 'EIO'})
    expect(other.calls()).toBe(1)
  })

  it('a journal removed since it was found is gone (ENOENT), not made again empty where its owner removed it', () => {
    const dir = folder()
    const path = journalWith(join(dir, 'j'), [HEADER])
    rmSync(path)
    expect(caught(() => withReader(path, firstLine))).toMatchObject({code: 'ENOENT', message: `ENOENT: no such file or directory, open '${path}'`, cause: {errcode: 14}})
    expect(readdirSync(dir)).toEqual([])
    // Only a file gone is ENOENT: one there that cannot be read says why.
    mkdirSync(path)
    expect(caught(() => withReader(path, firstLine))).toMatchObject({code: 'EIO'})
  })

  it('reads a database’s entries while another process holds it', async () => {
    const dir = folder()
    const path = journalWith(join(dir, 'j'), [HEADER, '{"intent":"r-1"}'])
    await heldByAnother(path)
    expect(readJournal(path)).toEqual([HEADER, '{"intent":"r-1"}'])
    expect(journalHeaderLine(path)).toBe(HEADER)
    expect(await journalLines(path)).toEqual({format: 'database', lines: [HEADER, '{"intent":"r-1"}']})
  })

  it('reads one this process writes through its own connection, and keeps its lock', async () => {
    const path = join(folder(), 'j')
    const file = open(path)
    file.append([HEADER, '{"intent":"r-1"}'])
    expect(readJournal(path)).toEqual([HEADER, '{"intent":"r-1"}'])
    expect(journalHeaderLine(path)).toBe(HEADER)
    expect(await journalLines(path)).toEqual({format: 'database', lines: [HEADER, '{"intent":"r-1"}']})
    // Still held: no second connection was opened and closed, which would have ended the lock.
    expect(anotherCouldTake(path)).toBe(false)
    expect(caught(() => open(path))).toMatchObject({reason: 'locked', detail: {pid: process.pid}})
    file.append(['{"result":"r-1"}'])
    file.close()
    expect(readJournal(path)).toEqual([HEADER, '{"intent":"r-1"}', '{"result":"r-1"}'])
  })

  it('leaves no descriptor of the file open once read', async () => {
    const path = journalWith(join(folder(), 'j'), [HEADER])
    readJournal(path)
    journalHeaderLine(path)
    await journalLines(path)
    expect(openDescriptors(path)).toBe(0)
  })

  it('finds nothing in what is no journal: another program’s database, a lock this process holds, text, nothing', async () => {
    const dir = folder()
    const other = otherDatabase(join(dir, 'other.db'))
    expect(readJournal(other)).toEqual([])
    expect(journalHeaderLine(other)).toBeUndefined()
    expect(await eachJournalLine(other, () => {})).toBe('other')
    lockOpen(join(dir, 'lock'))
    expect(readJournal(join(dir, 'lock'))).toEqual([])
    expect(journalHeaderLine(join(dir, 'lock'))).toBeUndefined()
    expect(await eachJournalLine(join(dir, 'lock'), () => {})).toBe('other')
    // JSON lines (a journal as text) are no journal either.
    for (const text of ['notes\n', `${HEADER}\n{"intent":"r-1"}\n`]) {
      writeFileSync(join(dir, 'notes'), text)
      expect(readJournal(join(dir, 'notes'))).toEqual([])
      expect(journalHeaderLine(join(dir, 'notes'))).toBeUndefined()
      expect(await journalLines(join(dir, 'notes'))).toEqual({format: 'other', lines: []})
    }
    expect(readJournal(join(dir, 'missing'))).toEqual([])
    expect(await journalLines(join(dir, 'missing'))).toEqual({format: 'none', lines: []})
    // A journal made, with no entry yet.
    journalWith(join(dir, 'new'), [])
    expect(journalHeaderLine(join(dir, 'new'))).toBeUndefined()
  })

  it('takes entries with a number missing as a torn read, read again', () => {
    const path = journalWith(join(folder(), 'j'), [HEADER, '{"intent":"r-1"}', '{"intent":"r-2"}'])
    // As a torn page would show it: the second entry gone.
    const db = new DatabaseSync(path)
    db.exec('DELETE FROM entries WHERE seq = 2')
    db.close()
    expect(caught(() => readJournal(path))).toMatchObject({errcode: 11, message: 'entry 2 is missing: the journal was read while it was written'})
  })

  it('stops where onLine says so', async () => {
    const dir = folder()
    const lines = [HEADER, '{"intent":"r-1"}', '{"intent":"r-2"}']
    const path = journalWith(join(dir, 'j'), lines)
    const seen: string[] = []
    await eachJournalLine(path, (line) => {
      seen.push(line)
      return seen.length < 2
    })
    expect(seen).toEqual(lines.slice(0, 2))
    const own = open(join(dir, 'own'))
    own.append(lines)
    const first: string[] = []
    await eachJournalLine(join(dir, 'own'), (line) => {
      first.push(line)
      return false
    })
    expect(first).toEqual([HEADER])
  })
})
