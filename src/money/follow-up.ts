import type {GwRecord} from '../api/schemas/record.js'
/**
 * What became of a change to a purchase or refund made earlier (design.md §5): a capture, a void,
 * an increment, an extension. Each names its record by its id, so where a purchase's lost answer is
 * looked up by its reference, a follow-up's is looked up by the id, and the record's state says
 * whether it happened: `captured` and `captured_amount` for a capture, `message` `Voided` for a
 * void, `amount` for an increment (gateway-beyond.md §2-6). Pure: the record is looked up first.
 */

export type FollowUp =
  | {kind: 'capture'; id: string; amount: number}
  | {kind: 'void'; noun: 'purchase' | 'refund'; id: string}
  /** `amount` is the new total authorized, not the increase. */
  | {kind: 'increment'; id: string; amount: number}
  | {kind: 'extend'; id: string}

/**
 * What a record shows of a follow-up: done (the state it asks for), not done (it may still come,
 * or never arrived), another state that it can no longer reach (`other`, said why), or nothing
 * that tells (an extension changes no field).
 */
export type State = {state: 'done'} | {state: 'not_done'} | {state: 'other'; why: string} | {state: 'untold'; why: string}

/** The gateway's word for a voided purchase or refund (gateway-beyond.md §5, §6). */
export const VOIDED = 'Voided'

export function isVoided(record: GwRecord): boolean {
  return record.message === VOIDED || record.refunded === VOIDED
}

/** What the record shows of the follow-up. */
export function stateOf(followUp: FollowUp, record: GwRecord): State {
  if (followUp.kind === 'void') return isVoided(record) ? {state: 'done'} : {state: 'not_done'}
  if (isVoided(record)) return {state: 'other', why: `${followUp.id} is voided`}
  switch (followUp.kind) {
    case 'capture': {
      if (record.captured === false) return {state: 'not_done'}
      if (record.captured !== true) return {state: 'untold', why: `${followUp.id} does not say whether it is captured`}
      if (record.captured_amount === followUp.amount) return {state: 'done'}
      return {state: 'other', why: `${followUp.id} is captured already, ${shownAmount(record.captured_amount)} of it, not ${followUp.amount}`}
    }
    case 'increment': {
      if (record.captured === true) return {state: 'other', why: `${followUp.id} is captured already`}
      if (typeof record.amount !== 'number') return {state: 'untold', why: `${followUp.id} came back without an amount`}
      if (record.amount === followUp.amount) return {state: 'done'}
      if (record.amount < followUp.amount) return {state: 'not_done'}
      return {state: 'other', why: `${followUp.id} is authorized for ${record.amount} already, more than ${followUp.amount}`}
    }
    case 'extend':
      if (record.captured === true) return {state: 'other', why: `${followUp.id} is captured already`}
      return {state: 'untold', why: 'an extension changes nothing a look-up shows'}
  }
}

function shownAmount(amount: unknown): string {
  return typeof amount === 'number' ? String(amount) : 'an amount not shown'
}

/**
 * What a follow-up came to:
 * - `done`: the gateway says so (`answer`), or its record shows it after a lost answer
 *   (`recovered`) or after it refused it as done before (`earlier`: a rerun's second void);
 * - `refused`: the gateway's refusal stands, its words kept (exit 7);
 * - `not_done`: the record shows it has not happened (yet): a lost answer inside the gateway's
 *   processing window is looked up again; after it, the request never arrived;
 * - `other`: the record is in a state the follow-up can no longer change (exit 7);
 * - `unknown`: nothing tells (exit 8);
 * - `unchanged`: found before it was sent to ask for what the record holds already, and never
 *   done (an increment to the total first authorized): nothing to send (exit 2).
 */
export type FollowUpOutcome =
  | {outcome: 'done'; record: GwRecord; source: 'answer' | 'recovered' | 'earlier'}
  | {outcome: 'refused'; record?: GwRecord; messages: string[]}
  | {outcome: 'not_done'; record: GwRecord}
  | {outcome: 'other'; record: GwRecord; why: string}
  | {outcome: 'unknown'; record?: GwRecord; why: string}
  | {outcome: 'unchanged'; record: GwRecord}

/** The gateway's answer to the follow-up: believed as it is. */
export function decideFollowUpAnswer(record: GwRecord): FollowUpOutcome {
  return {outcome: 'done', record, source: 'answer'}
}

/**
 * The gateway refused the follow-up, and the record looked up since (null when it could not be):
 * done already is no failure to a rerun (a void of a voided purchase, a capture of this amount
 * made before); anything else is the refusal, in the gateway's words.
 */
export function decideRefused(followUp: FollowUp, messages: string[], found: GwRecord | null): FollowUpOutcome {
  if (found !== null && stateOf(followUp, found).state === 'done') return {outcome: 'done', record: found, source: 'earlier'}
  return found === null ? {outcome: 'refused', messages} : {outcome: 'refused', record: found, messages}
}

/** No answer came back (or none that could be read): the record looked up by its id says what happened. */
export function decideLost(followUp: FollowUp, found: GwRecord): FollowUpOutcome {
  const state = stateOf(followUp, found)
  switch (state.state) {
    case 'done':
      return {outcome: 'done', record: found, source: 'recovered'}
    case 'not_done':
      return {outcome: 'not_done', record: found}
    case 'other':
      return {outcome: 'other', record: found, why: state.why}
    case 'untold':
      return {outcome: 'unknown', record: found, why: state.why}
  }
}

/**
 * A batch row an earlier run sent without its answer kept: done, to be sent (undefined: not done,
 * so far), or another state the row cannot change.
 */
export function decideEarlier(followUp: FollowUp, found: GwRecord): FollowUpOutcome | undefined {
  const state = stateOf(followUp, found)
  if (state.state === 'not_done') return undefined
  if (state.state === 'done') return {outcome: 'done', record: found, source: 'earlier'}
  if (state.state === 'other') return {outcome: 'other', record: found, why: state.why}
  return {outcome: 'unknown', record: found, why: state.why}
}

/**
 * An increment, the authorization looked up before it is sent: already at the total asked, it was
 * done before when an increment was made (the gateway keeps the first amount in
 * `metadata.original_amount`, gateway-beyond.md §3), and asks for no change when none was: either
 * way nothing is sent. Undefined for anything else, which is sent.
 */
export function decideBeforeSending(followUp: FollowUp, found: GwRecord): FollowUpOutcome | undefined {
  if (followUp.kind !== 'increment' || found.amount !== followUp.amount || found.captured === true || isVoided(found)) return undefined
  const metadata = found.metadata as GwRecord | null | undefined
  return metadata?.original_amount === undefined ? {outcome: 'unchanged', record: found} : {outcome: 'done', record: found, source: 'earlier'}
}

/** design.md §4: what each outcome exits with; `not_done` once the window is over is not known to have happened. */
export function followUpExitCode(outcome: FollowUpOutcome): number {
  return {done: 0, refused: 7, not_done: 8, other: 7, unknown: 8, unchanged: 2}[outcome.outcome]
}
