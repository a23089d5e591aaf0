import {type Clock, lookThroughWindow, type Waiting, type WindowMs} from '../money/window.js'
import type {Intent} from './journal-entries.js'
import type {RowReport} from './row-reports.js'

/**
 * How long a synced intent stays the time its request leaves: a row that waited longer for its
 * request slot (a slow gateway ahead of it) is journaled again before it is sent. Well inside the
 * slack between the gateway's 30 s and the 60 s window a rerun counts from the intent.
 */
export const INTENT_FRESH_MS = 5_000

/** How a row in doubt waits for a gateway that may still be processing it. */
export interface InDoubtWait {
  windowMs?: WindowMs
  clock: Clock
  /** Aborted when the batch stops starting rows: the wait ends, the row still in doubt. */
  stop: AbortSignal
  onWait?: (waiting: Waiting | undefined) => void
}

type RowId = {row: number; line: number; reference: string}
type Money = {amount?: number; currency?: string}

/**
 * A row in doubt since an earlier run, looked up by its reference (`look`: the row's report, or
 * undefined for a 404, or a symbol when the batch stopped before it was made). A 404 while the
 * earlier request may still be processing is "not yet" (design.md §5): looked up again until the
 * window from its intent is over. Undefined only when the gateway has none then: the row is sent.
 */
export async function lookUpInDoubt<Report extends object>(
  row: RowId,
  intent: Intent,
  look: () => Promise<Report | undefined | symbol>,
  money: Money,
  wait: InDoubtWait,
): Promise<{found: Report} | {stillInDoubt: RowReport} | undefined> {
  let waited = false
  const found = await lookThroughWindow({
    look,
    // An intent whose time cannot be read counts as just sent: its whole window is waited.
    sentAt: Date.parse(intent.sent_at),
    windowMs: wait.windowMs,
    clock: wait.clock,
    stop: wait.stop,
    // Told only when a wait begins and when it ends: the row waited once it is told at all.
    onWait: (waiting) => {
      waited = true
      wait.onWait?.(waiting)
    },
  })
  if (found === undefined) return undefined
  if (typeof found === 'symbol') return {stillInDoubt: notLookedUp(row, money, waited)}
  return {found}
}

/**
 * A row in doubt since an earlier run that this run stopped before looking up, or before the
 * gateway's processing window was over: in doubt still, as the next run will count it.
 */
export function notLookedUp(row: RowId, money: Money, waited: boolean): RowReport {
  const why = waited ? 'the gateway did not have it yet when the batch stopped, inside its processing window' : 'the batch stopped before it was looked up'
  return {
    row: row.row,
    line: row.line,
    reference: row.reference,
    status: 'unknown',
    exitCode: 8,
    resumed: false,
    error: {kind: 'outcome_unknown', status: null, messages: [`In doubt since an earlier run, and ${why}`], request_id: null},
    ...money,
  }
}
