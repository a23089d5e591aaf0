import {randomBytes} from 'node:crypto'
import {AuthError, GatewayError, type GwError, ModeMismatchError, NotFoundError, PermissionError} from '../errors.js'
import type {Deps} from './deps.js'

/** The gateway's health check, outside /v1.0. */
const PING_PATH = '/ping'

/** Any id will do: a 404 means the gateway took the credentials, a 401 that it did not. */
const PROBE_PATH = '/v1.0/purchases/gw-status-check'

/** What one request with the profile's credentials showed. */
export interface GatewayCheck {
  reachable: boolean
  /** Null when the gateway could not be asked, or its answer could not tell. */
  token_valid: boolean | null
  /** The mode the gateway reports in its answers' `test`: `test` (sandbox) or `live`; null when it says nothing. */
  gateway_mode: 'test' | 'live' | null
  /**
   * Whether `GET /ping` answered its bare body with the echo sent: true; false when the gateway has
   * no /ping (404: the look-up still tells) or answered it otherwise; null when it was not reached.
   */
  answers_ping: boolean | null
  /** The gateway's clock as /ping gave it (`timestamp`, Unix seconds), as an ISO time; null when it gave none. */
  gateway_time: string | null
  /** What went wrong, for the exit code: unreachable (1), a refused token (4), a failing gateway (1). */
  problem?: GwError
}

/**
 * `gw status --check`: `GET /ping` (gateway-beyond.md §11: a bare body, no envelope) says whether
 * the gateway answers, and its clock; a 401 to it is a refused token. Whether the live gateway
 * checks credentials on /ping is not known, and its bare body says no mode, so one harmless
 * look-up follows, read for the token and the gateway's mode, as before there was a /ping.
 */
export async function checkGateway({client}: Pick<Deps, 'client'>): Promise<GatewayCheck> {
  const echo = `gw-status-${randomBytes(4).toString('hex')}`
  let ping
  try {
    ping = await client.sendRaw('GET', `${PING_PATH}?echo=${echo}`)
  } catch (err) {
    if (err instanceof GatewayError && err.kind === 'network') return {reachable: false, token_valid: null, gateway_mode: null, answers_ping: null, gateway_time: null, problem: err}
    if (!(err instanceof ModeMismatchError)) throw err
    // An answer in the other mode: the look-up says so, as it always has.
    ping = undefined
  }
  const pinged = ping === undefined ? {answers_ping: false, gateway_time: null} : pingOf(ping.text, echo)
  if (ping?.error instanceof AuthError) return {reachable: true, token_valid: false, gateway_mode: modeOf(ping.text), ...pinged, problem: ping.error}
  // A gateway (or a proxy before it) with no /ping for this user, 404 or 403: the look-up alone tells.
  if (ping?.error && !(ping.error instanceof NotFoundError) && !(ping.error instanceof PermissionError)) {
    const {error} = ping
    const problem = new GatewayError(error.kind === 'unreadable' ? 'unreadable' : 'gateway', `The gateway answered its health check, GET ${PING_PATH}, with a failure: ${error.message}`, {status: error.status, requestId: error.requestId, messages: error.messages, hint: error.hint})
    return {reachable: true, token_valid: null, gateway_mode: modeOf(ping.text), ...pinged, problem}
  }
  if (ping && !ping.error && !pinged.answers_ping) {
    const problem = new GatewayError('unreadable', `The gateway answered GET ${PING_PATH} with HTTP ${ping.status}, but not with the echo sent (${echo})`, {status: ping.status, hint: 'Check the base URL of the profile in force: something other than the gateway may be answering there.'})
    return {reachable: true, token_valid: null, gateway_mode: null, ...pinged, problem}
  }
  return {...(await lookUp(client)), ...pinged}
}

/** The harmless look-up: reachability, the token, and the mode its answer reports. */
async function lookUp(client: Pick<Deps, 'client'>['client']): Promise<Omit<GatewayCheck, 'answers_ping' | 'gateway_time'>> {
  let answer
  try {
    answer = await client.sendRaw('GET', PROBE_PATH)
  } catch (err) {
    if (err instanceof GatewayError && err.kind === 'network') return {reachable: false, token_valid: null, gateway_mode: null, problem: err}
    // The client stops at an answer in the other mode; for this harmless look-up status only says so.
    if (err instanceof ModeMismatchError) {
      const gateway_mode = err.reported === 'live' ? 'live' : 'test'
      return err.status === 401 ? {reachable: true, token_valid: false, gateway_mode, problem: new AuthError('HTTP 401', {status: 401})} : {reachable: true, token_valid: err.status !== undefined && err.status < 500, gateway_mode}
    }
    throw err
  }
  const gateway_mode = modeOf(answer.text)
  const {error} = answer
  if (error instanceof AuthError) return {reachable: true, token_valid: false, gateway_mode, problem: error}
  if (!error || error instanceof NotFoundError || error instanceof PermissionError) return {reachable: true, token_valid: true, gateway_mode}
  return {reachable: true, token_valid: null, gateway_mode, problem: error}
}

/** /ping's bare body, `{"timestamp": <Unix seconds>, "echo": TEXT}`: answered when it echoes what was sent. */
export function pingOf(body: string, echo: string): {answers_ping: boolean; gateway_time: string | null} {
  try {
    const {timestamp, echo: echoed} = JSON.parse(body) as {timestamp?: unknown; echo?: unknown}
    const time = typeof timestamp === 'number' && Number.isFinite(timestamp) ? new Date(timestamp * 1000) : undefined
    return {answers_ping: echoed === echo, gateway_time: time && !Number.isNaN(time.getTime()) ? time.toISOString() : null}
  } catch {
    return {answers_ping: false, gateway_time: null}
  }
}

function modeOf(body: string): GatewayCheck['gateway_mode'] {
  try {
    const test = (JSON.parse(body) as {test?: unknown}).test
    return test === true ? 'test' : test === false ? 'live' : null
  } catch {
    return null
  }
}
