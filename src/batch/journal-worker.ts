import type {Worker} from 'node:worker_threads'

// A batch journal's connection on a thread of its own (design.md §5): the worker opens the journal
// database, takes the kernel's lock on it and commits each group of entries, so that a commit's
// fsyncs (about four under a rollback journal) no longer stop the main thread, and answers keep
// arriving while a group syncs. The lock is the process's (POSIX locks belong to a process, and a
// worker is one of its threads), and SQLite's own table of open files is the process's too, so a
// read of the file by another connection of this process, on any thread, keeps the lock as it did
// with one thread. The main thread still waits for each commit before what it precedes.

/** What the main thread asks of the worker, one at a time. */
export type JournalRequest =
  | {op: 'open'; file: string; takeLock: string; schema: string; journalId: number}
  | {op: 'lines'}
  | {op: 'append'; lines: readonly string[]; probe: boolean}
  | {op: 'verdict'; commit: boolean}
  | {op: 'close'}

/** The worker's answer to a request: what it asked for, `inserted` (a probed append's entries are in, not committed), or the error it met. */
export type JournalReply = {lines?: string[]; inserted?: true; notAJournal?: true; error?: {message: string; errcode?: number; code?: string}}

/**
 * The worker's code, run from its text (it imports nothing and uses nothing outside itself; see
 * startJournalWorker). Each request is answered in turn; a probed append waits, its entries in and
 * its transaction open, for the main thread's verdict before it commits or rolls back.
 */
/* c8 ignore start */
// Stryker disable all: run from its text in a worker, where no instrumentation reaches
export function journalWorkerMain(): void {
  const {parentPort} = process.getBuiltinModule('node:worker_threads')
  const port = parentPort!
  // Node 22 warns, as node:sqlite loads, that SQLite is experimental: a warning for Node's developers, not gw's users.
  const emitWarning = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message
    if (!text.startsWith('SQLite is an experimental feature')) Reflect.apply(emitWarning, process, [warning, ...rest])
  }) as typeof process.emitWarning
  const {DatabaseSync} = process.getBuiltinModule('node:sqlite')
  process.emitWarning = emitWarning
  let db: import('node:sqlite').DatabaseSync | undefined
  let insert: import('node:sqlite').StatementSync | undefined
  let probing = false
  const failed = (err: unknown): JournalReply => {
    const {message, errcode, code} = err as {message: string; errcode?: number; code?: string}
    return {error: {message: String(message), errcode, code}}
  }
  const undo = () => {
    if (db?.isTransaction) db.exec('ROLLBACK')
  }
  port.on('message', (request: JournalRequest) => {
    try {
      if (request.op === 'open') {
        db = new DatabaseSync(request.file)
        try {
          db.exec(request.takeLock)
        } catch (err) {
          db.close()
          db = undefined
          throw err
        }
        const id = (db.prepare('PRAGMA application_id').get() as {application_id: number}).application_id
        const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as {n: number}).n
        if (id === 0 && tables === 0) {
          db.exec(`BEGIN; ${request.schema}; COMMIT`)
        } else if (id !== request.journalId) {
          db.close()
          db = undefined
          port.postMessage({notAJournal: true} satisfies JournalReply)
          return
        }
        insert = db.prepare('INSERT INTO entries (line) VALUES (?)')
        port.postMessage({} satisfies JournalReply)
      } else if (request.op === 'lines') {
        const lines = (db!.prepare('SELECT line FROM entries ORDER BY seq').all() as {line: string}[]).map((entry) => entry.line)
        port.postMessage({lines} satisfies JournalReply)
      } else if (request.op === 'append') {
        db!.exec('BEGIN IMMEDIATE')
        for (const line of request.lines) insert!.run(line)
        if (request.probe) {
          probing = true
          port.postMessage({inserted: true} satisfies JournalReply)
          return
        }
        db!.exec('COMMIT')
        port.postMessage({} satisfies JournalReply)
      } else if (request.op === 'verdict') {
        if (!probing) throw new Error('no append waits for a verdict')
        probing = false
        if (request.commit) db!.exec('COMMIT')
        else undo()
        port.postMessage({} satisfies JournalReply)
      } else {
        db?.close()
        db = undefined
        port.postMessage({} satisfies JournalReply)
        port.close()
      }
    } catch (err) {
      // Nothing of a failed append may stay: a commit that failed may have been rolled back by SQLite already.
      probing = false
      try {
        undo()
      } catch {
        // The rollback's own failure adds nothing to the error said.
      }
      port.postMessage(failed(err))
    }
  })
}
// Stryker restore all
/* c8 ignore stop */

/** A journal worker, started and waiting for its file: asked in turn, each answer awaited. */
export interface JournalWorker {
  ask(request: JournalRequest): Promise<JournalReply>
  /** Ends the worker (its connection closed first by a `close` request, when it had one). */
  end(): Promise<void>
}

/**
 * Starts a journal worker from journalWorkerMain's text: no file of its own to find, in a clone,
 * an npm install or the single executable. Started before the journal's path is known, it loads
 * while the input is read. It keeps the process alive only while a request waits.
 */
export function startJournalWorker(): JournalWorker {
  const {Worker} = process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads')
  const worker: Worker = new Worker(`(${journalWorkerMain.toString()})()`, {eval: true})
  worker.unref()
  let turn: Promise<unknown> = Promise.resolve()
  let died: Error | undefined
  const waiting: ((reply: JournalReply) => void)[] = []
  worker.on('message', (reply: JournalReply) => waiting.shift()?.(reply))
  const fail = (err: Error) => {
    died ??= err
    for (const answer of waiting.splice(0)) answer({error: {message: died.message}})
  }
  worker.on('error', fail)
  worker.on('exit', () => fail(new Error('the journal worker ended')))
  const ask = (request: JournalRequest): Promise<JournalReply> => {
    const answered = turn.then(
      () =>
        new Promise<JournalReply>((resolve) => {
          if (died) return resolve({error: {message: died.message}})
          worker.ref()
          // One request at a time (the turn), so once this is answered none waits.
          waiting.push((reply) => {
            worker.unref()
            resolve(reply)
          })
          worker.postMessage(request)
        }),
    )
    turn = answered
    return answered
  }
  return {
    ask,
    async end() {
      await turn
      if (!died) await worker.terminate()
    },
  }
}
