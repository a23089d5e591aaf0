import type {GatewayClient} from '../api/client.js'
import {GatewayError, type GwError, InterruptedError, ModeMismatchError, type MoneyInFlight, OutcomeUnknownError, RejectedError, UsageError} from '../errors.js'
import {decideBeforeSending, decideEarlier, decideFollowUpAnswer, decideLost, decideRefused, type FollowUp, type FollowUpOutcome} from '../money/follow-up.js'
import {lookThroughWindow, type Waiting} from '../money/window.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {Sent} from './money.js'

export type {FollowUp} from '../money/follow-up.js'

/** A capture, void, increment or extension sent once, and what it came to (money/follow-up.ts). */
export interface FollowedUp {
  followUp: FollowUp
  outcome: FollowUpOutcome
  /** The error it exits with; none when done. */
  failure?: GwError
}

const WORDS = {capture: 'capture', void: 'void', increment: 'increment', extend: 'extension'} as const

/** `capture of 071-P-...`: what a message calls the follow-up. */
export function describe(followUp: FollowUp): string {
  return `${WORDS[followUp.kind]} of ${followUp.id}`
}

/** The follow-up as money in flight: its record named by the id, and what it does to it. */
export function inFlightOf(followUp: FollowUp): MoneyInFlight {
  return {noun: nounOf(followUp), reference: followUp.id, action: WORDS[followUp.kind]}
}

function nounOf(followUp: FollowUp): 'purchase' | 'refund' {
  return followUp.kind === 'void' ? followUp.noun : 'purchase'
}

function post(followUp: FollowUp, client: GatewayClient): Promise<GwRecord> {
  switch (followUp.kind) {
    case 'capture':
      return client.purchases.capture(followUp.id, {amount: followUp.amount})
    case 'increment':
      return client.purchases.increment(followUp.id, {amount: followUp.amount})
    case 'extend':
      return client.purchases.extend(followUp.id, {extend: true})
    case 'void':
      return followUp.noun === 'refund' ? client.refunds.void({id: followUp.id}) : client.purchases.void({id: followUp.id})
  }
}

/** The record the follow-up names, by its id. */
export function lookUpTarget(followUp: FollowUp, client: GatewayClient): Promise<GwRecord> {
  return nounOf(followUp) === 'refund' ? client.refunds.get(followUp.id) : client.purchases.get(followUp.id)
}

/** All that an authorization holds, to capture it in full: its amount, looked up (unless its record was, to find its id). */
export async function captureAmount(id: string, {client}: Pick<Deps, 'client'>, found?: GwRecord): Promise<number> {
  const purchase = found ?? (await client.purchases.get(id))
  if (typeof purchase.amount === 'number') return purchase.amount
  throw new GatewayError('unreadable', `Purchase ${id} came back without an amount, so all of it is not known: nothing was sent`, {hint: 'Give the amount to capture.'})
}

/** A look-up whose failure leaves what it would tell untold (null); a signal, or the wrong environment, still stops. */
async function lookedUp(followUp: FollowUp, client: GatewayClient): Promise<GwRecord | null> {
  try {
    return await lookUpTarget(followUp, client)
  } catch (err) {
    if (err instanceof InterruptedError || err instanceof ModeMismatchError) throw err
    return null
  }
}

export interface FollowUpOptions {
  /** Told when a lost answer's look-up begins to wait for the gateway, and with undefined when the wait ends. */
  onWait?: (waiting: Waiting | undefined) => void
  /** The record as it was just read (a reference's look-up): an increment is judged on it, not read again. */
  known?: GwRecord
}

/**
 * Sends a follow-up once (never retried) and decides what came of it: the answer; a refusal,
 * looked up so that one done before is no failure to a rerun; or a lost answer, looked up by the
 * id, again until the gateway's processing window is over while the record shows it not done yet.
 */
export async function sendFollowUp(followUp: FollowUp, {client}: Pick<Deps, 'client'>, options: FollowUpOptions = {}): Promise<FollowedUp> {
  // An increment to the total the authorization holds already is no request to send (money/follow-up.ts); one not looked up is sent, for the gateway to judge.
  const before = followUp.kind === 'increment' ? (options.known ?? (await lookedUp(followUp, client))) : null
  const decided = before && decideBeforeSending(followUp, before)
  if (decided) return finished(followUp, decided)
  const inFlight = inFlightOf(followUp)
  try {
    return finished(followUp, decideFollowUpAnswer(await post(followUp, client)))
  } catch (err) {
    if (err instanceof RejectedError) return finished(followUp, decideRefused(followUp, err.messages, await lookedUp(followUp, client)), err)
    if (!(err instanceof GatewayError)) throw err
    // From when it last left (one the gateway rate limited went again), or later.
    const sentAt = client.lastSentAt
    const why = err.message
    const look = async (): Promise<FollowUpOutcome | undefined> => {
      try {
        const outcome = decideLost(followUp, await lookUpTarget(followUp, client))
        return outcome.outcome === 'not_done' ? undefined : outcome
      } catch (lookErr) {
        if (lookErr instanceof InterruptedError || lookErr instanceof ModeMismatchError) throw lookErr
        return {outcome: 'unknown', why: `looking ${followUp.id} up failed too: ${lookErr instanceof Error ? lookErr.message : String(lookErr)}`}
      }
    }
    const found = await lookThroughWindow({look, sentAt, windowMs: () => client.processingWindow(), clock: client.clock(inFlight), onWait: options.onWait})
    // Waited out whatever a first Ctrl-C says, as a purchase's look-up is (design.md §5); a second one stops at once.
    const outcome: FollowUpOutcome = found === undefined ? {outcome: 'not_done', record: {}} : found
    return finished(followUp, outcome, undefined, why, await client.processingWindow())
  }
}

/**
 * A batch row an earlier run sent without its answer kept: what the record shows, decided;
 * undefined when it is not done, and the row is to be sent (after the window, run-batch's rule).
 */
export async function findEarlierFollowUp(followUp: FollowUp, {client}: Pick<Deps, 'client'>): Promise<FollowedUp | undefined> {
  const outcome = decideEarlier(followUp, await lookUpTarget(followUp, client))
  return outcome && finished(followUp, outcome)
}

function finished(followUp: FollowUp, outcome: FollowUpOutcome, refusal?: RejectedError, lostBecause?: string, windowMs?: number): FollowedUp {
  return {followUp, outcome, failure: failureOf(followUp, outcome, refusal, lostBecause, windowMs)}
}

function failureOf(followUp: FollowUp, outcome: FollowUpOutcome, refusal?: RejectedError, lostBecause?: string, windowMs = 0): GwError | undefined {
  const what = describe(followUp)
  const inFlight = inFlightOf(followUp)
  const lost = lostBecause === undefined ? `An earlier run sent the ${what} and its answer was not kept` : `The ${what} was sent but no answer came back that could be read (${lostBecause})`
  const details = {status: refusal?.status, requestId: refusal?.requestId}
  switch (outcome.outcome) {
    case 'done':
      return undefined
    case 'refused':
      return new RejectedError(outcome.messages.join('; '), {...details, messages: outcome.messages})
    case 'other':
      return new RejectedError(`${lost}, and ${outcome.why}: it cannot be done now`, {messages: [outcome.why]})
    case 'not_done':
      return new OutcomeUnknownError(`${lost}, and ${followUp.id} does not show it, even ${Math.round(windowMs / 1000)} s after it was sent (the most the gateway takes to process one): it did not arrive, or has not been processed`, inFlight)
    case 'unknown':
      return new OutcomeUnknownError(`${lost}, and ${outcome.why}`, inFlight)
    case 'unchanged':
      return new UsageError(`${followUp.id} holds that amount already, and no ${WORDS[followUp.kind]} was made: there is nothing to change, and nothing was sent`)
  }
}

/**
 * A follow-up as a batch row's outcome (batch/kinds.ts): done is approved (`earlier` when an
 * earlier run did it), a refusal or a state it cannot change is the gateway's refusal (exit 7),
 * anything else unknown (exit 8).
 */
export function asSent({followUp, outcome, failure}: FollowedUp, body: GwRecord & {reference: string}): Sent {
  const noun = nounOf(followUp)
  if (outcome.outcome === 'done') return {body, decided: {outcome: 'approved', noun, record: outcome.record, source: outcome.source === 'answer' ? 'answer' : outcome.source}}
  if (failure instanceof RejectedError) return {body, decided: {outcome: 'taken', noun, record: outcome.record ?? {}, differences: []}, failure}
  return {body, decided: {outcome: 'unknown', noun, reason: {why: 'unanswered'}}, failure}
}
