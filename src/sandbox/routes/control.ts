import type * as z from 'zod'
import {advanceClock} from '../domain/billing.js'
import {formatDateTime, timeZone} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import {clockProofText, DeliveryQuery, RequestLogQuery} from '../../api/schemas/sandbox-control.js'
import {keyedProof} from '../../lib/keyed-proof.js'
import {SandboxError, badRequest} from '../domain/errors.js'
import {newUuid} from '../domain/ids.js'
import {parseFault} from '../server/faults.js'
import {longestLatencyMs} from '../server/manners.js'
import {pathParam, type RouteRequest, type RouteResult} from './route.js'
import {readFields} from '../domain/input.js'
import {daysBetween, shiftDays} from '../domain/schedule.js'
import {isCalendarDate} from '../../lib/days.js'

/** The `/_sandbox/` endpoints: no credentials, for tests and for people trying gw out. */

export function describeSandbox({scope}: RouteRequest, ctx: SandboxContext): RouteResult {
  const {mode, merchants, url} = ctx
  // A merchant asking beyond loopback learns of no other merchant.
  return {status: 200, response: {mode, merchants: scope === undefined ? merchants : [scope], url, clock: formatDateTime(ctx.clock.now())}}
}

/** Which process it is: whoever holds the control token checks a recorded pid against it before stopping that pid. */
export function showProcess(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: {pid: ctx.process.pid, url: ctx.url}}
}

/** Closes the gateway as SIGTERM would, once this answer is written: deliveries and the request log flushed, the state file one snapshot. */
export function stopSandbox(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  setImmediate(ctx.process.requestStop)
  return {status: 200, response: {pid: ctx.process.pid, stopping: true}}
}

export function resetSandbox(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  // Emptied, the data is another run's: a batch journal of the rows it held must not be reported from it.
  ctx.store.reset(newUuid())
  return {status: 200, response: {}}
}

export function addFault({input}: RouteRequest, ctx: SandboxContext): RouteResult {
  const fault = parseFault(input)
  ctx.faults.add(fault)
  return {status: 200, response: fault}
}

export function listFaults(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: ctx.faults.list()}
}

export function clearFaults(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  ctx.faults.clear()
  return {status: 200, response: []}
}

/** What the data is now, and the runs of it it holds (Store.heldRuns): a batch journal asks before it reports a row done by an earlier run. */
export function showInstance(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: {instance: ctx.store.instance ?? null, runs: ctx.store.heldRuns()}}
}

/**
 * Its today, its now with its offset and its time zone (the process's: it dates records by them,
 * so a client in another zone reads named days as its days), and its processing window: the most
 * it takes to process a request, longer by the longest a fault holds one (design.md §5: a local
 * gateway says its own) and by the longest --latency delays an answer: a 404 gw reads has waited
 * that long on its way, so it was answered that much earlier than gw read it. With `?challenge=`,
 * the proof of all of it that this is the gateway whose runtime file holds the key: gw believes
 * the rest only then.
 */
export function showClock({query}: RouteRequest, ctx: SandboxContext): RouteResult {
  const said = {today: ctx.clock.today(), now: formatDateTime(ctx.clock.now()), time_zone: timeZone(), processing_window_ms: ctx.processingWindowMs + ctx.faults.longestHoldMs() + longestLatencyMs(ctx.latencyMs)}
  return {status: 200, response: query.challenge ? {...said, proof: keyedProof(ctx.controlToken, clockProofText(query.challenge, said))} : said}
}

/** A date 10 years on is far enough to see any plan through; further is more likely a typo. */
const MAX_ADVANCE_DAYS = 3660

/** `{"days": N}` or `{"to": "YYYY-MM-DD"}`; the clock never goes back. */
export function advance({input}: RouteRequest, ctx: SandboxContext): RouteResult {
  const {days, to} = readFields(input, {days: 'integer', to: 'string'})
  if ((days === undefined) === (to === undefined)) throw badRequest(['Give exactly one of days and to'])
  const today = ctx.clock.today()
  if (days !== undefined && days < 1) throw badRequest(['Days must be 1 or more'])
  if (to !== undefined && !isCalendarDate(to)) throw badRequest([`To must be a date as YYYY-MM-DD, not ${to}`])
  const target = days === undefined ? (to as string) : shiftDays(today, days)
  if (target < today) throw badRequest([`To ${target} is in the past: today is ${today} and the clock only moves forward`])
  if (daysBetween(today, target) > MAX_ADVANCE_DAYS) throw badRequest([`The clock moves at most ${MAX_ADVANCE_DAYS} days at a time`])
  return {status: 200, response: advanceClock(ctx, target)}
}

/** Web hook deliveries, finished then queued, with what each receiver last answered; `event` and `status` filter them. */
export function listDeliveries({query}: RouteRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: ctx.deliveries.report(parsedQuery(DeliveryQuery, query))}
}

/** Sends a delivery again now (`gw sandbox redeliver`): a finished one is queued anew, a queued one tried at once. */
export function redeliver(request: RouteRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: ctx.deliveries.redeliver(pathParam(request, 'id'))}
}

/** The request log, filtered: `gw sandbox logs`, which follows it by asking `after` the `next` it was given. */
export function listRequests({query, scope}: RouteRequest, ctx: SandboxContext): RouteResult {
  if (!ctx.requests) throw new SandboxError(404, ['The request log is off: this gateway was started with --no-request-log'])
  if (scope !== undefined && query.merchant !== undefined && query.merchant !== scope) throw new SandboxError(403, [`Merchant ${scope}'s credentials show ${scope}'s requests alone, not ${query.merchant}'s`])
  return {status: 200, response: ctx.requests.page(parsedQuery(RequestLogQuery, scope === undefined ? query : {...query, merchant: scope}))}
}

/** A query string read by its shared schema; a 400 naming each parameter it cannot read. */
function parsedQuery<T>(schema: z.ZodType<T>, query: Record<string, string>): T {
  const parsed = schema.safeParse(query)
  if (!parsed.success) throw badRequest(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`))
  return parsed.data
}
