import type {RowReport, RowStatus} from '../batch/runner.js'
import {paint, type Style} from './colors.js'
import type {Io} from './io.js'
import {checkCommand} from './hints.js'
import {toNdjsonLine} from './json.js'
import {formatMoney} from './money.js'
import {redact} from '../redact.js'

/** A row's NDJSON line (design.md §3), keys in the documented order, DEL and C1 escaped as every JSON line is. */
export function rowLine(report: RowReport): string {
  return toNdjsonLine({
    row: report.row,
    line: report.line,
    reference: report.reference ?? null,
    status: report.status,
    exit_code: report.exitCode,
    ...(report.resumed ? {resumed: true} : {}),
    ...(report.record ? {record: redact(report.record)} : {}),
    ...(report.error || !report.record ? {error: report.error} : {}),
  })
}

const STATUS_STYLE: Record<RowStatus, Style> = {approved: 'green', declined: 'red', rejected: 'red', failed: 'red', unknown: 'yellow', invalid: 'yellow'}
const STATUSES: RowStatus[] = ['approved', 'declined', 'rejected', 'failed', 'unknown', 'invalid']

/** Text from the gateway or a file, with control characters made visible (never raw on a terminal). */
function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return text.replace(/[\u0000-\u001F\u007F-\u009F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function fit(text: string, width: number): string {
  const shown = visible(text)
  return shown.length > width ? shown.slice(0, width - 1) + '…' : shown.padEnd(width)
}

/**
 * What a batch shows as rows finish: an NDJSON line each on a pipe (or with --json), a table row
 * each on a terminal; a progress line on stderr for a person watching; a summary at the end.
 */
export class BatchView {
  private readonly ndjson: boolean
  private readonly reports: RowReport[] = []
  private readonly skippedRows = new Set<RowReport>()
  private readonly started = performance.now()
  private lastProgress = 0
  private headerShown = false

  constructor(
    private readonly io: Io,
    private readonly total: number,
    private readonly noun: 'purchase' | 'refund',
    {json}: {json: boolean},
  ) {
    this.ndjson = json || !io.isStdoutTTY
  }

  /** An invalid row left out with --skip-invalid: shown, but not a failure of the batch. */
  skipped(report: RowReport): void {
    this.skippedRows.add(report)
    this.row(report)
  }

  row(report: RowReport): void {
    this.reports.push(report)
    if (this.ndjson) this.io.out(rowLine(report))
    else this.io.out(this.tableRow(report))
    this.progress()
  }

  /** design.md §4: the highest code any row had; rows skipped as invalid (--skip-invalid) do not count. */
  worstExitCode(): number {
    return Math.max(0, ...this.reports.filter((r) => !this.skippedRows.has(r)).map((r) => r.exitCode))
  }

  /** The counts per status, the money per currency, and what to do about rows left in doubt. */
  summary(end: {notStarted: number}): void {
    this.io.status(undefined)
    const counts = STATUSES.map((status) => ({status, rows: this.reports.filter((r) => r.status === status)})).filter(({rows}) => rows.length > 0)
    const resumed = this.reports.filter((r) => r.resumed).length
    const parts = counts.map(({status, rows}) => `${rows.length} ${status}`)
    if (end.notStarted > 0) parts.push(`${end.notStarted} not started`)
    let text = `${this.total} ${this.noun}${this.total === 1 ? '' : 's'}: ${parts.join(', ') || 'nothing done'}`
    if (resumed > 0) text += ` (${resumed} done by an earlier run)`
    text += ` in ${((performance.now() - this.started) / 1000).toFixed(1)} s\n`
    for (const {status, rows} of counts) {
      if (rows.some((row) => row.amount !== undefined)) text += `  ${status.padEnd(9)}${totals(rows)}\n`
    }
    const doubtful = this.reports.filter((r) => r.status === 'unknown' && r.reference)
    if (doubtful.length > 0) {
      text += `${doubtful.length} ${this.noun}${doubtful.length === 1 ? '' : 's'} may or may not have reached the gateway. Do not send them again by other means: run this same command again, which looks each one up first, or check them: ${doubtful
        .slice(0, 3)
        .map((r) => checkCommand({noun: this.noun, reference: r.reference!}))
        .join('; ')}${doubtful.length > 3 ? '; ...' : ''}\n`
    }
    this.io.err(text)
  }

  private tableRow(report: RowReport): string {
    let text = ''
    if (!this.headerShown) {
      text += paint(this.io.color, 'bold', `${'ROW'.padStart(5)}  ${'LINE'.padStart(5)}  ${fit('REFERENCE', 24)}  ${fit('STATUS', 9)}  ${fit('AMOUNT', 16)}  RESULT`) + '\n'
      this.headerShown = true
    }
    const record = report.record
    // Without a currency an amount is shown as given, in minor units, as in the summary.
    const amount = report.amount === undefined ? '' : report.currency ? formatMoney(report.amount, report.currency) : String(report.amount)
    const result = record
      ? [record.id, record.message].filter((v) => typeof v === 'string' && v !== '').join('  ')
      : (report.error?.messages.join('; ') ?? '')
    const status = paint(this.io.color, STATUS_STYLE[report.status], fit(report.status, 9))
    return text + `${String(report.row).padStart(5)}  ${String(report.line).padStart(5)}  ${fit(report.reference ?? '', 24)}  ${status}  ${fit(amount, 16)}  ${visible(result)}${report.resumed ? ' (earlier run)' : ''}\n`
  }

  /** Done/total, rate, time left, outcomes so far: redrawn at most ten times a second. */
  private progress(): void {
    if (!this.io.chatty) return
    const now = performance.now()
    const done = this.reports.length
    if (done < this.total && now - this.lastProgress < 100) return
    this.lastProgress = now
    const seconds = (now - this.started) / 1000
    const rate = seconds > 0 ? done / seconds : 0
    const left = rate > 0 ? Math.round((this.total - done) / rate) : undefined
    const count = (status: RowStatus) => this.reports.filter((r) => r.status === status).length
    const failed = count('rejected') + count('failed') + count('unknown') + count('invalid')
    const eta = left === undefined ? '--:--' : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
    this.io.status(`${done}/${this.total}  ${rate.toFixed(1)}/s  ETA ${eta}  ${count('approved')} approved, ${count('declined')} declined, ${failed} failed`)
  }
}

/** `1,950.00 AUD; 30.00 NZD`: the rows' amounts added up per currency. */
export function totals(rows: {amount?: number; currency?: string}[]): string {
  const sums = new Map<string, number>()
  let unknown = 0
  for (const row of rows) {
    if (row.amount === undefined) unknown++
    else sums.set(row.currency ?? '', (sums.get(row.currency ?? '') ?? 0) + Math.abs(row.amount))
  }
  const parts = [...sums].map(([currency, sum]) => (currency ? formatMoney(sum, currency) : `${sum} (minor units)`))
  if (unknown > 0) parts.push(`${unknown} amount${unknown === 1 ? '' : 's'} not known`)
  return parts.join('; ')
}
