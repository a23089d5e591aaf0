import type * as z from 'zod'
import {GatewayError, GwError, InterruptedError, ModeMismatchError, type MoneyInFlight, OutcomeUnknownError} from '../errors.js'
import {outcomeOf} from '../money/decide.js'
import {failureOf} from '../money/failure.js'
import {type Lookups, verifyFound} from '../money/find.js'
import {lookThroughWindow, PROCESSING_WINDOW_MS, type Waiting, windowOf, type WindowMs} from '../money/window.js'
import {buildPath, type Endpoint, endpoints} from './endpoints.js'
import type {Exchange} from './exchange.js'
import {type Answer, type RawResponse, readRecord} from './responses.js'
import type {GwRecord} from './schemas/record.js'

/**
 * What a recovery did: started looking a reference up after a lost answer, began waiting for a
 * gateway that did not have it yet (until `endsAt`, when its processing window is over), stopped
 * waiting, or found the record.
 */
export type RecoveryEvent = MoneyInFlight & {
  /** Why the answer was lost: a reset, a time-out, a proxy's 502. */
  why: string
} & ({step: 'looking_up' | 'waited' | 'found'} | ({step: 'waiting'} & Waiting))

/** What was sent, whose answer was lost, and when it left (epoch ms): the processing window counts from then. */
export interface LostRequest {
  sent: GwRecord
  inFlight: MoneyInFlight
  why: string
  sentAt: number
  /** design.md §5's window, or how to learn it from the gateway. */
  windowMs?: WindowMs
}

/**
 * design.md §5: the answer was lost or cannot be read, so ask the gateway what it has under the
 * reference, and believe it only if the money module finds it is what was sent. A 404 while the
 * gateway may still be processing is "not yet": looked up again until the window is over
 * (money/window.ts); a single request is never sent again, so nothing found then is exit 8.
 */
export async function recover<Res extends z.ZodType>(
  exchange: Exchange,
  endpoint: Endpoint<Res>,
  {sent, inFlight, why, sentAt, windowMs = PROCESSING_WINDOW_MS}: LostRequest,
  onRecovery?: (event: RecoveryEvent) => void,
): Promise<Answer<Res>> {
  const money = endpoint.movesMoney!
  const lookedUpBecause = `The ${inFlight.noun} was sent but no answer came back that could be read (${why})`
  onRecovery?.({step: 'looking_up', ...inFlight, why})
  let notFound: RawResponse | undefined
  const look = async (): Promise<RawResponse | undefined> => {
    try {
      const raw = await exchange.send(money.lookup, buildPath(money.lookup.path, {id: inFlight.reference}), undefined, inFlight)
      if (raw.status !== 404) return raw
      notFound = raw
      return undefined
    } catch (err) {
      if (err instanceof InterruptedError || err instanceof ModeMismatchError) throw err
      throw new OutcomeUnknownError(`${lookedUpBecause}, and looking it up failed too: ${err instanceof Error ? err.message : String(err)}`, inFlight)
    }
  }
  const raw = await lookThroughWindow({
    look,
    sentAt,
    windowMs,
    clock: exchange.clock(inFlight),
    onWait: (waiting) => onRecovery?.(waiting ? {step: 'waiting', ...inFlight, why, ...waiting} : {step: 'waited', ...inFlight, why}),
  })
  // Nothing under the reference once the window was over (no stop was asked for: a signal throws).
  if (typeof raw !== 'object') {
    const {status, requestId} = notFound!
    const after = `${Math.round((await windowOf(windowMs)) / 1000)} s after it was sent (the most it takes to process one)`
    throw new OutcomeUnknownError(`${lookedUpBecause}, and the gateway has no ${inFlight.noun} with reference ${inFlight.reference}, even ${after}.`, inFlight, {status, requestId})
  }
  let answer: Answer<Res>
  try {
    answer = readRecord({...endpoint, response: money.lookup.response}, raw)
  } catch (err) {
    throw new OutcomeUnknownError(`${lookedUpBecause}, and its look-up gave: ${err instanceof GwError ? err.message : String(err)}`, inFlight)
  }
  const decided = await verifyFound(money.noun, sent, answer.record, lookups(exchange, inFlight), 'recovered')
  if (decided.outcome === 'unknown') throw failureOf(decided, {sent, lookedUpBecause, status: raw.status, requestId: raw.requestId})
  onRecovery?.({step: 'found', ...inFlight, why})
  return answer
}

/** What a recovery asks besides the reference, through the same exchange, still naming the money in flight. */
function lookups(exchange: Exchange, inFlight: MoneyInFlight): Lookups {
  const read = async <Res extends z.ZodType>(endpoint: Endpoint<Res>, params: Record<string, string>) =>
    readRecord(endpoint, await exchange.send(endpoint, buildPath(endpoint.path, params), undefined, inFlight)).record
  return {
    cardToken: async (alias) => (await read(endpoints.cards.get, {token: alias})).token,
    purchase: (idOrReference) => read(endpoints.purchases.get, {id: idOrReference}),
  }
}

/**
 * Why an answer to a money POST cannot be taken as its outcome (`doubt`), or, when it can, its
 * record as read (`read`; none for the gateway's refusal, which reading it again throws): a 5xx may
 * come after the charge was made, a 408 from a front end may not mean what HTTP says, and an
 * unreadable body or a record that does not say approved or declined tells nothing about it. The
 * record is read once a row: its check is a batch's dearest.
 */
export function doubtAbout(endpoint: Endpoint, raw: RawResponse): {doubt: string} | {read?: Answer<z.ZodType>} {
  // 501 is the contract's refusal of invalid data, not a failure.
  if (raw.status >= 500 && raw.status !== 501) return {doubt: `the gateway answered HTTP ${raw.status}`}
  // By HTTP, a 408 comes before the request was read whole; the reference settles whether it was.
  if (raw.status === 408) return {doubt: 'the gateway answered HTTP 408: it did not receive the whole request in time'}
  let read: Answer<z.ZodType>
  try {
    read = readRecord(endpoint, raw)
  } catch (err) {
    if (err instanceof GatewayError) return {doubt: err.message}
    return {}
  }
  if (outcomeOf(read.record) === undefined) return {doubt: `the answer's ${endpoint.movesMoney!.noun} does not say whether it was approved (no successful or authorized field)`}
  return {read}
}
