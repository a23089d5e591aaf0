import {openJournalFile, readJournal} from '../src/batch/journal-file.js'
import {realPath} from '../src/lib/file-identity.js'

/**
 * A batch journal's entries as the text of an NDJSON journal (one JSON text a line, each ended):
 * what a test reads of a journal, a database since, without taking its lock (one this process
 * holds keeps its lock: journal-file.ts readDatabase).
 */
export function journalText(path: string): string {
  return readJournal(realPath(path))
    .map((line) => `${line}\n`)
    .join('')
}

/**
 * Appends to the batch journal database at `path` (made when there is none) the entries of NDJSON
 * text (one JSON text a line, each ended): what a test would have written as a journal's text.
 */
export function writeJournal(path: string, text: string): string {
  const file = openJournalFile(path)
  try {
    file.append(text.split('\n').slice(0, -1))
  } finally {
    file.close()
  }
  return path
}
