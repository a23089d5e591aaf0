import {spawn} from 'node:child_process'
import {mkdirSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {Worker} from 'node:worker_threads'
import {afterEach, describe, expect, it, onTestFinished, vi} from 'vitest'
import {eachJournalLine, journalFormat, journalHeaderLine, type JournalFile, JournalFileError, openJournalFile, readJournal} from '../../../src/batch/journal-file.js'
import {openJournalInWorker} from '../../../src/batch/journal-thread.js'
import {type JournalWorker, journalWorkerMain, startJournalWorker} from '../../../src/batch/journal-worker.js'
import {isHeldHere} from '../../../src/lib/locked-database.js'
import {anotherCouldTake, heldByAnother, killHolder} from '../../held-file.js'
import {caught, folder} from '../lib/folders.js'

// A journal held on a worker thread (journal-worker.ts): the same file, lock and commits as on the
// main thread, the lock being the process's, and each commit off the main thread.

const HEADER = '{"journal":1,"command":"refund create"}'

const opened: JournalFile[] = []
afterEach(async () => {
  for (const file of opened.splice(0)) await file.close()
})

async function open(path: string): Promise<JournalFile> {
  const file = await openJournalInWorker(path, startJournalWorker())
  opened.push(file)
  return file
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('it was not refused'),
    (err: unknown) => err,
  )
}

describe('a journal held on a worker thread', () => {
  it('makes a journal, keeps each append in order, reads them back, and gives the lock back once closed', async () => {
    const dir = folder()
    const path = join(dir, 'j')
    const file = await open(path)
    await file.append([HEADER])
    await file.append(['{"intent":"r-1"}', '{"result":"r-1"}'])
    expect(await file.lines()).toEqual([HEADER, '{"intent":"r-1"}', '{"result":"r-1"}'])
    expect(anotherCouldTake(path)).toBe(false)
    expect(isHeldHere(path)).toBe(true)
    await file.close()
    await file.close()
    expect(isHeldHere(path)).toBe(false)
    expect(anotherCouldTake(path)).toBe(true)
    expect(readJournal(path)).toEqual([HEADER, '{"intent":"r-1"}', '{"result":"r-1"}'])
    expect(readdirSync(dir)).toEqual(['j'])
  })

  it('is read by this thread without its lock, which the worker keeps; a second open here is refused, on either thread', async () => {
    const path = join(folder(), 'j')
    const file = await open(path)
    await file.append([HEADER, '{"intent":"r-1"}'])
    expect(journalFormat(path)).toBe('database')
    expect(readJournal(path)).toEqual([HEADER, '{"intent":"r-1"}'])
    expect(journalHeaderLine(path)).toBe(HEADER)
    const lines: string[] = []
    await eachJournalLine(path, (line) => void lines.push(line))
    expect(lines).toEqual([HEADER, '{"intent":"r-1"}'])
    // Still held: no connection of this thread closed a descriptor that ended the process's lock.
    expect(anotherCouldTake(path)).toBe(false)
    expect(await refusal(open(path))).toMatchObject({reason: 'locked', detail: {pid: process.pid}})
    expect(caught(() => openJournalFile(path))).toMatchObject({reason: 'locked', detail: {pid: process.pid}})
    await file.append(['{"result":"r-1"}'])
    expect(anotherCouldTake(path)).toBe(false)
  })

  it('refuses a journal another process holds, naming it, and takes it once that process is killed', async () => {
    const path = join(folder(), 'j')
    await (await open(path)).close()
    const holder = await heldByAnother(path)
    expect(await refusal(open(path))).toMatchObject({reason: 'locked', detail: {pid: holder.pid}})
    await killHolder(holder)
    const file = await open(path)
    await file.append([HEADER])
    expect(await file.lines()).toEqual([HEADER])
  })

  it("refuses another program's database, text that is no journal, and a folder, each left as it was", async () => {
    const dir = folder()
    const other = join(dir, 'other.sqlite')
    const db = new DatabaseSync(other)
    db.exec('CREATE TABLE notes (text TEXT)')
    db.close()
    expect(await refusal(open(other))).toMatchObject({reason: 'not-a-journal'})
    expect(anotherCouldTake(other)).toBe(true)
    writeFileSync(join(dir, 'text'), 'not a journal\n')
    expect(await refusal(open(join(dir, 'text')))).toMatchObject({reason: 'not-a-journal'})
    mkdirSync(join(dir, 'folder'))
    expect(await refusal(open(join(dir, 'folder')))).toMatchObject({reason: 'directory'})
    expect(isHeldHere(other)).toBe(false)
  })

  it('says the system’s error where the file cannot be made', async () => {
    expect(await refusal(open(join(folder(), 'missing', 'j')))).toMatchObject({code: 'ENOENT'})
  })

  it('leaves none of an append whose commit fails (what runs before it throws), and takes the next', async () => {
    const path = join(folder(), 'j')
    const file = await open(path)
    await file.append([HEADER])
    const eio = Object.assign(new Error('EIO: i/o error'), {code: 'EIO'})
    let ran = 0
    expect(
      await refusal(
        Promise.resolve(
          file.append(['{"intent":"r-1"}'], () => {
            ran++
            throw eio
          }),
        ),
      ),
    ).toBe(eio)
    expect(ran).toBe(1)
    await file.append(['{"intent":"r-2"}'], () => ran++)
    expect(ran).toBe(2)
    expect(await file.lines()).toEqual([HEADER, '{"intent":"r-2"}'])
  })

  it('says what SQLite refused as the system does, leaving none of it', async () => {
    const path = join(folder(), 'j')
    const file = await open(path)
    await file.append([HEADER])
    // A NULL line breaks the table's NOT NULL: the transaction is rolled back.
    expect(await refusal(Promise.resolve(file.append(['{"intent":"r-1"}', null as unknown as string])))).toMatchObject({errcode: 1299, code: 'ERR_SQLITE_ERROR', message: 'NOT NULL constraint failed: entries.line'})
    expect(await file.lines()).toEqual([HEADER])
  })

  it('writes nothing once closed, as a closed connection says', async () => {
    const file = await open(join(folder(), 'j'))
    await file.close()
    expect(await refusal(Promise.resolve(file.append([HEADER])))).toMatchObject({code: 'ERR_INVALID_STATE', message: 'database is not open'})
    expect(await refusal(Promise.resolve(file.lines()))).toMatchObject({code: 'ERR_INVALID_STATE'})
  })

  it('gives the file up once: closed again after another open took it, the other keeps it', async () => {
    const path = join(folder(), 'j')
    const first = await open(path)
    await first.close()
    const second = await open(path)
    await first.close()
    expect(isHeldHere(path)).toBe(true)
    expect(anotherCouldTake(path)).toBe(false)
    await second.append([HEADER])
    expect(await second.lines()).toEqual([HEADER])
  })

  it('answers what is asked of it after it ended with that end', async () => {
    const worker = startJournalWorker()
    await worker.end()
    expect(await worker.ask({op: 'lines'})).toEqual({error: {message: 'the journal worker ended'}})
  })

  it('keeps the process alive only while a request waits for its answer, and is ended once', async () => {
    const ref = vi.spyOn(Worker.prototype, 'ref')
    const unref = vi.spyOn(Worker.prototype, 'unref')
    const terminate = vi.spyOn(Worker.prototype, 'terminate')
    onTestFinished(() => {
      vi.restoreAllMocks()
    })
    const worker = startJournalWorker()
    expect([ref.mock.calls.length, unref.mock.calls.length]).toEqual([0, 1])
    await worker.ask({op: 'lines'})
    expect([ref.mock.calls.length, unref.mock.calls.length]).toEqual([1, 2])
    await worker.ask({op: 'lines'})
    expect([ref.mock.calls.length, unref.mock.calls.length]).toEqual([2, 3])
    await worker.end()
    await worker.end()
    expect(terminate).toHaveBeenCalledTimes(1)
  })

  it.for([
    ['ended', (worker: Worker): void => void worker.terminate(), 'the journal worker ended'],
    ['failed', (worker: Worker): void => void worker.emit('error', new Error('out of memory')), 'out of memory'],
  ] as const)('answers a request that waits when the worker %s with why', async ([, end, message]) => {
    // The request is held back, so that it waits when the worker ends.
    const post = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(() => {})
    onTestFinished(() => {
      vi.restoreAllMocks()
    })
    const worker = startJournalWorker()
    const answer = worker.ask({op: 'lines'})
    await vi.waitFor(() => expect(post).toHaveBeenCalledOnce())
    const held = post.mock.contexts[0] as Worker
    onTestFinished(async () => {
      await held.terminate()
    })
    end(held)
    expect(await answer).toEqual({error: {message}})
    await worker.end()
  })
})

describe('a lock refused while nobody holds it any more (its holder let go before /proc/locks was read)', () => {
  /** A worker whose first `refusals` opens are refused as SQLite refuses a lock held (SQLITE_BUSY): what is asked of it, in turn. */
  const refusingWorker = (refusals: number) => {
    const asked: string[] = []
    const worker: JournalWorker = {
      ask: async (request) => {
        asked.push(request.op)
        const opens = asked.filter((op) => op === 'open').length
        return request.op === 'open' && opens <= refusals ? {error: {message: 'database is locked', errcode: 5}} : {}
      },
      end: async () => {
        asked.push('end')
      },
    }
    return {worker, asked}
  }
  const journalPath = () => {
    const path = join(folder(), 'j')
    writeFileSync(path, '')
    return path
  }

  it('is tried again, three times in all, and the journal it then opens closes its connection before its thread', async () => {
    const {worker, asked} = refusingWorker(2)
    const file = await openJournalInWorker(journalPath(), worker)
    expect(asked).toEqual(['open', 'open', 'open'])
    await file.close()
    expect(asked).toEqual(['open', 'open', 'open', 'close', 'end'])
  })

  it('is refused the third time, as held by a gw it cannot name, and the thread is ended', async () => {
    const {worker, asked} = refusingWorker(3)
    const refused = await refusal(openJournalInWorker(journalPath(), worker))
    expect(refused).toBeInstanceOf(JournalFileError)
    expect(refused).toMatchObject({reason: 'locked', detail: {pid: undefined}})
    expect(asked).toEqual(['open', 'open', 'open', 'end'])
  })
})

describe('a process killed (kill -9) while its worker holds a journal', () => {
  it('leaves its lock to the next, and beside the file only the undo record SQLite keeps in EXCLUSIVE mode (as a holder on the main thread leaves it)', async () => {
    const dir = folder()
    const path = join(dir, 'j')
    // The worker's own code, started as gw starts it, in a process of its own: it commits, then is killed mid-batch.
    const script = `
      const {Worker} = require('node:worker_threads')
      const worker = new Worker(process.argv[2], {eval: true})
      const ask = (request) => new Promise((resolve) => { worker.once('message', resolve); worker.postMessage(request) })
      ;(async () => {
        await ask({op: 'open', file: process.argv[1], takeLock: 'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT', schema: 'CREATE TABLE entries (seq INTEGER PRIMARY KEY, line TEXT NOT NULL)', journalId: 0})
        await ask({op: 'append', lines: ['a', 'b'], probe: false})
        await ask({op: 'append', lines: ['c'], probe: true})
        process.stdout.write('held\\n')
      })()`
    const child = spawn(process.execPath, ['--no-warnings', '-e', script, path, `(${journalWorkerMain.toString()})()`], {stdio: ['ignore', 'pipe', 'inherit']})
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => resolve())
      child.on('exit', (code) => reject(new Error(`the holder exited with ${code}`)))
    })
    expect(anotherCouldTake(path)).toBe(false)
    await killHolder(child)
    expect(anotherCouldTake(path)).toBe(true)
    const db = new DatabaseSync(path)
    // The transaction left open at the kill is rolled back from its journal by the next to open the file.
    expect((db.prepare('SELECT line FROM entries ORDER BY seq').all() as {line: string}[]).map((row) => row.line)).toEqual(['a', 'b'])
    db.close()
    expect(readdirSync(dir).sort()).toEqual(['j', 'j-journal'])
  })
})
