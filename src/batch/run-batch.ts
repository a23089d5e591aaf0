import {GwError, InterruptedError, stoppedByStdout, UsageError} from '../errors.js'
import {BatchView, journalStateText} from '../output/batch.js'
import {Tally} from '../output/batch-totals.js'
import {checkCommand} from '../output/hints.js'
import type {Io} from '../output/io.js'
import {DEFAULT_CONCURRENCY} from '../operations/deps.js'
import type {BatchDeps, BatchFlags, BatchPlan} from './batch-deps.js'
import {refuseAnotherInstance} from './instance.js'
import {noteRefundJournal} from './journaled-refunds.js'
import {defaultJournalPath, Journal, type JournalInput, type JournalOptions, JournalReplacedError, journalTarget, lockSameBatch} from './journal.js'
import {STDIN} from './journal-entries.js'
import {type JournalWorker, startJournalWorker} from './journal-worker.js'
import {journalState, setAside} from './journal-state.js'
import {askedOf, atGateway, type BatchKind} from './kinds.js'
import {dryRun} from './dry-run.js'
import {rowWords} from './row-words.js'
import {openBatch} from './read.js'
import {journaledReferences, withJournaledReferences} from './journaled-references.js'
import {type InvalidRow, type Scan, scanRows, validRows} from './rows.js'
import {derivedFrom} from '../lists/refund-match.js'
import {invalidReport} from './row-reports.js'
import {BatchRunner} from './runner.js'
import {type BatchSource, batchSource} from './source.js'

/**
 * `gw refund create --input FILE` and `gw purchase create --input FILE` (design.md §5): every row
 * checked before any is sent, reading the file once; then the rows, read again as they are sent,
 * `--concurrency` at a time, each journaled before it is sent and after its answer; a line per row
 * as it finishes, a summary on stderr. No row is held longer than it takes to send it. Returns
 * the exit code: the worst row's, skipped invalid rows aside (design.md §4).
 */
export async function runBatch<Input, Body extends object>(kind: BatchKind<Input, Body>, flags: BatchFlags, f: BatchDeps): Promise<number> {
  const {io} = f
  // A dry run's lines are the requests it would send: there is no record to pick fields of.
  if (flags['dry-run'] && f.fields) throw new UsageError('--dry-run prints the requests a batch would send, and --json FIELDS or --fields pick the fields of the records it makes', 'Leave the fields out of the dry run, or pick from its lines with --jq, e.g. --jq .request.amount.')
  const source = await batchSource(flags.input, io, new UsageError('--input - reads the batch from stdin, but stdin is a terminal', `Pipe it in, e.g. gw ${kind.commandId} --input - < ${kind.noun.replace(' ', '-')}s.csv`))
  const concurrency = flags.concurrency ?? DEFAULT_CONCURRENCY
  // Rows that will not all go out at once commit on a worker (commitsOnWorker): started as soon as
  // the scan has counted one row more than --concurrency, it loads while the rest of the input is read.
  let worker: JournalWorker | undefined
  const counted = (rows: number) => {
    if (!worker && !flags['dry-run'] && commitsOnWorker(rows, concurrency)) worker = startJournalWorker()
  }
  try {
    const scan = await scanRows(await openBatch(source.path), kind.schema, source.name, counted)
    const invalid = [...scan.invalid.values()].sort((a, b) => a.row - b.row)
    if (invalid.length > 0 && !flags['skip-invalid']) {
      io.err(invalid.map((row) => `${source.name} line ${row.line}: ${row.messages.join('; ')}\n`).join(''))
      throw new UsageError(`${invalid.length} of ${scan.total} rows ${invalid.length === 1 ? 'is' : 'are'} invalid (line${invalid.length === 1 ? '' : 's'} ${lineList(invalid)}): nothing was sent`, 'Fix them and run it again, or add --skip-invalid to send the valid rows only.')
    }
    if (flags['dry-run']) return await dryRun(kind, flags, f, source, scan)
    if (scan.valid === 0) throw new UsageError(`${source.name} has no valid rows: nothing was sent`)
    return await send(kind, flags, f, source, scan, invalid, worker ?? 'this')
  } finally {
    // Whatever the batch came to (the journal ends a worker it opened on as it closes; ending one twice is nothing).
    await worker?.end()
    await source.dispose()
  }
}

/**
 * Rows that all go out at once (no more than --concurrency) leave no answers to read while a
 * commit syncs: their journal is held on this thread, and a worker's start (~30 ms of CPU, a V8
 * isolate of its own) is not paid. More rows commit on a worker, the answers read meanwhile.
 */
export const commitsOnWorker = (rows: number, concurrency: number): boolean => rows > concurrency

async function send<Input, Body extends object>(
  kind: BatchKind<Input, Body>,
  flags: BatchFlags,
  f: BatchDeps,
  source: BatchSource,
  scan: Scan<Input>,
  invalid: InvalidRow[],
  thread: 'this' | JournalWorker,
): Promise<number> {
  const {io} = f
  const {baseUrl, username} = await f.target()
  // A journal answers for this gateway and merchant alone, however the gateway's address is spelled.
  const target = journalTarget(baseUrl, username)
  const input: JournalInput = {path: source.realPath, sha256: scan.key}
  // Kept from an earlier run: the input's rows, and the references derived for rows that give none (those no row claims are set aside below).
  const references = {has: (reference: string) => scan.references.has(reference) || derivedFrom(reference) !== undefined, keys: () => scan.references.keys()}
  const journal = await openJournal(flags.journal, f.dataDir, {command: kind.commandId, input, now: new Date(), target, references, thread, newBatch: flags['new-batch']})
  let shown: BatchView | undefined
  try {
    // A reference made for a row is none that rows give or an earlier run journaled (only derived-shaped ones could be made).
    const taken = new Set([...scan.derivedShaped, ...journal.intents.keys()])
    const journaled = await journaledReferences(journal.intents, askedOf(kind), journal.sameRows ? {by: 'row'} : {by: 'order', given: scan.references}, async () => validRows(await openBatch(source.path), scan))
    // Rows without a reference that an edited file no longer has (the journal kept no other reference the file lacks): none counted, one in doubt named below.
    const gone = setAside(journal, (reference) => !scan.references.has(reference) && !journaled.claims(reference))
    // In the words a stopped run used: the rows in doubt are looked up before anything is sent.
    io.err(`Journal: ${journal.path}${journal.resumed ? ` (resuming: ${journalStateText(journalState(journal, scan.valid))})` : ''}\n`)
    if (journal.movedFrom !== undefined) {
      // Said wherever the batch was begun, stdin too: a resume no one is told of looks like a new batch that sent nothing.
      const how = journal.movedFrom === STDIN ? `on stdin: this is that batch, given again as ${source.name}` : `at ${journal.movedFrom}: this is that batch, moved or copied`
      const anew = kind.anew === undefined ? ' To send these rows as a new batch, give it a journal of its own with --journal FILE.' : kind.anew === null ? '' : ` ${kind.anew}`
      io.err(`Journal: it was begun for the same rows ${how}, and what it sent is not sent again.${anew}\n`)
    }
    if (flags.journal !== undefined && kind.commandId === 'refund create') await noteRefundJournal(f, journal.path)
    for (const left of journal.inDoubtElsewhere) {
      io.err(`Journal: ${rowWords(kind).key} ${left.intent} (line ${left.line} then) was sent by an earlier run with no answer kept, and ${source.name} no longer has it: check it with ${checkCommand({noun: kind.noun, reference: left.intent})} before sending it again.\n`)
    }
    // A read-only profile refuses the batch, and a live one has it confirmed once (told what it sends): its client then sends every row unasked.
    const deps = await f.confirmed(() => plan(kind, source.path, scan))
    await refuseAnotherInstance(journal, target, deps)
    // Its lines reported and not yet written are written whatever ends the batch.
    const view = (shown = new BatchView(io, scan.total, kind.noun, {json: f.json, fields: f.fields, words: rowWords(kind), client: deps.client}))
    for (const row of invalid) view.skipped(invalidReport(row))
    const runner = new BatchRunner({
      rows: withJournaledReferences(validRows(await openBatch(source.path), scan), journaled),
      total: scan.valid,
      sender: kind.sender(deps, taken, f, await atGateway(kind, journal.batch, source.path, scan, gone)),
      journal,
      concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
      onRow: (report) => view.row(report),
      windowMs: () => deps.client.processingWindow(),
      onWaiting: (row, waiting, sentThisRun) => view.waiting(row.reference, waiting, sentThisRun),
      gatewayInstance: () => deps.client.gatewayInstance,
      verify: flags.verify,
      ready: (stop) => outputReady(io, stop),
    })
    // A row the gateway rate limited goes again once its intent says when (design.md §5).
    deps.client.beforeResend((inFlight) => runner.gateway.resending(inFlight.reference))
    // stdout's reader gone (`| head -1`) or stdout full: no new row is started, those in flight finish into the journal.
    let broken: NodeJS.ErrnoException | undefined
    io.onOutClosed((err) => {
      broken ??= err
      runner.stop('stdout')
    })
    let signals = 0
    f.onSoftStop((signal) => {
      // The first finishes the rows in flight. The second aborts them, left in doubt, and the batch ends here:
      // its summary names them all (the client would name only its last). A third stops gw at once.
      if (++signals === 1) {
        runner.stop(signal)
        io.err(`\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: finishing the ${rowWords(kind).row}s in flight, starting no more (again to stop at once).\n`)
        return 'finish'
      }
      if (signals === 2) return 'abort'
      view.flush()
      return new InterruptedError(signal)
    })
    const end = await runner.run()
    if (end.changedLines.length > 0) {
      const lines = lineList(end.changedLines.map((line) => ({line})))
      io.err(`Line${end.changedLines.length === 1 ? '' : 's'} ${lines} of ${source.name} ${end.changedLines.length === 1 ? 'was' : 'were'} changed after an earlier run sent ${end.changedLines.length === 1 ? 'it' : 'them'}: not sent again (exit 2). Put ${end.changedLines.length === 1 ? 'it' : 'them'} back as ${end.changedLines.length === 1 ? 'it was' : 'they were'}, or give each change a reference of its own.\n`)
    }
    const unfinished = (end.stoppedBy || end.stoppedByError) && !(end.stoppedByError instanceof JournalReplacedError) ? {journal: end.journal, path: journal.path, finishByRunningAgain: !end.stoppedByError} : undefined
    view.summary({notStarted: end.notStarted, unfinished})
    if (end.stoppedBy === 'stdout') {
      const rerun = `Every row sent has its result in the journal ${journal.path}; run the same command again to finish the batch.`
      // --jq failed on a row's line (output/jq.ts): its error, not stdout's.
      if (broken instanceof GwError) throw Object.assign(new GwError(broken.kind, broken.exitCode, `${broken.message}: no more rows were started`, {hint: rerun}), {cause: broken})
      throw stoppedByStdout(broken, 'no more rows were started', rerun)
    }
    if (end.stoppedBy) {
      // The summary's last line said what is left and how to finish it.
      throw new InterruptedError(end.stoppedBy)
    }
    if (end.stoppedByError) throw end.stoppedByError
    return view.worstExitCode()
  } finally {
    f.onSoftStop(undefined)
    shown?.flush()
    await journal.close()
  }
}

/** The journal given, or the one this batch's rows were begun under (found under the same-batch lock), or a new one. */
async function openJournal(given: string | undefined, dataDir: string, options: JournalOptions): Promise<Journal> {
  if (given !== undefined) return Journal.open(given, options)
  const choosing = lockSameBatch(dataDir, options.command, options.input.sha256, options.target)
  try {
    return await Journal.open(defaultJournalPath(dataDir, options.command, options.input, options.target), options)
  } finally {
    choosing.release()
  }
}

/** What the batch is about to send, for its one live confirmation: read from the file, not held. */
async function plan<Input>(kind: BatchKind<Input, object>, path: string, scan: Scan<Input>): Promise<BatchPlan> {
  const money = new Tally()
  for await (const row of validRows(await openBatch(path), scan)) {
    const request = kind.preview(row.input)
    money.add(request.amount, request.currency)
  }
  // Never empty: a batch sends at least one row, and a row without an amount is counted as one not known.
  return {noun: rowWords(kind).row, rows: scan.valid, totals: money.text()}
}

/** Once stdout (or --jq's filter) has taken what waits for it, or `stop` is aborted. */
function outputReady(io: Io, stop: AbortSignal): Promise<void> {
  if (stop.aborted) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const done = () => {
      stop.removeEventListener('abort', done)
      resolve()
    }
    stop.addEventListener('abort', done)
    void io.outReady().then(done)
  })
}

function lineList(rows: {line: number}[]): string {
  const lines = rows.map((row) => row.line)
  return lines.length > 10 ? `${lines.slice(0, 10).join(', ')}, ...` : lines.join(', ')
}
