import {type GwError, InterruptedError} from '../errors.js'
import type {GwRecord} from '../operations/deps.js'
import {hintFor} from '../output/hints.js'

export type RowStatus = 'approved' | 'declined' | 'rejected' | 'failed' | 'unknown' | 'invalid'

/** What became of one row: its NDJSON line (design.md §3) and what the summary adds up. */
export interface RowReport {
  row: number
  line: number
  reference?: string
  status: RowStatus
  exitCode: number
  /** Reported from the journal, or found at the gateway under its reference: not sent by this run. */
  resumed: boolean
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

/** A failure as a row's status: whether the gateway judged the row, and how. */
export function statusOf(error: GwError): RowStatus {
  if (error.exitCode === 3) return 'declined'
  if (error.exitCode === 8 || error instanceof InterruptedError) return 'unknown'
  if (error.exitCode === 2) return 'invalid'
  // Unreachable, a 5xx, or credentials refused: the gateway never judged the row.
  if (error.exitCode === 1 || error.exitCode === 4) return 'failed'
  return 'rejected'
}

/** A failure as a row's `error` field, with the hint a person needs. */
export function errorFields(error: GwError): ErrorFields {
  const hint = hintFor(error)
  return {kind: error.kind, status: error.status ?? null, messages: error.messages, request_id: error.requestId ?? null, ...(hint ? {hint} : {})}
}
