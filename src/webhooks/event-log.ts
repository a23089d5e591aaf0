import {constants} from 'node:fs'
import {UsageError} from '../errors.js'
import {NotYoursError, openOwnFile} from '../lib/own-file.js'
import type {EventEntry} from './format.js'

export interface EventLog {
  /** Resolves once the line is written, so a delivery is acknowledged only after it is saved. */
  append(line: string): Promise<void>
  close(): Promise<void>
}

/**
 * `--save FILE`: one JSON line per event, appended in the order the events arrived. Only a file of
 * the user's own (lib/own-file.ts): made afresh, 0600, or one that is theirs alone to write, never
 * through another user's link; what it saves (masked as it is) is no one else's to read or add to.
 */
export async function openEventLog(file: string): Promise<EventLog> {
  const {handle} = await openOwnFile(file, constants.O_WRONLY | constants.O_APPEND).catch((err: NodeJS.ErrnoException) => {
    if (err instanceof NotYoursError) throw new UsageError(`--save ${file} cannot be used: ${err.message}`, err.hint)
    throw new UsageError(`--save cannot open ${file} (${err.code ?? err.message})`, 'Pick a file in a directory you can write to.')
  })
  // Writes are chained so lines never interleave and keep the order of arrival.
  let tail: Promise<unknown> = Promise.resolve()
  return {
    append(line) {
      const written = tail.then(() => handle.write(line))
      tail = written.catch(() => undefined)
      return written.then(() => undefined)
    },
    async close() {
      await tail
      await handle.close()
    },
  }
}

/** Reads a file written by `--save` (or `gw listen --json`), checking every line before any is sent. */
export function parseEventLog(text: string, file: string): EventEntry[] {
  const entries: EventEntry[] = []
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return
    let entry: unknown
    try {
      entry = JSON.parse(line)
    } catch {
      throw new UsageError(`${file} line ${index + 1} is not JSON`, 'Replay reads the NDJSON that gw listen --save writes.')
    }
    const candidate = entry as Partial<EventEntry> | null
    if (!candidate || typeof candidate !== 'object' || typeof candidate.event !== 'string') {
      throw new UsageError(`${file} line ${index + 1} has no "event"`, 'Replay reads the NDJSON that gw listen --save writes.')
    }
    entries.push({received_at: String(candidate.received_at ?? ''), event: candidate.event, mode: candidate.mode ?? null, payload: candidate.payload ?? null, headers: candidate.headers ?? {}})
  })
  return entries
}
