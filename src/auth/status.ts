import type {ProxyRoute} from '../api/proxy.js'
import {AuthError, GatewayError, type GwError} from '../errors.js'
import type {GatewayCheck} from '../operations/status.js'
import type {CredentialSource, Target} from './resolve.js'

const CHOSEN_BY: Record<CredentialSource, string> = {
  flag: '--profile',
  GW_PROFILE: 'GW_PROFILE',
  active: 'the active profile',
  environment: 'GW_USERNAME and GW_TOKEN',
}

/** gw status: who gw talks to and why, through which proxy, and where the token is kept; never the token. */
export function statusRecord(target: Target, route: ProxyRoute): Record<string, unknown> {
  return {
    profile: target.profileName ?? null,
    chosen_by: CHOSEN_BY[target.source],
    environment: target.environment,
    base_url: target.baseUrl,
    username: target.username,
    read_only: target.profile?.readOnly ?? false,
    secret: target.secretLocation,
    proxy: route.kind === 'proxy' ? `${route.proxy} (${route.variable})` : `none: ${route.reason}`,
  }
}

/**
 * The status record with what the gateway showed, and the failure to exit with: the gateway's
 * refusal of the token (4) or its silence (1), each carrying the record to print. A gateway in
 * the other mode than the profile's environment is only warned of: the look-up was harmless.
 */
export function checkedStatus(
  record: Record<string, unknown>,
  target: Target,
  check: GatewayCheck,
): {record: Record<string, unknown>; problem?: GwError; warning?: string} {
  const checked = {...record, reachable: check.reachable, token_valid: check.token_valid, gateway_mode: check.gateway_mode, answers_ping: check.answers_ping, gateway_time: check.gateway_time}
  const expected = target.environment === 'live' ? 'live' : 'test'
  const whose = target.profileName ? `profile ${target.profileName} is a ${target.environment} profile` : `the credentials in GW_USERNAME and GW_TOKEN count as ${target.environment}`
  const warning = check.gateway_mode !== null && check.gateway_mode !== expected ? `${whose}, but the gateway at ${target.baseUrl} answers in ${check.gateway_mode} mode` : undefined
  const {problem} = check
  if (!problem) return {record: checked, warning}
  const details = {status: problem.status, requestId: problem.requestId, messages: problem.messages, record: checked}
  if (problem instanceof AuthError) {
    const fix = target.profileName ? `Log in again: gw login --profile ${target.profileName}` : 'Check GW_USERNAME and GW_TOKEN.'
    return {record: checked, warning, problem: new AuthError(`The gateway at ${target.baseUrl} refused username ${target.username} with ${target.profileName ? `the token of profile ${target.profileName}` : 'the token in GW_TOKEN'}: ${problem.message}`, {...details, hint: fix})}
  }
  return {record: checked, warning, problem: new GatewayError(problem.kind === 'network' || problem.kind === 'unreadable' ? problem.kind : 'gateway', problem.message, {...details, hint: problem.hint})}
}
