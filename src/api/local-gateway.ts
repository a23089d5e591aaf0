import {InterruptedError} from '../errors.js'
import {type Calendar, fixedCalendar, readOffset, zoneCalendar} from '../lib/calendar.js'
import {newChallenge, proves} from '../lib/keyed-proof.js'
import {isLoopbackUrl} from '../lib/loopback.js'
import {buildPath, endpoints} from './endpoints.js'
import type {Exchange} from './exchange.js'
import {readRecord} from './responses.js'
import {clockProofText} from './schemas/sandbox-control.js'

/**
 * What a local gateway gw started says of itself, proven: its today (YYYY-MM-DD), its calendar
 * (its time zone, or the offset of its now, in which its days are read; left out when neither
 * can be read) and its processing window.
 */
export interface LocalGatewaySays {
  today: string
  processingWindowMs: number
  calendar?: Calendar
}

/**
 * design.md §5: the window is the gateway's; and a named day is the gateway's day. A gateway says
 * both at GET /_sandbox/clock, and gw believes it only of its own local gateway: one at an address
 * of this machine whose answer proves, with the key of a local gateway gw started (`keys`: read
 * from their runtime files, in gw's data folder, the user's alone), that it is that gateway. The
 * proof signs a challenge gw makes anew each time, so no other server can make one, whatever it
 * sends: a remote gateway is never asked, and another program at a loopback address, or a tunnel
 * to elsewhere, cannot prove it. Undefined, and gw keeps the live gateway's minute and this
 * machine's days, for anything else, and for a gateway that cannot answer now.
 */
export async function askLocalGateway(exchange: Exchange, keys: () => Promise<readonly string[]>): Promise<LocalGatewaySays | undefined> {
  if (!isLoopbackUrl(exchange.baseUrl)) return undefined
  const held = await keys()
  if (held.length === 0) return undefined
  const challenge = newChallenge()
  const endpoint = endpoints.sandbox.clock
  let said: {today?: string | null; now?: string | null; time_zone?: string | null; processing_window_ms?: number | null; proof?: string | null}
  try {
    said = readRecord(endpoint, await exchange.send(endpoint, `${buildPath(endpoint.path, {})}?challenge=${challenge}`, undefined)).record
  } catch (err) {
    if (err instanceof InterruptedError) throw err
    return undefined
  }
  const {today, processing_window_ms: processingWindowMs, now, time_zone: timeZone, proof} = said
  if (typeof today !== 'string' || typeof processingWindowMs !== 'number' || typeof now !== 'string' || typeof timeZone !== 'string' || typeof proof !== 'string') return undefined
  // The proof covers all gw believes: the calendar too.
  const text = clockProofText(challenge, {today, processing_window_ms: processingWindowMs, now, time_zone: timeZone})
  if (!held.some((key) => proves(key, text, proof))) return undefined
  const calendar = calendarSaid(now, timeZone)
  return {today, processingWindowMs, ...(calendar ? {calendar} : {})}
}

/** The gateway's calendar: its time zone where this Node knows it, else the offset of its now (`2026-11-26T12:30:05-12:00`). */
function calendarSaid(now: string, timeZone: string): Calendar | undefined {
  const zone = zoneCalendar(timeZone)
  if (zone) return zone
  const offset = readOffset(/(Z|[+-]\d{2}:?\d{2})$/i.exec(now)?.[1] ?? '')
  return offset === undefined ? undefined : fixedCalendar(offset)
}
