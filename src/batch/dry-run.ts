import {GwError} from '../errors.js'
import {Tally} from '../output/batch-totals.js'
import type {Io} from '../output/io.js'
import {toNdjsonLine} from '../output/json.js'
import {redact} from '../safety/redact.js'
import type {BatchDeps, BatchFlags} from './batch-deps.js'
import {batchName, newBatchName} from './batch-name.js'
import {defaultJournalPath, type JournalInput, journalTarget} from './journal.js'
import {type Entries, type Intent, peekJournal, STDIN} from './journal-entries.js'
import {standingOf} from './journal-state.js'
import {type JournaledReferences, journaledReferences} from './journaled-references.js'
import {askedOf, atGateway, type BatchKind, type DryReference} from './kinds.js'
import {openBatch} from './read.js'
import {rowWords} from './row-words.js'
import {checkedRows, type Scan, validRows} from './rows.js'
import type {BatchSource} from './source.js'

/**
 * `--dry-run`: what the run would find of an earlier run of this batch, as the run would find it
 * (its journal, its rows matched and set aside), then a line per row and the totals. Nothing is sent.
 */
export async function dryRun<Input>(kind: BatchKind<Input, object>, flags: BatchFlags, f: BatchDeps, source: BatchSource, scan: Scan<Input>): Promise<number> {
  const earlier = await earlierRun(kind, flags, f, source, scan)
  // The batch's name at the gateway, as the real run would have it (batch-name.ts): a new batch has made nothing yet.
  const name = earlier?.entries.batch ?? (flags['new-batch'] ? newBatchName() : batchName(kind.commandId, scan.key))
  const intents = earlier?.entries.intents ?? new Map<string, Intent>()
  const journaled = await journaledReferences(intents, askedOf(kind), earlier?.entries.sameRows === false ? {by: 'order', given: scan.references} : {by: 'row'}, async () => validRows(await openBatch(source.path), scan))
  // As the run would set them aside: an earlier run's rows that no row of this input claims.
  const gone = [...intents.values()].filter((intent) => !scan.references.has(intent.intent) && !journaled.claims(intent.intent))
  const batch = await atGateway(kind, name, source.path, scan, gone)
  return await dryRunLines(kind, source.path, scan, f.io, {earlier, journaled}, {derive: await kind.dryReferences?.(f, scan.derivedShaped, batch), currencyOf: await kind.dryCurrency?.(f)})
}

/** What the real run would find of an earlier run of this batch: its journal, read and not locked; none without a gateway to tell which (no profile). */
async function earlierRun<Input>(kind: BatchKind<Input, object>, flags: BatchFlags, f: BatchDeps, source: BatchSource, scan: Scan<Input>): Promise<{path: string; entries: Entries} | undefined> {
  let baseUrl: string
  let username: string
  try {
    ;({baseUrl, username} = await f.target())
  } catch (err) {
    if (err instanceof GwError) return undefined
    throw err
  }
  const target = journalTarget(baseUrl, username)
  const input: JournalInput = {path: source.realPath, sha256: scan.key}
  const path = flags.journal ?? defaultJournalPath(f.dataDir, kind.commandId, input, target)
  const entries = await peekJournal(path, {command: kind.commandId, input, target, references: scan.references})
  return entries && {path, entries}
}

/**
 * A line per row, in the file's order, of what it would send (or why it would not),
 * and the totals. Rows an earlier run of this batch answered (this file, or the same rows moved or
 * copied) would not be sent again, and rows it left in doubt would be looked up first: said so.
 */
async function dryRunLines<Input>(
  kind: BatchKind<Input, object>,
  path: string,
  scan: Scan<Input>,
  io: Io,
  {earlier, journaled}: {earlier: {path: string; entries: Entries} | undefined; journaled: JournaledReferences<Input>},
  {derive, currencyOf}: {derive?: (input: Input, row: number) => Promise<DryReference | undefined>; currencyOf?: (input: Input) => Promise<string | undefined>},
): Promise<number> {
  const money = new Tally()
  let full = 0
  let sent = 0
  const done = {answered: 0, inDoubt: 0, made: 0, refused: 0}
  for await (const row of checkedRows(await openBatch(path), scan)) {
    if (!('input' in row)) {
      io.out(toNdjsonLine(redact({row: row.row, line: row.line, reference: row.reference ?? null, status: 'invalid', error: {messages: row.messages}})))
      continue
    }
    const reference = journaled.of(row) ?? row.reference
    const result = earlier?.entries.results.get(reference)
    const standing = standingOf(earlier?.entries.intents.get(reference), result)
    const request = kind.preview(row.input)
    // A row with no reference shows the one the run would derive for it, or the one this batch made it under at the gateway already; or why the run would refuse it.
    const derived = reference === '' ? await derive?.(row.input, row.row) : undefined
    if (derived && 'refused' in derived) {
      done.refused++
      io.out(toNdjsonLine(redact({row: row.row, line: row.line, reference: null, status: 'invalid', error: {messages: [derived.refused.message], hint: derived.refused.hint}})))
      continue
    }
    if (derived?.made) done.made++
    else if (standing === 'notStarted') {
      sent++
      // A row that names no currency (a refund's, a capture's) is in its purchase's, as the record says.
      money.add(request.amount, request.currency ?? (await currencyOf?.(row.input)))
      if (request.amount === undefined) full++
    } else done[standing]++
    const journal = derived?.made ? {gateway: 'made by an earlier run of this batch: not sent again'} : standing === 'notStarted' ? {} : {journal: standing === 'answered' ? `answered (${result!.status}): not sent again` : `in doubt: looked up first, sent only if ${rowWords(kind).sentUnless}`}
    io.out(toNdjsonLine(redact({row: row.row, line: row.line, reference: reference || derived?.reference || null, request: {...request, amount: request.amount ?? null}, ...journal})))
  }
  const skipped = scan.invalid.size
  const before = earlier && done.answered + done.inDoubt > 0 ? `; ${done.answered} answered and ${done.inDoubt} in doubt by an earlier run of this batch (journal ${earlier.path}${earlier.entries.movedFrom === undefined ? '' : `, begun for the same rows ${beganAt(earlier.entries.movedFrom)}`})` : ''
  const made = done.made > 0 ? `; ${done.made} made by an earlier run of this batch, found at the gateway` : ''
  const refused = done.refused > 0 ? `; ${done.refused} would be refused unsent (${done.refused === 1 ? 'its line says' : 'their lines say'} why)` : ''
  io.err(
    `Dry run: ${sent} ${rowWords(kind).row}${sent === 1 ? '' : 's'} would be sent (${money.text() || 'nothing'})${full > 0 ? `, ${full} of them ${rowWords(kind).inFull}` : ''}${before}${made}${refused}${skipped > 0 ? `; ${skipped} invalid row${skipped === 1 ? '' : 's'} skipped` : ''}. Nothing was sent.\n`,
  )
  return 0
}

/** Where a journal was begun: at a file, or on stdin. */
function beganAt(movedFrom: string): string {
  return movedFrom === STDIN ? 'on stdin' : `at ${movedFrom}`
}
