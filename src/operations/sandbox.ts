import {setTimeout as sleep} from 'node:timers/promises'
import type {GatewayEvent} from '../api/schemas/recurring-rules.js'
import type {DeliveryQuery, FaultRequest, RequestLogPage} from '../api/schemas/sandbox-control.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'

/** A filter of the request log: statuses, a path, a merchant; how many, and after which entry. */
export interface RequestLogFilter {
  status?: readonly string[]
  path?: string
  merchant?: string
  limit?: number
  after?: number
}

/** As the query string carries it: statuses joined by commas. */
function requestQuery({status, ...rest}: RequestLogFilter) {
  return {...rest, status: status?.join(',')}
}

/** The local gateway's date. */
export async function sandboxClock({client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.sandbox.clock()
}

/** Moves the local gateway's clock forward by days or to a date, running each day in between. */
export async function advanceClock(by: {days: number} | {to: string}, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.sandbox.advanceClock(by)
}

/** A sample web hook event from the local gateway, to the registered web hooks or to one URL. */
export async function triggerEvent(input: {event: GatewayEvent; webhook?: string}, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.sandbox.trigger({event: input.event, ...(input.webhook ? {webhook: input.webhook} : {})})
}

/** The requests the local gateway answered that pass the filter, oldest first, and the cursor to follow from. */
export async function requestLog(filter: RequestLogFilter, {client}: Pick<Deps, 'client'>): Promise<RequestLogPage> {
  return client.sandbox.requests(requestQuery(filter))
}

/** How often a follower asks for new requests: within a second of being answered, they are shown. */
const FOLLOW_INTERVAL_MS = 250

/**
 * The latest `limit` requests, then every new one as it is answered, a page at a time, until the
 * signal is aborted. A request that the gateway answered but no longer keeps is counted in `missed`.
 */
export async function followRequestLog(
  filter: RequestLogFilter,
  {client}: Pick<Deps, 'client'>,
  onPage: (page: RequestLogPage) => void,
  signal: AbortSignal,
): Promise<void> {
  const {limit, ...rest} = filter
  let page = await client.sandbox.requests(requestQuery({...rest, limit}))
  for (;;) {
    onPage(page)
    try {
      await sleep(FOLLOW_INTERVAL_MS, undefined, {signal})
    } catch {
      return
    }
    page = await client.sandbox.requests(requestQuery({...rest, after: page.next}))
  }
}

/** The local gateway's web hook deliveries, finished then queued, with their attempts and last answer. */
export async function listDeliveries(filter: DeliveryQuery, {client}: Pick<Deps, 'client'>): Promise<GwRecord[]> {
  return client.sandbox.deliveries(filter)
}

/** Sends a delivery again now: a finished one is queued anew (the record it answers), a queued one is tried at once. */
export async function redeliver(id: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.sandbox.redeliver(id)
}

/** Switches a fault on: the next `times` matching requests get it. */
export async function addFault(fault: FaultRequest, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.sandbox.addFault(fault)
}

/** The faults waiting, with the times each has left. */
export async function listFaults({client}: Pick<Deps, 'client'>): Promise<GwRecord[]> {
  return client.sandbox.faults()
}

/** Clears every fault; what is left (nothing) is the answer. */
export async function clearFaults({client}: Pick<Deps, 'client'>): Promise<GwRecord[]> {
  return client.sandbox.clearFaults()
}
