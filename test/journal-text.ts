import {readJournal} from '../src/batch/journal-file.js'
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
