import type {JournalState} from '../batch/journal.js'
import type {RowReport, RowStatus} from '../batch/row-reports.js'
import {paint, type Style} from './colors.js'
import type {Io} from './io.js'
import {secondsLeft} from './countdown.js'
import {checkCommand, notYetNotice, waitingStatus} from './hints.js'
import {HeldByLimit, type LimitedClient} from './rate-limit-notice.js'
import {pickFields} from './fields.js'
import {toNdjsonLine} from './json.js'
import {moneyText, Tally} from './batch-totals.js'
import {maskCardNumbersIn, redact} from '../safety/redact.js'
import type {Waiting} from '../money/window.js'
import {rowWords, type RowWords} from '../batch/row-words.js'
import {isMade} from '../money/decide.js'
import type {RecordNoun} from '../errors.js'

/**
 * A row's NDJSON line (design.md §3), keys in the documented order, DEL and C1 escaped as every
 * JSON line is; a card number masked wherever it stands, in the record, the row's reference and
 * the messages and hint that name it. With `fields` (--json FIELDS, --fields) its record holds
 * those fields alone, the row's own keys kept.
 */
export function rowLine(report: RowReport, fields?: string[]): string {
  const record = report.record && (fields ? pickFields(report.record, fields) : report.record)
  return toNdjsonLine(
    redact({
      row: report.row,
      line: report.line,
      reference: report.reference || null,
      status: report.status,
      exit_code: report.exitCode,
      ...(report.resumed ? {resumed: true} : {}),
      ...(record ? {record} : {}),
      ...(report.error || !report.record ? {error: report.error} : {}),
    }),
  )
}

/** The most of a batch's lines held for one write: a pipe takes 64 KiB at once. */
const GROUP_BYTES = 64 * 1024

const STATUS_STYLE: Record<RowStatus, Style> = {approved: 'green', made: 'green', declined: 'red', rejected: 'red', failed: 'red', unknown: 'yellow', invalid: 'yellow', missing: 'red'}
const STATUSES: RowStatus[] = ['approved', 'made', 'declined', 'rejected', 'failed', 'unknown', 'missing', 'invalid']

/** Text from the gateway or a file, with control characters made visible (never raw on a terminal). */
function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return text.replace(/[\u0000-\u001F\u007F-\u009F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** A row's messages on one line, each said once: gw's words on a miss quote the gateway's, which follow them (batch/row-reports.ts). */
function saidOnce(messages: string[]): string {
  return messages.filter((message, i) => !messages.slice(0, i).some((earlier) => earlier.includes(message))).join('; ')
}

function fit(text: string, width: number): string {
  const shown = visible(text)
  return shown.length > width ? shown.slice(0, width - 1) + '…' : shown.padEnd(width)
}

/**
 * What a batch shows as rows finish: an NDJSON line each on a pipe (or with --json), a table row
 * each on a terminal; a progress line on stderr for a person watching; a summary at the end. It
 * keeps counts and sums, never the rows: a batch of any size costs the same memory.
 */
export class BatchView {
  private readonly ndjson: boolean
  private readonly fields?: string[]
  private readonly counts = new Map<RowStatus, number>()
  private readonly money = new Map<RowStatus, Tally>()
  private readonly started = performance.now()
  private done = 0
  private resumed = 0
  private worst = 0
  /** The first rows left unknown, to say how to check them; how many there were in all. */
  private readonly doubtful: string[] = []
  private doubts = 0
  private lastProgress = 0
  private headerShown = false
  private layout?: BatchTableLayout
  /** Rows in doubt waiting for the gateway, by reference: when each wait ends. */
  private readonly waits = new Map<string, number>()
  /** The gateway's rate limit, as the client tells it: counted down in the progress line, summed up in the summary. */
  private readonly limit: HeldByLimit
  private ticker?: NodeJS.Timeout
  /** NDJSON lines reported and not yet written: written together, once a turn of the event loop or GROUP_BYTES. */
  private pending = ''
  private writeQueued = false

  /** What a row is called, and what names it (a capture's row, its authorization's id). */
  private readonly words: RowWords

  constructor(
    private readonly io: Io,
    private readonly total: number,
    private readonly noun: RecordNoun,
    {json, fields, words, client}: {json: boolean; fields?: string[]; words?: RowWords; client?: LimitedClient},
  ) {
    // Fields picked are a record's, which the lines carry: a terminal's table shows the batch's own columns.
    this.ndjson = json || fields !== undefined || !io.isStdoutTTY
    this.fields = fields
    this.words = words ?? rowWords({noun})
    this.limit = new HeldByLimit(client, () => this.tick())
  }

  /** An invalid row left out with --skip-invalid: shown, but not a failure of the batch. */
  skipped(report: RowReport): void {
    this.show(report)
  }

  row(report: RowReport): void {
    this.worst = Math.max(this.worst, report.exitCode)
    this.show(report)
  }

  /**
   * A row in doubt that the gateway does not have yet and may still be processing (design.md §5):
   * said once in a line of its own, and counted down in the progress line at a terminal.
   */
  waiting(reference: string, waiting: Waiting | undefined, sentThisRun = false): void {
    if (waiting) {
      // An earlier run's request not there once the window is over never arrived, and is sent; this run's, whose answer was lost, is left in doubt.
      const then = sentThisRun ? `left in doubt (exit 8), not sent again` : 'sent'
      const never = this.words.action ? `If it does not show it then, the ${this.words.action} ${sentThisRun ? 'is' : 'never arrived, and is'} ${then}.` : `If it is not there then, it ${sentThisRun ? 'is' : 'never arrived, and is'} ${then}.`
      this.io.err(`${notYetNotice(this.noun, reference, waiting.endsAt - waiting.since, this.words.action)} ${never}\n`)
      this.waits.set(reference, waiting.endsAt)
    } else this.waits.delete(reference)
    this.tick()
  }

  /** The progress line redrawn now, and each second while a row waits for the gateway or its rate limit holds the batch. */
  private tick(): void {
    const waiting = this.waits.size > 0 || this.limit.holding
    if (waiting && this.io.progress) this.ticker ??= setInterval(() => this.tick(), 1000).unref()
    if (!waiting) this.stopTicking()
    this.progress(true)
  }

  private stopTicking(): void {
    clearInterval(this.ticker)
    this.ticker = undefined
  }

  /** design.md §4: the highest code any row had; rows skipped as invalid (--skip-invalid) do not count. */
  worstExitCode(): number {
    return this.worst
  }

  /** How many rows' outcome is unknown so far. */
  get unknownRows(): number {
    return this.counts.get('unknown') ?? 0
  }

  /**
   * The counts per status, the money per currency, and what to do about rows left in doubt; for a
   * batch that stopped early, its rows as the journal has them, in the words the next run uses.
   */
  summary(end: {notStarted: number; unfinished?: {journal: JournalState; path: string; finishByRunningAgain: boolean}}): void {
    this.flush()
    this.stopTicking()
    this.io.status(undefined)
    const counted = STATUSES.filter((status) => (this.counts.get(status) ?? 0) > 0)
    const parts = counted.map((status) => `${this.counts.get(status)} ${status}`)
    if (end.notStarted > 0) parts.push(`${end.notStarted} not started`)
    let text = `${this.total} ${this.words.row}${this.total === 1 ? '' : 's'}: ${parts.join(', ') || 'nothing done'}`
    if (this.resumed > 0) text += ` (${this.resumed} done by an earlier run)`
    const seconds = (performance.now() - this.started) / 1000
    text += ` in ${seconds.toFixed(1)} s\n${this.limit.summary(this.done - this.resumed, seconds, this.words.row)}`
    for (const status of counted) {
      const money = this.money.get(status)
      if (money?.anyKnown) text += `  ${status.padEnd(9)}${money.text()}\n`
    }
    if (this.doubts > 0) {
      text += `${this.doubts} ${this.words.row}${this.doubts === 1 ? '' : 's'} may or may not have reached the gateway. Do not send them again by other means: run this same command again, which looks each one up first, or check them: ${this.doubtful
        .map((reference) => checkCommand({noun: this.noun, reference}))
        .join('; ')}${this.doubts > this.doubtful.length ? '; ...' : ''}\n`
    }
    if (end.unfinished) {
      const {journal, path, finishByRunningAgain} = end.unfinished
      const failed = journal.failedUnsent ? ` (${journal.failedUnsent} of them failed with nothing made, and ${journal.failedUnsent === 1 ? 'is' : 'are'} tried again)` : ''
      text += `Not finished: ${journalStateText(journal)}${failed}`
      // Stopped by an error, the error says what to fix first (a live gateway behind a sandbox profile must not get the rest).
      text += finishByRunningAgain
        ? `. Run the same command again to finish the batch: it looks the rows in doubt up before sending anything, and sends the rows not started (journal ${path}).\n`
        : `; journal ${path}.\n`
    }
    this.io.err(text)
  }

  private show(report: RowReport): void {
    this.done++
    this.counts.set(report.status, (this.counts.get(report.status) ?? 0) + 1)
    const money = this.money.get(report.status) ?? new Tally()
    money.add(report.amount, report.currency)
    this.money.set(report.status, money)
    if (report.resumed) this.resumed++
    if (report.status === 'unknown' && report.reference) {
      this.doubts++
      if (this.doubtful.length < 3) this.doubtful.push(report.reference)
    }
    if (this.ndjson) this.group(rowLine(report, this.fields))
    else this.io.out(this.tableRow(report))
    this.progress()
  }

  /**
   * Writes the lines reported so far, at once: the summary does, and whatever ends the batch
   * (an error, a second Ctrl-C) before its summary.
   */
  flush(): void {
    this.writeQueued = false
    if (this.pending === '') return
    const text = this.pending
    this.pending = ''
    this.io.out(text)
  }

  /** A line on a pipe: the lines of one turn of the event loop go in one write, not a write each. */
  private group(line: string): void {
    this.pending += line
    if (this.pending.length >= GROUP_BYTES) this.flush()
    else if (!this.writeQueued) {
      this.writeQueued = true
      setImmediate(() => this.flush())
    }
  }

  private tableRow(report: RowReport): string {
    const {row, line, reference, amount} = (this.layout ??= batchTableLayout(this.io.columns))
    const cell = (width: number | undefined, text: string, start = false) => (width === undefined ? '' : (start ? text.padStart(width) : fit(text, width)) + '  ')
    let text = ''
    if (!this.headerShown) {
      text += paint(this.io.color, 'bold', `${cell(row, 'ROW', true)}${cell(line, 'LINE', true)}${cell(reference, this.words.key === 'id' ? 'ID' : 'REFERENCE')}${fit('STATUS', 9)}  ${cell(amount, 'AMOUNT')}RESULT`) + '\n'
      this.headerShown = true
    }
    const record = report.record
    const money = report.amount === undefined ? '' : moneyText(report.amount, report.currency)
    const result = record
      ? [record.id, record.message].filter((v) => typeof v === 'string' && v !== '').join('  ')
      : saidOnce(report.error?.messages ?? [])
    const status = paint(this.io.color, STATUS_STYLE[report.status], fit(report.status, 9))
    const shown = `${cell(row, String(report.row), true)}${cell(line, String(report.line), true)}${cell(reference, maskCardNumbersIn(report.reference ?? ''))}${status}  ${cell(amount, money)}${visible(maskCardNumbersIn(result))}`
    return text + `${shown}${report.resumed ? ' (earlier run)' : ''}\n`
  }

  /** Done/total, rate, time left, outcomes so far, and any wait for the gateway: redrawn at most ten times a second, unless a wait begins or ends. */
  private progress(force = false): void {
    if (!this.io.progress) return
    const now = performance.now()
    if (!force && this.done < this.total && now - this.lastProgress < 100) return
    this.lastProgress = now
    const seconds = (now - this.started) / 1000
    const rate = seconds > 0 ? this.done / seconds : 0
    const left = rate > 0 ? Math.round((this.total - this.done) / rate) : undefined
    const count = (status: RowStatus) => this.counts.get(status) ?? 0
    const failed = count('rejected') + count('failed') + count('unknown') + count('missing') + count('invalid')
    const eta = left === undefined ? '--:--' : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
    const waiting = this.waits.size > 0 ? `  ${waitingStatus(this.words.row, this.waits.size, secondsLeft(Math.max(...this.waits.values()), Date.now()))}` : ''
    // A plan or debit is made or not: approved and declined are a purchase's or refund's words.
    const done = isMade(this.noun) ? `${count('made')} made` : `${count('approved')} approved, ${count('declined')} declined`
    this.io.status(`${this.done}/${this.total}  ${rate.toFixed(1)}/s  ETA ${eta}  ${done}, ${failed} failed${waiting}${this.limit.status()}`)
  }
}

export interface BatchTableLayout {
  /** Widths of the columns before the status and the result; a column left out has none. */
  row?: number
  line?: number
  reference: number
  amount: number
}

/** Room the result (the record's id and outcome, or the error) is left at least. */
const RESULT_ROOM = 20

/**
 * A batch's table at a terminal this wide: its rows are printed as they finish, so its widths are
 * set before any is known. Every column fits in full when the terminal leaves the result its room;
 * narrower, the row number goes first (the line finds the row in the file), then the reference and
 * amount narrow, then the line goes; the status, what became of the row, always stays.
 */
export function batchTableLayout(width: number): BatchTableLayout {
  const steps: BatchTableLayout[] = [
    {row: 5, line: 5, reference: 24, amount: 16},
    {line: 5, reference: 24, amount: 16},
    {line: 5, reference: 16, amount: 12},
    {reference: 16, amount: 12},
    {reference: 12, amount: 12},
  ]
  // Each column and the status (9) take two spaces after them.
  const taken = (layout: BatchTableLayout) => [layout.row, layout.line, layout.reference, 9, layout.amount].reduce<number>((sum, w) => sum + (w === undefined ? 0 : w + 2), 0)
  return steps.find((layout) => taken(layout) + RESULT_ROOM <= width) ?? steps.at(-1)!
}

/** `9 rows answered, 2 in doubt, 29 not started`: a stopped batch says it so, and its next run the same. */
export function journalStateText({answered, inDoubt, notStarted}: JournalState): string {
  return `${answered} row${answered === 1 ? '' : 's'} answered, ${inDoubt} in doubt, ${notStarted} not started`
}
