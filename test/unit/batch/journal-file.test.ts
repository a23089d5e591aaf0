import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {afterEach, describe, expect, it} from 'vitest'
import {eachJournalLine, journalFormat, journalHeaderLine, JournalFileError, journalLines, openJournalFile, readJournal} from '../../../src/batch/journal-file.js'
import {fromLines} from '../../../src/batch/journal-older.js'
import {openLockedDatabase} from '../../../src/lib/locked-database.js'
import {heldByAnother} from '../../held-file.js'
import {caught, folder} from '../lib/folders.js'

// A journal's file (journal-file.ts): a SQLite database of its entries under the kernel's lock,
// read without the lock by anyone, and an older gw's NDJSON journal made one in place.

const opened: {close(): void}[] = []
afterEach(() => {
  for (const file of opened.splice(0)) file.close()
})

const open = (path: string) => {
  const file = openJournalFile(path)
  opened.push(file)
  return file
}

const HEADER = '{"journal":1,"command":"refund create"}'

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
  it('is none for no file and an empty one, a database, an older gw’s NDJSON journal, or other', () => {
    const dir = folder()
    expect(journalFormat(join(dir, 'missing'))).toBe('none')
    writeFileSync(join(dir, 'empty'), '')
    expect(journalFormat(join(dir, 'empty'))).toBe('none')
    expect(journalFormat(journalWith(join(dir, 'j'), [HEADER]))).toBe('database')
    writeFileSync(join(dir, 'older'), `${HEADER}\n`)
    expect(journalFormat(join(dir, 'older'))).toBe('lines')
    writeFileSync(join(dir, 'short'), '{"journal"')
    expect(journalFormat(join(dir, 'short'))).toBe('other')
    writeFileSync(join(dir, 'csv'), 'transaction_id,amount\n')
    expect(journalFormat(join(dir, 'csv'))).toBe('other')
  })

  it('throws what keeps it from reading the file', () => {
    const dir = folder()
    mkdirSync(join(dir, 'folder'))
    expect(caught(() => journalFormat(join(dir, 'folder')))).toMatchObject({code: 'EISDIR'})
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

  it('refuses a file of another program, text that is no journal, and a folder, each left as it was', () => {
    const dir = folder()
    const other = otherDatabase(join(dir, 'other.db'))
    const before = readFileSync(other)
    expect(caught(() => open(other))).toEqual(new JournalFileError('not-a-journal'))
    expect(readFileSync(other)).toEqual(before)
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

describe('an older gw’s NDJSON journal', () => {
  it('is made a journal database in place, its whole lines kept and its torn last one cut, nothing left beside it', () => {
    const dir = folder()
    const path = join(dir, 'j.ndjson')
    writeFileSync(path, `${HEADER}\n{"intent":"r-1"}\n{"result":"r-1","sta`)
    expect(open(path).lines()).toEqual([HEADER, '{"intent":"r-1"}'])
    expect(journalFormat(path)).toBe('database')
    expect(readdirSync(dir).filter((name) => !name.endsWith('-journal'))).toEqual(['j.ndjson'])
  })

  it('is refused while an older gw holds its lock beside it, naming that gw, and left as it is', () => {
    const dir = folder()
    const path = join(dir, 'j.ndjson')
    writeFileSync(path, `${HEADER}\n`)
    writeFileSync(`${path}.lock`, String(process.ppid))
    expect(caught(() => open(path))).toMatchObject({reason: 'locked', detail: {pid: process.ppid}})
    expect(readFileSync(path, 'utf8')).toBe(`${HEADER}\n`)
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(String(process.ppid))
  })

  it('is left as it was when it cannot be made a database, its lock given back and nothing left beside it', () => {
    const dir = folder()
    const path = join(dir, 'j.ndjson')
    writeFileSync(path, `${HEADER}\n`)
    expect(() => fromLines(path, 'NOT SQL')).toThrow(/syntax error/)
    expect(readFileSync(path, 'utf8')).toBe(`${HEADER}\n`)
    expect(readdirSync(dir)).toEqual(['j.ndjson'])
  })
})

describe('reading a journal without its lock', () => {
  it('reads a database’s entries while another process holds it, and an older gw’s whole lines', async () => {
    const dir = folder()
    const path = journalWith(join(dir, 'j'), [HEADER, '{"intent":"r-1"}'])
    await heldByAnother(path)
    expect(readJournal(path)).toEqual([HEADER, '{"intent":"r-1"}'])
    expect(journalHeaderLine(path)).toBe(HEADER)
    expect(await journalLines(path)).toEqual({format: 'database', lines: [HEADER, '{"intent":"r-1"}']})
    writeFileSync(join(dir, 'older'), `${HEADER}\n{"intent":"r-1"}\n{"res`)
    expect(readJournal(join(dir, 'older'))).toEqual([HEADER, '{"intent":"r-1"}'])
    expect(journalHeaderLine(join(dir, 'older'))).toBe(HEADER)
    expect(await journalLines(join(dir, 'older'))).toEqual({format: 'lines', lines: [HEADER, '{"intent":"r-1"}']})
  })

  it('reads one this process writes through its own connection, and keeps its lock', async () => {
    const path = join(folder(), 'j')
    const file = open(path)
    file.append([HEADER, '{"intent":"r-1"}'])
    expect(readJournal(path)).toEqual([HEADER, '{"intent":"r-1"}'])
    expect(journalHeaderLine(path)).toBe(HEADER)
    expect(await journalLines(path)).toEqual({format: 'database', lines: [HEADER, '{"intent":"r-1"}']})
    // Still held: another process cannot take it.
    expect(caught(() => open(path))).toMatchObject({reason: 'locked', detail: {pid: process.pid}})
    file.append(['{"result":"r-1"}'])
    file.close()
    expect(readJournal(path)).toEqual([HEADER, '{"intent":"r-1"}', '{"result":"r-1"}'])
  })

  it('finds nothing in what is no journal: another program’s database, a lock this process holds, text, nothing', async () => {
    const dir = folder()
    const other = otherDatabase(join(dir, 'other.db'))
    expect(readJournal(other)).toEqual([])
    expect(journalHeaderLine(other)).toBeUndefined()
    expect(await eachJournalLine(other, () => {})).toBe('other')
    const lock = openLockedDatabase(join(dir, 'lock'))
    opened.push(lock)
    expect(readJournal(join(dir, 'lock'))).toEqual([])
    expect(journalHeaderLine(join(dir, 'lock'))).toBeUndefined()
    expect(await eachJournalLine(join(dir, 'lock'), () => {})).toBe('other')
    writeFileSync(join(dir, 'notes'), 'notes\n')
    expect(readJournal(join(dir, 'notes'))).toEqual([])
    expect(journalHeaderLine(join(dir, 'notes'))).toBeUndefined()
    expect(readJournal(join(dir, 'missing'))).toEqual([])
    expect(await journalLines(join(dir, 'missing'))).toEqual({format: 'none', lines: []})
    // A journal made, with no entry yet.
    journalWith(join(dir, 'new'), [])
    expect(journalHeaderLine(join(dir, 'new'))).toBeUndefined()
  })

  it('stops where onLine says so, in either form', async () => {
    const dir = folder()
    const lines = [HEADER, '{"intent":"r-1"}', '{"intent":"r-2"}']
    const path = journalWith(join(dir, 'j'), lines)
    writeFileSync(join(dir, 'older'), lines.map((line) => `${line}\n`).join(''))
    for (const file of [path, join(dir, 'older')]) {
      const seen: string[] = []
      await eachJournalLine(file, (line) => {
        seen.push(line)
        return seen.length < 2
      })
      expect(seen).toEqual(lines.slice(0, 2))
    }
    const own = open(join(dir, 'own'))
    own.append(lines)
    const seen: string[] = []
    await eachJournalLine(join(dir, 'own'), (line) => {
      seen.push(line)
      return false
    })
    expect(seen).toEqual([HEADER])
  })
})
