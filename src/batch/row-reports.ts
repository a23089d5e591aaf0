import type {RowWords} from './row-words.js'
import {GwError, InterruptedError, NotFoundError, type RecordNoun} from '../errors.js'
import {exitCodeOf, foundByReference} from '../money/decide.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {Sent} from '../operations/money.js'
import {checkCommand, hintFor} from '../output/hints.js'
import {redact} from '../safety/redact.js'
import type {Result} from './journal-entries.js'
import {isFinal} from './journal-state.js'
import type {InvalidRow, ValidRow} from './rows.js'

/** What a batch reports of its rows, row by row: the shapes, and the reports made without the gateway's answer of this run. */

/**
 * `made`: a payment plan or direct debit the gateway holds (exit 0, as approved); `missing`: done
 * by an earlier run as its journal has it, and not found at the gateway by --verify.
 */
export type RowStatus = 'approved' | 'made' | 'declined' | 'rejected' | 'failed' | 'unknown' | 'invalid' | 'missing'

/** What became of one row: its NDJSON line (design.md §3) and what the summary adds up. */
export interface RowReport {
  row: number
  line: number
  reference?: string
  status: RowStatus
  exitCode: number
  /** Reported from the journal, or found at the gateway under its reference: not sent by this run. */
  resumed: boolean
  /**
   * Unknown although the gateway answered (what it holds under the reference is not what was sent,
   * does not say, or cannot be found by a reference at all: a debit): no lost answer, for all its doubt.
   */
  reached?: true
  /** The gateway's record of the transaction; with `error` too when the row still failed (answered by the wrong gateway). */
  record?: GwRecord
  error?: ErrorFields
  /** Minor units the row moves (or would have), and in which currency when known. */
  amount?: number
  currency?: string
}

/** A failure as a row's `error` field: the §3 error object's fields. */
export interface ErrorFields {
  kind: string
  status: number | null
  messages: string[]
  request_id: string | null
  hint?: string
}

/** A row answered for sure by an earlier run, reported as its journal has it. */
export function fromJournal(row: ValidRow<unknown>, result: Result): RowReport {
  return {
    row: row.row,
    line: row.line,
    reference: row.reference,
    status: result.status as RowStatus,
    exitCode: result.exit_code,
    resumed: true,
    record: result.record,
    error: result.error as ErrorFields | undefined,
    amount: result.amount,
    currency: result.currency,
  }
}

/** A row's report as its result line, card numbers masked; `gatewayInstance`, the run of the gateway's data that answered. */
export function resultEntry(reference: string, report: RowReport, gatewayInstance: string | undefined): Result {
  return {
    result: reference,
    status: report.status,
    // What became of the money: a row answered by the wrong gateway exits 6 in this run only.
    exit_code: report.status === 'approved' || report.status === 'made' ? 0 : report.status === 'declined' ? 3 : report.exitCode,
    ...(report.record ? {record: redact(report.record)} : {error: report.error as unknown as Record<string, unknown>}),
    amount: report.amount,
    currency: report.currency,
    // Left out of the line (JSON) when the gateway names no run of its data.
    gateway_instance: gatewayInstance,
  }
}

/** A row an earlier run sent (answered, or in doubt, from line `sentFrom`) that the file now asks otherwise: neither sent nor looked up again. */
export function changedRow(row: ValidRow<unknown>, changes: string[], done: Result | undefined, sentFrom: number): RowReport {
  const then = done && isFinal(done) ? `had its answer (${done.status})` : 'has no answer known'
  // A row of an edited file may be one sent from another line (journaled-references.ts).
  const where = sentFrom === row.line ? `Line ${row.line}` : `Line ${row.line} (line ${sentFrom} when it was sent)`
  return notSent(row, [`${where} was changed after an earlier run sent it (${changes.join('; ')}); that ${then}: it was not sent again`], {
    hint: 'A row that was sent cannot change: put the line back as it was to finish it, or give the change a reference of its own (a new row).',
  })
}

/** --verify: a row the journal has done that the gateway has nothing of under its reference (or its id, for a kind found by id only). */
export function missingRow(row: ValidRow<unknown>, done: Result, words: Pick<RowWords, 'row' | 'key'> & {noun: RecordNoun}): RowReport {
  const madeAs = typeof done.record?.id === 'string' && words.key === 'reference' ? done.record.id : undefined
  const id = madeAs ? ` as ${madeAs}` : ''
  // A capture's record is there all along, named by the id: what is missing is the change.
  const noun = words.noun
  const missing = words.key === 'id' ? `${noun} ${row.reference} shows no ${words.row}` : madeAs && !foundByReference(noun) ? `the gateway has no ${noun} ${madeAs}` : `the gateway has no ${noun} under reference ${row.reference}`
  return {
    row: row.row,
    line: row.line,
    reference: row.reference,
    status: 'missing',
    exitCode: 5,
    resumed: false,
    error: {
      kind: 'not_found',
      status: 404,
      messages: [`The journal has this ${words.row} ${done.status}${id} by an earlier run, and ${missing}: it was not sent again`],
      request_id: null,
      hint: `Check it with ${checkCommand({noun, reference: row.reference})}; if the gateway really has none, send the row again with a journal of its own (--journal FILE).`,
    },
    amount: done.amount,
    currency: done.currency,
  }
}

type RowId = Pick<ValidRow<unknown>, 'row' | 'line' | 'reference'>
type Money = {amount?: number; currency?: string}

/** A decided purchase or refund as a row's status: another's reference is the gateway's refusal of this one. */
const ROW_STATUS = {approved: 'approved', made: 'made', declined: 'declined', taken: 'rejected', unknown: 'unknown'} as const satisfies Record<Sent['decided']['outcome'], RowStatus>

/**
 * A row whose purchase or refund was decided (sent now, or found sent earlier): its record, the
 * failure it exits with, and for an answer from the wrong gateway both. `money` says what it
 * moves, from the record when there is one.
 */
export function decidedRow(row: RowId, sent: Sent, money: (record: GwRecord | undefined) => Money): RowReport {
  const {decided, failure, wrongGateway} = sent
  const answered = decided.outcome === 'approved' || decided.outcome === 'made' || decided.outcome === 'declined' ? decided : undefined
  const record = answered?.record
  return {
    row: row.row,
    line: row.line,
    reference: row.reference,
    status: ROW_STATUS[decided.outcome],
    exitCode: wrongGateway ? wrongGateway.exitCode : exitCodeOf(decided),
    resumed: answered?.source === 'earlier',
    ...(decided.outcome === 'unknown' && decided.reason.why !== 'unanswered' ? {reached: true as const} : {}),
    ...(record ? {record} : {}),
    ...(failure && (!record || wrongGateway) ? {error: errorFields(failure)} : {}),
    ...money(record),
  }
}

/** A row whose request failed (or could not be made), as its report: anything not gw's own error is an unexpected failure (exit 1). */
export function failedRow(row: RowId, err: unknown, money: Money): RowReport {
  const error = err instanceof GwError ? err : new GwError('unexpected', 1, `Unexpected failure: ${err instanceof Error ? err.message : String(err)}`)
  const status = statusOf(error)
  return {row: row.row, line: row.line, reference: row.reference, status, exitCode: status === 'unknown' ? 8 : error.exitCode, resumed: false, error: errorFields(error), ...money}
}

/** A failure as a row's status: whether the gateway judged the row, and how. */
export function statusOf(error: GwError): RowStatus {
  if (error.exitCode === 3) return 'declined'
  if (error.exitCode === 8 || error instanceof InterruptedError) return 'unknown'
  if (error.exitCode === 2) return 'invalid'
  // Unreachable, a 5xx, credentials refused, or rate limited past gw's wait: the gateway never judged the row.
  if (error.exitCode === 1 || error.exitCode === 4 || error.exitCode === 9) return 'failed'
  return 'rejected'
}

/**
 * A failure as a row's `error` field, with the hint a person needs. A miss leads with gw's words,
 * as the command with one key says it (which record, what the key was tried as:
 * operations/resolve.ts), the gateway's own messages kept after them as it sent them.
 */
export function errorFields(error: GwError): ErrorFields {
  const hint = hintFor(error)
  const messages = error instanceof NotFoundError && error.message !== error.messages.join('; ') ? [error.message, ...error.messages] : error.messages
  return {kind: error.kind, status: error.status ?? null, messages, request_id: error.requestId ?? null, ...(hint ? {hint} : {})}
}

/** A row that failed the checks, as its report (skipped with --skip-invalid). */
export function invalidReport(row: InvalidRow): RowReport {
  return notSent(row, row.messages)
}

/** A row not sent for what its line says (exit 2): `messages` say why, `hint` what to do. */
function notSent({row, line, reference}: Pick<InvalidRow, 'row' | 'line' | 'reference'>, messages: string[], hint?: {hint: string}): RowReport {
  return {row, line, reference, status: 'invalid', exitCode: 2, resumed: false, error: {kind: 'usage', status: null, messages, request_id: null, ...hint}}
}
