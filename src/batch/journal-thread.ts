import {HOLD_SHARED, holdHere, lockableFile, lockedAs, lockRefusal, systemError, TAKE_LOCK, tryAgain} from '../lib/locked-database.js'
import {otherNames} from '../lib/overlay-names.js'
import {JOURNAL_ID, JOURNAL_SCHEMA, type JournalFile, JournalFileError, readyToLock, refused} from './journal-file.js'
import type {JournalReply, JournalRequest, JournalWorker} from './journal-worker.js'

// A batch journal's file opened on a thread of its own (journal-worker.ts), for a batch: the same
// database, lock and transactions as openJournalFile's, each commit synced off the main thread.

/**
 * openJournalFile, its connection and lock on `worker`'s thread (journal-worker.ts): each commit
 * syncs there, this thread free meanwhile. Rejects as openJournalFile throws; the worker is ended
 * when the journal cannot be opened, and when it is closed.
 */
export async function openJournalInWorker(file: string, worker: JournalWorker): Promise<JournalFile> {
  let release: () => void
  // Its other name on an overlay, locked on this thread (the lock is the process's): lib/overlay-names.ts.
  let others: ReturnType<typeof otherNames> | undefined
  try {
    readyToLock(file)
    let opened: JournalReply
    for (let tries = 1; ; tries++) {
      try {
        const lockable = lockableFile(file)
        others ??= otherNames(lockable, (other) => lockedAs(lockableFile(other), HOLD_SHARED))
        if (tries === 1) others.before()
        opened = await worker.ask({op: 'open', file: lockable, takeLock: TAKE_LOCK, schema: JOURNAL_SCHEMA, journalId: JOURNAL_ID})
      } catch (err) {
        throw refused(err)
      }
      if (!opened.error) break
      const refusal = lockRefusal(file, asError(opened.error))
      if (!tryAgain(refusal, tries)) throw refused(refusal)
    }
    if (opened.notAJournal) throw new JournalFileError('not-a-journal')
    try {
      others.after()
    } catch (err) {
      await worker.ask({op: 'close'})
      throw refused(err)
    }
    release = holdHere(file)
  } catch (err) {
    others?.release()
    await worker.end()
    throw err
  }
  let open = true
  const answered = async (request: JournalRequest): Promise<JournalReply> => {
    // As a closed connection of node:sqlite says it.
    if (!open) throw Object.assign(new Error('database is not open'), {code: 'ERR_INVALID_STATE'})
    const reply = await worker.ask(request)
    if (reply.error) throw systemError(asError(reply.error))
    return reply
  }
  return {
    path: file,
    lines: async () => (await answered({op: 'lines'})).lines!,
    async append(lines, beforeCommit) {
      if (!beforeCommit) {
        await answered({op: 'append', lines, probe: false})
        return
      }
      await answered({op: 'append', lines, probe: true})
      let verdict: unknown
      try {
        beforeCommit()
      } catch (err) {
        verdict = err
      }
      await answered({op: 'verdict', commit: verdict === undefined})
      if (verdict !== undefined) throw verdict
    },
    async close() {
      if (!open) return
      open = false
      try {
        await worker.ask({op: 'close'})
      } finally {
        release()
        others!.release()
        await worker.end()
      }
    },
  }
}

/** A worker's error as node:sqlite threw it there: its message, and SQLite's or the system's code. */
function asError({message, errcode, code}: NonNullable<JournalReply['error']>): Error {
  return Object.assign(new Error(message), {errcode, code})
}
