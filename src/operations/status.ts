import {AuthError, GatewayError, type GwError, ModeMismatchError, NotFoundError, PermissionError} from '../errors.js'
import type {Deps} from './deps.js'

/** Any id will do: a 404 means the gateway took the credentials, a 401 that it did not. */
const PROBE_PATH = '/v1.0/purchases/gw-status-check'

/** What one request with the profile's credentials showed. */
export interface GatewayCheck {
  reachable: boolean
  /** Null when the gateway could not be asked, or its answer could not tell. */
  token_valid: boolean | null
  /** The mode the gateway reports in its answers' `test`: `test` (sandbox) or `live`; null when it says nothing. */
  gateway_mode: 'test' | 'live' | null
  /** What went wrong, for the exit code: unreachable (1), a refused token (4), a failing gateway (1). */
  problem?: GwError
}

/** `gw status --check`: one harmless look-up, read for reachability, the token, and the gateway's mode. */
export async function checkGateway({client}: Pick<Deps, 'client'>): Promise<GatewayCheck> {
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

function modeOf(body: string): GatewayCheck['gateway_mode'] {
  try {
    const test = (JSON.parse(body) as {test?: unknown}).test
    return test === true ? 'test' : test === false ? 'live' : null
  } catch {
    return null
  }
}
