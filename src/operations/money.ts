import type {GatewayClient} from '../api/client.js'
import {GatewayError, GwError, InterruptedError, ModeMismatchError, NotFoundError, NotSentError, OutcomeUnknownError, ReferenceTakenError, RejectedError} from '../errors.js'
import {type Decided, decideAnswer, type Noun} from '../money/decide.js'
import {type FailureContext, failureOf, refusedUnfound} from '../money/failure.js'
import {type Lookups, verifyFound} from '../money/find.js'
import type {GwRecord} from '../api/schemas/record.js'

/**
 * What a purchase or refund came to (design.md §5), as the money module decided it: the outcome
 * with its record, and the error it exits with, worded for the way it was learned. Commands and
 * batch rows render it; nothing here prints.
 */
export interface Sent {
  /** What was sent, or would have been. */
  body: GwRecord & {reference: string}
  decided: Decided
  /** The error the outcome exits with; none for an approval. */
  failure?: GwError
  /**
   * The answer came from the other environment than the profile's (a live gateway behind a
   * sandbox profile): the money is reported as it stands, and then gw stops with this (exit 6).
   */
  wrongGateway?: ModeMismatchError
}

/** One purchase or refund to send once: its body, how it is posted, and how the gateway is asked about it. */
export interface MoneyRequest {
  noun: Noun
  body: GwRecord & {reference: string}
  post(): Promise<{record: GwRecord; raw: {status: number; requestId?: string}}>
  /** The record the gateway holds under a reference (404: none). */
  lookUp(reference: string): Promise<GwRecord>
  lookups: Lookups
  /** The purchase refunded, when it was looked up already (a full refund's amount). */
  purchase?: GwRecord
  /**
   * The reference was made for this request and found free (a refund's, derived from its
   * purchase's): never sent before, so when the gateway says it is taken, another transaction took
   * it meanwhile, and nothing of this one was sent.
   */
  freshReference?: boolean
}

/**
 * The gateway's answer when a reference was used before: purchases say `Reference is already
 * taken` (with HTTP 200), refunds `Reference has already been taken` (400).
 */
export function isReferenceTaken(err: unknown): err is RejectedError {
  return err instanceof RejectedError && err.messages.some((message) => /reference (has already been|is already) taken/i.test(message))
}

/**
 * Sends once and decides what came of it: the answer (approved or declined), a lost answer
 * recovered by the client (or left unknown), or a reference already taken, looked up: the same
 * transaction done earlier, or another's (design.md §5). `lookFirst`: what the gateway holds under
 * the reference is looked up first (findEarlier), and reported instead of sending when it holds one.
 */
export async function sendOnce(request: MoneyRequest, {lookFirst = false}: {lookFirst?: boolean} = {}): Promise<Sent> {
  const {noun, body} = request
  // A batch's row no journal of this run has: an earlier run of its batch (another copy of gw's files, or none) may have made it.
  const earlier = lookFirst ? await findEarlier(request, true) : undefined
  if (earlier) return earlier
  let answer: Awaited<ReturnType<MoneyRequest['post']>>
  try {
    answer = await request.post()
  } catch (err) {
    if (err instanceof OutcomeUnknownError) return {body, decided: {outcome: 'unknown', noun, reason: {why: 'unanswered'}}, failure: err}
    if (err instanceof ModeMismatchError && err.inFlight) return fromWrongGateway(noun, body, err)
    if (!isReferenceTaken(err)) throw err
    if (request.freshReference) {
      throw new ReferenceTakenError(`Reference ${body.reference}, made for this ${noun} and free a moment before, was taken by another ${noun} meanwhile: the gateway refused this request under it, and nothing was made.`, {noun, reference: body.reference}, {status: err.status, requestId: err.requestId})
    }
    let found: GwRecord
    try {
      found = await request.lookUp(body.reference)
    } catch (lookErr) {
      if (lookErr instanceof NotFoundError) throw refusedUnfound(noun, body.reference, {status: err.status, requestId: err.requestId})
      throw lookErr
    }
    return verified(request, found, {refusedAsTaken: true})
  }
  const decided = decideAnswer(noun, answer.record)
  return {body, decided, failure: failureOf(decided, {sent: body, status: answer.raw.status, requestId: answer.raw.requestId})}
}

/**
 * A row an earlier run journaled as sent without a final answer: what the gateway holds under its
 * reference, decided against the request; undefined when it holds nothing, and the row is to be sent.
 * `beforeSending`: a row no journal of this run has, looked up before it is sent (another copy of
 * gw's files, or none, may have sent it: design.md §5, the gateway has the last word); a look-up
 * that fails then sends nothing, and says so.
 */
export async function findEarlier(request: MoneyRequest, beforeSending = false): Promise<Sent | undefined> {
  const {noun, body} = request
  const lookedUpBecause = beforeSending ? `This ${noun} was looked up before it was sent, in case an earlier run of its batch made it` : `An earlier run sent this ${noun} and its answer was not recorded`
  let found: GwRecord
  try {
    found = await request.lookUp(body.reference)
  } catch (err) {
    if (err instanceof NotFoundError) return undefined
    if (err instanceof InterruptedError) throw err
    if (beforeSending && err instanceof GatewayError) throw new NotSentError(notLookedUpFirst(body.reference, err))
    if (beforeSending && err instanceof GwError) throw new NotSentError(err)
    if (beforeSending || err instanceof ModeMismatchError) throw err
    const failure = new OutcomeUnknownError(`${lookedUpBecause}, and looking it up failed: ${err instanceof Error ? err.message : String(err)}`, {noun, reference: body.reference})
    return {body, decided: {outcome: 'unknown', noun, reason: {why: 'unanswered'}}, failure}
  }
  return verified(request, found, {lookedUpBecause})
}

/** A reference whose look-up before its request failed: nothing was sent, and the words say so. */
export function notLookedUpFirst(reference: string, err: GatewayError): GatewayError {
  return new GatewayError(err.kind as ConstructorParameters<typeof GatewayError>[0], `Reference ${reference} could not be looked up before it was sent (${err.message}): nothing was sent`, {status: err.status, requestId: err.requestId, hint: err.hint})
}

/** The look-ups a decision may need, through the client (and its guard, time-outs and retries of reads). */
export function clientLookups(client: GatewayClient): Lookups {
  return {
    cardToken: async (alias) => (await client.cards.get(alias)).token,
    purchase: (idOrReference) => client.purchases.get(idOrReference),
  }
}

/** `how`: why the reference was looked up (failure.ts FailureContext). */
async function verified(request: MoneyRequest, found: GwRecord, how: Pick<FailureContext, 'lookedUpBecause' | 'refusedAsTaken'>): Promise<Sent> {
  const decided = await verifyFound(request.noun, request.body, found, request.lookups, 'earlier', {purchase: request.purchase})
  return {body: request.body, decided, failure: failureOf(decided, {sent: request.body, ...how})}
}

/** The money moved (or may have) at a gateway of the other environment: its record tells which, when it came. */
function fromWrongGateway(noun: Noun, body: Sent['body'], err: ModeMismatchError): Sent {
  const decided: Decided = err.record ? decideAnswer(noun, err.record) : {outcome: 'unknown', noun, reason: {why: 'unanswered'}}
  return {body, decided, failure: err, wrongGateway: err}
}
