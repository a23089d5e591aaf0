import {batchName} from './batch-name.js'
import {journalFormat, readJournal} from './journal-file.js'
import {entryKey, journalSecret, resolveKeyed} from './journal-names.js'
import {UsageError} from '../errors.js'
import {realPath} from '../lib/file-identity.js'
import {checkOwnPath} from '../lib/own-file.js'
import {atRest, hexOfLettered} from '../safety/at-rest.js'
import {type JournalInput, type JournalTarget, journalTarget, parseEntry, rowChanges, sameRowsKey, sameTarget, unreadable, writtenAddress, type WrittenTarget} from './journal-identity.js'

/**
 * A batch journal's lines (design.md §5): a header naming the batch, then for each row an intent
 * before it is sent, a result once it is answered, or a withdrawal when it was not sent after all.
 * And how a journal's whole lines are read back, by the run that opens it and by a dry run.
 */

/** The first line of a journal: which command, input and gateway it records. */
export interface Header {
  journal: 1
  command: string
  /** The input file's real path; absent for stdin. */
  input?: string
  /** The input's rows when the journal was begun (rows-key.ts), lettered (at-rest.ts): how stdin is known. */
  input_sha256: string
  target: WrittenTarget
  created_at: string
  /** The batch's name at the gateway (batch-name.ts) when its user began it anew (--new-batch); absent, it is named by its command and rows. */
  batch?: string
}

/** Written and fsync'd before a row's request is sent: the request itself (no card data: batch rows carry tokens). */
export interface Intent {
  intent: string
  row: number
  line: number
  request: Record<string, unknown>
  /**
   * When the request was about to leave (ISO 8601): the runner sends it within INTENT_FRESH_MS of
   * this, or journals a fresh intent first. A rerun counts the gateway's processing window from it.
   */
  sent_at: string
  /** The row as the file asked for it, where the request differs (a full refund's amount, looked up): what an edited row is compared with. */
  asked?: Record<string, unknown>
}

/** A row's intent, about to be sent at `at`: `asked` is kept beside the request only where they differ. */
export function intentEntry(row: {row: number; line: number; reference: string}, request: Record<string, unknown>, asked: Record<string, unknown>, at: number): Intent {
  return {intent: row.reference, row: row.row, line: row.line, request, sent_at: new Date(at).toISOString(), ...(rowChanges({request}, asked).length > 0 ? {asked} : {})}
}

/**
 * Written when a row whose intent was synced is not sent after all (the batch stopped while it
 * waited for a request slot): its intent no longer counts, and the next run sends it as a row
 * never started, with nothing to look up.
 */
export interface Withdrawal {
  withdrawn: string
}

/** Written and fsync'd once a row's answer is known, before the row is reported. */
export interface Result {
  result: string
  status: string
  exit_code: number
  record?: Record<string, unknown>
  error?: Record<string, unknown>
  amount?: number
  currency?: string
  /**
   * The run of the local gateway's data that answered (X-Sandbox-Instance): a later run reports
   * the row from the journal only to that same run. Absent from a gateway that names none.
   */
  gateway_instance?: string
}

/**
 * What the real run would read of an earlier run's journal at `path`, read without its lock and
 * without making it (--dry-run); undefined when there is none. Another batch's is refused as the
 * real run refuses it.
 */
export async function peekJournal(path: string, asked: JournalAsked): Promise<Entries | undefined> {
  let lines: string[] | undefined
  checkOwnPath(path)
  try {
    const file = realPath(path)
    if (journalFormat(file) !== 'other') lines = readJournal(file)
  } catch (err) {
    throw unreadable(path, err as NodeJS.ErrnoException)
  }
  if (!lines) throw notAJournal(path)
  return lines.length === 0 ? undefined : readEntries(path, lines.join('\n') + '\n', {...asked, target: journalTarget(asked.target.base_url, asked.target.username)})
}

/** What a journal is read for: this batch's command, input and gateway, and the input's references (those the journal may hold masked are found by them). */
export interface JournalAsked {
  command: string
  input: JournalInput
  target: JournalTarget
  references?: {keys(): Iterable<string>}
}

/** What Entries.movedFrom holds for a batch begun on stdin, which no path names. */
export const STDIN = 'stdin'

/** The entries of a journal's whole lines, in order. */
export interface Entries {
  intents: Map<string, Intent>
  results: Map<string, Result>
  /** The input file the journal was begun for (its header's), when that is another path than this run's. */
  movedFrom?: string
  /** Whether this run's input holds the rows the journal was begun for (rows-key.ts), not an edit of them: its rows are known by their place among the rows, not by their lines. */
  sameRows: boolean
  /** The batch's name at the gateway (batch-name.ts): the header's, for a batch begun anew; else its command's and rows', as it was begun. */
  batch: string
  /** Whether the batch was begun anew (--new-batch), its name its own. */
  begunAnew: boolean
  /** The journal's key for references that hold a card number (journal-names.ts journalSecret). */
  secret: string
}

/** A journal's entries, once its header shows it is this batch's against this gateway. */
export function readEntries(path: string, text: string, asked: JournalAsked): Entries {
  const lines = text.split('\n').slice(0, -1)
  const header = parseEntry(lines[0]) as Partial<Header> | undefined
  if (typeof header?.journal === 'number' && header.journal !== 1) throw ofAnotherVersion(path, header.journal)
  if (header?.journal !== 1 || !(header.target instanceof Object)) throw notAJournal(path)
  if (header.command !== asked.command) {
    throw new UsageError(`${path} is the journal of a gw ${header.command} batch, not gw ${asked.command}: nothing was sent`, 'Give this batch a journal of its own with --journal FILE.')
  }
  // A file is the same input however it was edited (its rows are compared one by one); the same
  // rows are the same input wherever they now are (a file moved, copied or hard-linked; stdin).
  const sameRows = sameRowsKey(header.input_sha256, asked.input.sha256)
  // The path as the header keeps it: masked where its digits read as a card number (`refunds-20261127-090300.csv`).
  const samePath = header.input === atRest(asked.input.path)
  const sameInput = sameRows || (header.input !== undefined && samePath)
  if (!sameInput) {
    const theirs = header.input ?? `an input with sha256 ${hexOfLettered(String(header.input_sha256)).slice(0, 12)}...`
    const ours = asked.input.path ?? `stdin with sha256 ${asked.input.sha256.slice(0, 12)}...`
    throw new UsageError(`${path} was written for another input (${theirs}), and this is ${ours}: nothing was sent`, 'Run the input that journal belongs to, or give this one its own --journal FILE.')
  }
  if (!sameTarget(header.target, asked.target)) {
    const {base_url, username} = header.target
    throw new UsageError(
      `${path} is the journal of this batch sent as ${username} to ${writtenAddress(base_url) ?? base_url}, and this run sends as ${asked.target.username} to ${asked.target.base_url}: nothing was sent`,
      'What one gateway answered says nothing of another: leave --journal out (each gateway and merchant gets a journal of its own), or give this run its own --journal FILE.',
    )
  }
  // In order: a withdrawal takes back the intent before it, and a later run's intent counts again.
  // stdin has no path: a batch begun there and given again as a file (or the other way round) is moved too.
  const begunAnew = typeof header.batch === 'string'
  const entries: Entries = {
    intents: new Map(),
    results: new Map(),
    movedFrom: samePath ? undefined : (header.input ?? STDIN),
    sameRows,
    // Named by the rows it was begun for: these, or an edited input's earlier ones.
    batch: begunAnew ? header.batch! : batchName(header.command, sameRows ? asked.input.sha256 : hexOfLettered(String(header.input_sha256))),
    begunAnew,
    secret: journalSecret(lines[0]!),
  }
  lines.slice(1).forEach((line, index) => {
    const entry = parseEntry(line) as Partial<Intent & Result & Withdrawal> | undefined
    if (!entry) throw new UsageError(`${path} line ${index + 2} cannot be read: the journal is damaged, nothing was sent`, 'Check the rows it names with gw refund get or gw purchase get before running the batch with a new --journal.')
    // A reference the file holds masked is found by its keyed hash, then by the input's reference that hashes to it.
    // An intent without its time (a damaged line) gets one no clock reads: it counts as just sent.
    if (typeof entry.intent === 'string') entries.intents.set(entryKey(entry, entry.intent), {...entry, sent_at: typeof entry.sent_at === 'string' ? entry.sent_at : ''} as Intent)
    else if (typeof entry.result === 'string') entries.results.set(entryKey(entry, entry.result), entry as Result)
    else if (typeof entry.withdrawn === 'string') entries.intents.delete(entryKey(entry, entry.withdrawn))
  })
  for (const map of [entries.intents, entries.results] as Map<string, object>[]) resolveKeyed(map, entries.secret, asked.references?.keys() ?? [])
  return entries
}

/** A journal of another version than this gw's (1): what it holds may be read otherwise, so none of it is taken. */
function ofAnotherVersion(path: string, version: number): UsageError {
  return new UsageError(`${path} is a gw batch journal of version ${version}, and this gw reads version 1 only: nothing was sent, and it is left as it is`, 'Finish that batch with the gw that began it, or give this run its own --journal FILE.')
}

export function notAJournal(path: string): UsageError {
  return new UsageError(`${path} is not a gw batch journal, and is left as it is: nothing was sent`, 'Give --journal a file of its own (a new one is made), or leave --journal out for the default one.')
}
