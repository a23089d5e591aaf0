import {appendFile, mkdir, readdir} from 'node:fs/promises'
import {join} from 'node:path'
import {realPath} from '../lib/file-identity.js'
import {NotYoursError} from '../lib/not-yours.js'
import {readOwnFile} from '../lib/own-file.js'
import type {MadeFor} from '../lists/refund-match.js'
import type {Io} from '../output/io.js'
import {renderWarning} from '../output/warning.js'
import {eachJournalLine, journalHeaderLine} from './journal-file.js'
import {JOURNAL_EXTENSION, type JournalTarget, parseEntry, parseJson, sameTarget} from './journal-identity.js'

/** The places of refund journals a batch was given (`--journal FILE`), one JSON string a line: read as the data directory's own are. */
const placesFile = (dataDir: string) => join(dataDir, 'journals', 'elsewhere.ndjson')

/**
 * Notes where a refund batch's own journal (`--journal FILE`) is, by its real path, so that
 * journaledRefunds finds it as it finds those in gw's data directory. Each place once; appended
 * whole in one write, so two gw noting theirs at once both keep it.
 */
export async function noteJournalPlace(dataDir: string, journalPath: string): Promise<void> {
  const path = realPath(journalPath)
  if (journalPlaces(dataDir).includes(path)) return
  await mkdir(join(dataDir, 'journals'), {recursive: true, mode: 0o700})
  await appendFile(placesFile(dataDir), `${JSON.stringify(path)}\n`, {mode: 0o600})
}

/**
 * A refund journal given with --journal is noted in gw's data directory, so refund list --purchase
 * finds the refunds it holds as certain. Failing to note it costs only that, and is said; the
 * batch goes on.
 */
export async function noteRefundJournal({dataDir, io}: {dataDir: string; io: Pick<Io, 'err' | 'errColor'>}, journalPath: string): Promise<void> {
  try {
    await noteJournalPlace(dataDir, journalPath)
  } catch (err) {
    const cost = "refund list --purchase will show this batch's refunds as likely or possible ones, not certain"
    // The note is another user's, or others may change it: what it says, and its fix.
    if (err instanceof NotYoursError) renderWarning(io, `where this journal is could not be noted: ${cost}.\n${err.message}.`, err.hint)
    else renderWarning(io, `where this journal is could not be noted in ${dataDir} (${(err as NodeJS.ErrnoException).code ?? String(err)}): ${cost}.`)
  }
}

/**
 * The places noted (noteJournalPlace), each once. It throws when the note cannot be read, or is not
 * the user's own (NotYoursError): another's could point gw at journals that are not the user's.
 */
function journalPlaces(dataDir: string): string[] {
  const text = readOwnFile(placesFile(dataDir)) ?? ''
  const places = text.split('\n').map((line) => parseJson(line)).filter((place): place is string => typeof place === 'string')
  return [...new Set(places)]
}

/**
 * Which purchase gw's batch journals say each of these refunds (by id) was sent for: the row's
 * transaction_id, as the batch asked (an id or a reference). Read only, a line at a time, from the
 * journals in gw's data directory and those a batch was given with `--journal FILE`
 * (noteJournalPlace), written for this gateway and merchant. Only the results that name one of the
 * refunds, then those rows' intents, are parsed (a journal of 100,000 rows is some 55 MB). A
 * journal that cannot be read tells nothing: it is passed over.
 */
export async function journaledRefunds(dataDir: string, target: JournalTarget, refundIds: ReadonlySet<string>): Promise<Map<string, MadeFor>> {
  const made = new Map<string, MadeFor>()
  if (refundIds.size === 0) return made
  const directory = join(dataDir, 'journals')
  const names = await readdir(directory).catch(() => [] as string[])
  const own = names.filter((file) => file.startsWith('refund-create-') && file.endsWith(JOURNAL_EXTENSION)).map((name) => join(directory, name))
  let given: string[] = []
  try {
    given = journalPlaces(dataDir)
  } catch {
    // A note that cannot be used (unreadable, or others may change it) names none: the journals in gw's data directory still tell.
  }
  // A journal is read once, however it was found: a place noted may be one of the directory's own.
  const paths = new Set<string>()
  for (const path of [...own, ...given]) {
    try {
      paths.add(realPath(path))
    } catch {
      // A place that no longer resolves (a folder gone) holds nothing to read.
    }
  }
  for (const path of paths) await readJournal(path, target, refundIds, made).catch(() => undefined)
  return made
}

async function readJournal(path: string, target: JournalTarget, refundIds: ReadonlySet<string>, made: Map<string, MadeFor>): Promise<void> {
  const header = parseEntry(journalHeaderLine(path))
  if (header?.command !== 'refund create' || !sameTarget(header.target, target)) return
  const needles = [...refundIds].map((id) => `"id":${JSON.stringify(id)}`)
  // The rows' references whose results name one of the refunds, approved or not: gw sent them.
  const rows = new Map<string, string>()
  await eachJournalLine(path, (line) => {
    if (!line.startsWith('{"result":') || !needles.some((needle) => line.includes(needle))) return
    const entry = parseEntry(line)
    const id = (entry?.record as Record<string, unknown> | undefined)?.id
    if (typeof entry?.result === 'string' && typeof id === 'string' && refundIds.has(id)) rows.set(entry.result, id)
  })
  if (rows.size === 0) return
  const intents = [...rows.keys()].map((reference) => `{"intent":${JSON.stringify(reference)},`)
  await eachJournalLine(path, (line) => {
    if (!intents.some((intent) => line.startsWith(intent))) return
    const entry = parseEntry(line)
    const transactionId = (entry?.request as Record<string, unknown> | undefined)?.transaction_id
    const id = rows.get(String(entry?.intent))
    if (id !== undefined && typeof transactionId === 'string') made.set(id, {transactionId, by: 'journal'})
  })
}
