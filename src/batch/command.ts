import {InterruptedError, type StopSignal, UsageError} from '../errors.js'
import {DEFAULT_CONCURRENCY} from '../flags.js'
import type {BatchPlan} from '../live-safety.js'
import type {Deps} from '../operations/deps.js'
import {BatchView, totals} from '../output/batch.js'
import type {Io} from '../output/io.js'
import {toNdjsonLine} from '../output/json.js'
import {defaultJournalPath, inputHash, Journal} from './journal.js'
import type {BatchKind} from './kinds.js'
import {readInput} from './input.js'
import {readBatchInput} from './read.js'
import {checkRows} from './rows.js'
import {BatchRunner, invalidReport, isFinal} from './runner.js'

export interface BatchFlags {
  input: string
  concurrency?: number
  'skip-invalid': boolean
  'dry-run': boolean
  journal?: string
}

/** What a batch needs from the command that runs it (GwCommand). */
export interface BatchHost {
  io: Io
  json: boolean
  /** oclif's dataDir: gw's state directory, where default journals live. */
  dataDir: string
  now: () => Date
  /** Read-only refusal and the one live confirmation, then the deps the rows run with. */
  deps(plan: BatchPlan): Promise<Deps>
  /** Installs the soft stop: a first signal stops new rows, returning true; a second one returns the error to stop with. */
  onSignal(handler: ((signal: StopSignal) => true | InterruptedError) | undefined): void
}

/**
 * `gw refund create --input FILE` and `gw purchase create --input FILE` (issue 9): every row
 * checked before any is sent; then the rows, `--concurrency` at a time, each journaled before it
 * is sent and after its answer; a line per row as it finishes, a summary on stderr. Returns the
 * exit code: the worst row's, skipped invalid rows aside (design.md §4).
 */
export async function runBatch<Input, Body extends object>(kind: BatchKind<Input, Body>, flags: BatchFlags, host: BatchHost): Promise<number> {
  const {io} = host
  const {text, source} = await readInput(flags.input, io, new UsageError('--input - reads the batch from stdin, but stdin is a terminal', `Pipe it in, e.g. gw ${kind.commandId} --input - < ${kind.noun}s.csv`))
  const {valid, invalid} = checkRows(readBatchInput(text), kind.schema, source)
  if (invalid.length > 0 && !flags['skip-invalid']) {
    io.err(invalid.map((row) => `${source} line ${row.line}: ${row.messages.join('; ')}\n`).join(''))
    const total = valid.length + invalid.length
    throw new UsageError(`${invalid.length} of ${total} rows ${invalid.length === 1 ? 'is' : 'are'} invalid (line${invalid.length === 1 ? '' : 's'} ${lineList(invalid)}): nothing was sent`, 'Fix them and run it again, or add --skip-invalid to send the valid rows only.')
  }
  const previews = valid.map((row) => ({row, request: kind.preview(row.input)}))
  const plan: BatchPlan = {noun: kind.noun, rows: valid.length, totals: totals(previews.map(({request}) => request)) || 'nothing'}

  if (flags['dry-run']) {
    for (const row of invalid) io.out(toNdjsonLine({row: row.row, line: row.line, reference: row.reference ?? null, status: 'invalid', error: {messages: row.messages}}))
    for (const {row, request} of previews) io.out(toNdjsonLine({row: row.row, line: row.line, reference: row.reference, request: {...request, amount: request.amount ?? null}}))
    const full = previews.filter(({request}) => request.amount === undefined).length
    io.err(`Dry run: ${plan.rows} ${kind.noun}${plan.rows === 1 ? '' : 's'} would be sent (${plan.totals})${full > 0 ? `, ${full} of them each refunding its purchase in full` : ''}${invalid.length > 0 ? `; ${invalid.length} invalid row${invalid.length === 1 ? '' : 's'} skipped` : ''}. Nothing was sent.\n`)
    return 0
  }
  if (valid.length === 0) throw new UsageError(`${source} has no valid rows: nothing was sent`)

  const hash = inputHash(text)
  const journalPath = flags.journal ?? defaultJournalPath(host.dataDir, kind.commandId, hash)
  const journal = await Journal.open(journalPath, {command: kind.commandId, hash, now: host.now()})
  try {
    const answered = [...journal.results.values()].filter(isFinal).length
    const inDoubt = [...journal.intents.keys()].filter((reference) => {
      const result = journal.results.get(reference)
      return result === undefined || !isFinal(result)
    }).length
    io.err(`Journal: ${journal.path}${journal.resumed ? ` (resuming: ${answered} rows answered earlier, ${inDoubt} in doubt to look up first)` : ''}\n`)
    const deps = await host.deps(plan)
    const view = new BatchView(io, valid.length + invalid.length, kind.noun, {json: host.json})
    for (const row of invalid) view.skipped(invalidReport(row))
    const runner = new BatchRunner({rows: valid, sender: kind.sender(deps), journal, concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY, onRow: (report) => view.row(report)})
    let signalled = false
    host.onSignal((signal) => {
      // A second signal stops at once: the rows in flight are left in doubt, for the next run to look
      // up, and the summary names them all (the client would name only the one it sent last).
      if (signalled) return new InterruptedError(signal)
      signalled = true
      runner.stop(signal)
      io.err(`\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: finishing the ${kind.noun}s in flight, starting no more (again to stop at once).\n`)
      return true
    })
    const end = await runner.run()
    view.summary({notStarted: end.notStarted})
    if (end.stoppedBy) {
      throw new InterruptedError(end.stoppedBy, undefined, {hint: `${end.notStarted} rows were not started. Run the same command again to finish the batch: rows already answered are not sent again (journal ${journal.path}).`})
    }
    if (end.stoppedByError) throw end.stoppedByError
    return view.worstExitCode()
  } finally {
    host.onSignal(undefined)
    await journal.close()
  }
}

function lineList(rows: {line: number}[]): string {
  const lines = rows.map((row) => row.line)
  return lines.length > 10 ? `${lines.slice(0, 10).join(', ')}, ...` : lines.join(', ')
}
