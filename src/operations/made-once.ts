import type {GatewayClient} from '../api/client.js'
import {GatewayError, InterruptedError, ModeMismatchError, NotFoundError, OutcomeUnknownError, UnreachableError} from '../errors.js'
import {type Decided, decideAnswer, decideFound, decideNotFound, type Noun} from '../money/decide.js'
import {type FailureContext, failureOf} from '../money/failure.js'
import {lookThroughWindow, type Waiting} from '../money/window.js'
import type {GwRecord} from '../api/schemas/record.js'
import {isReferenceTaken, type Sent} from './money.js'

/**
 * A payment plan or direct debit a batch row makes (gateway-beyond.md §9-10): sent once, never
 * retried, and what it came to decided by the money module as a purchase's is. Neither endpoint
 * is the client's money (no recovery of its own): a lost answer is looked up here, by reference.
 */
export interface MadeRequest {
  noun: Extract<Noun, 'payment plan' | 'direct debit'>
  body: GwRecord & {reference: string}
  post(): Promise<GwRecord>
  /** The record the gateway holds under a reference or id (404: none it finds). */
  lookUp(reference: string): Promise<GwRecord>
}

/** A look-up that failed for another reason than a 404: what it said, for the row's message. */
type LookFailed = {failed: string}

/**
 * Sends once and decides what came of it: the record made; a reference the gateway says is taken,
 * looked up (this very plan made earlier, or another's: nothing was made now); or a lost answer,
 * looked up until the gateway's processing window is over, and unknown (exit 8) when it is not
 * found then: a single row is never sent twice.
 */
export async function makeOnce(request: MadeRequest, client: GatewayClient): Promise<Sent> {
  const {noun, body} = request
  const clock = client.clock({noun, reference: body.reference})
  try {
    return settled(decideAnswer(noun, await request.post()), body)
  } catch (err) {
    if (isReferenceTaken(err)) {
      const found = await lookedUp(request)
      // Not found, or not looked up: the gateway's refusal stands, and nothing was made by this row.
      if (found === undefined || 'failed' in found) throw err
      return settled(decideFound(noun, body, found, {}, 'earlier'), body, {refusedAsTaken: true})
    }
    // Refused, or never sent (nothing reached the gateway), is what it is; only a lost answer is looked up.
    if (!(err instanceof GatewayError) || err instanceof UnreachableError) throw err
    // From when it last left (one the gateway rate limited went again), or later.
    const sentAt = client.lastSentAt
    const lostBecause = `The ${noun} was sent but no answer came back that could be read (${err.message})`
    const inFlight = {noun, reference: body.reference, why: err.message}
    client.tellRecovery({step: 'looking_up', ...inFlight})
    const onWait = (waiting: Waiting | undefined) => client.tellRecovery(waiting ? {step: 'waiting', ...inFlight, ...waiting} : {step: 'waited', ...inFlight})
    const found = await lookThroughWindow({look: () => lookedUp(request), sentAt, windowMs: () => client.processingWindow(), clock, onWait})
    if (found === undefined || 'failed' in found) {
      const told = found === undefined ? `, and the gateway has no ${noun} under reference ${body.reference}, even once it could no longer be processing it` : `, and looking it up failed too: ${found.failed}`
      return {body, decided: {outcome: 'unknown', noun, reason: {why: 'unanswered'}}, failure: new OutcomeUnknownError(`${lostBecause}${told}`, {noun, reference: body.reference})}
    }
    const decided = decideFound(noun, body, found, {}, 'recovered')
    if (decided.outcome !== 'unknown') client.tellRecovery({step: 'found', ...inFlight})
    return settled(decided, body, {lookedUpBecause: lostBecause})
  }
}

/** What a plan or debit made once came to, for a caller that is not a batch: its record, or the error its outcome exits with. */
export function madeRecord(sent: Sent): GwRecord {
  if (sent.failure) throw sent.failure
  return (sent.decided as Extract<Sent['decided'], {outcome: 'made'}>).record
}

/**
 * A row an earlier run journaled as sent without a final answer: what the gateway holds under its
 * reference, decided against the request; undefined when it holds nothing and the row is to be
 * sent; a debit it does not find stays unknown (decide.ts decideNotFound). `id`: the one an earlier
 * answer gave (--verify of a row journaled made), looked up in place of the reference; a 404 by
 * it is certain: undefined.
 */
export async function findEarlierMade(request: MadeRequest, id?: string): Promise<Sent | undefined> {
  const {noun, body} = request
  const lookedUpBecause = `An earlier run sent this ${noun} and its answer was not recorded`
  const found = await lookedUp(request, id)
  if (found === undefined) {
    const decided = id === undefined ? decideNotFound(noun) : undefined
    return decided && settled(decided, body, {lookedUpBecause})
  }
  if ('failed' in found) {
    return {body, decided: {outcome: 'unknown', noun, reason: {why: 'unanswered'}}, failure: new OutcomeUnknownError(`${lookedUpBecause}, and looking it up failed: ${found.failed}`, {noun, reference: body.reference})}
  }
  return settled(decideFound(noun, body, found, {}, 'earlier'), body, {lookedUpBecause})
}

/** What the gateway holds under the request's reference (or `id`): undefined for a 404; a signal, or the wrong environment, still stops. */
async function lookedUp(request: MadeRequest, id?: string): Promise<GwRecord | LookFailed | undefined> {
  try {
    return await request.lookUp(id ?? request.body.reference)
  } catch (err) {
    if (err instanceof NotFoundError) return undefined
    if (err instanceof InterruptedError || err instanceof ModeMismatchError) throw err
    return {failed: err instanceof Error ? err.message : String(err)}
  }
}

/** `how`: why the record was looked up, or that the gateway refused the request as taken (failure.ts FailureContext). */
function settled(decided: Decided, body: Sent['body'], how: Pick<FailureContext, 'lookedUpBecause' | 'refusedAsTaken'> = {}): Sent {
  return {body, decided, failure: failureOf(decided, {sent: body, ...how})}
}
