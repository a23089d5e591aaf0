import {InterruptedError} from '../errors.js'
import {newChallenge, proves} from '../lib/keyed-proof.js'
import {isLoopbackUrl} from '../lib/loopback.js'
import {buildPath, endpoints} from './endpoints.js'
import type {Exchange} from './exchange.js'
import {readRecord} from './responses.js'
import {clockProofText} from './schemas/sandbox-control.js'

/** What a local gateway gw started says of itself, proven: its today (YYYY-MM-DD) and its processing window. */
export interface LocalGatewaySays {
  today: string
  processingWindowMs: number
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
  let said: {today?: string | null; processing_window_ms?: number | null; proof?: string | null}
  try {
    said = readRecord(endpoint, await exchange.send(endpoint, `${buildPath(endpoint.path, {})}?challenge=${challenge}`, undefined)).record
  } catch (err) {
    if (err instanceof InterruptedError) throw err
    return undefined
  }
  const {today, processing_window_ms: processingWindowMs, proof} = said
  if (typeof today !== 'string' || typeof processingWindowMs !== 'number' || typeof proof !== 'string') return undefined
  const text = clockProofText(challenge, {today, processing_window_ms: processingWindowMs})
  return held.some((key) => proves(key, text, proof)) ? {today, processingWindowMs} : undefined
}
