import {type ClientOptions, GatewayClient} from '../api/client.js'
import type {ProxySettings} from '../api/proxy.js'
import type {Credentials} from '../auth/resolve.js'
import {paint} from '../output/colors.js'
import {countdown} from '../output/countdown.js'
import {recoveryNotice, waitingStatus} from '../output/hints.js'
import type {Io} from '../output/io.js'
import {rateLimitNotice} from '../output/rate-limit-notice.js'

/** What a client is built for: a profile's credentials, or those gw login is about to save (no environment yet). */
export type ClientCredentials = Pick<Credentials, 'baseUrl' | 'username' | 'token' | 'connectTimeoutMs' | 'responseTimeoutMs'> & {environment?: Credentials['environment']; controlToken?: string}

export type RequestGuard = NonNullable<ClientOptions['guard']>

/**
 * A client for the given credentials, whose every answer is checked against their environment;
 * --verbose logs each request dimmed on stderr, a recovery (a lost answer looked up by its
 * reference) is told there in yellow, and a wait for the gateway's rate limit counted down at a terminal.
 */
export function buildClient(
  credentials: ClientCredentials,
  {io, verbose, version, proxy, guard, signal, localGatewayKeys}: {io: Io; verbose: boolean; version: string; proxy?: ProxySettings; guard?: RequestGuard; signal: AbortSignal; localGatewayKeys?: ClientOptions['localGatewayKeys']},
): GatewayClient {
  return new GatewayClient({
    baseUrl: credentials.baseUrl,
    username: credentials.username,
    token: credentials.token,
    controlToken: credentials.controlToken,
    userAgent: `gw/${version} node/${process.versions.node}`,
    connectTimeoutMs: credentials.connectTimeoutMs,
    responseTimeoutMs: credentials.responseTimeoutMs,
    localGatewayKeys,
    proxy,
    log: verbose ? (line) => io.err(paint(io.errColor, 'dim', line) + '\n') : undefined,
    onRecovery: recoveryTold(io),
    onRateLimit: rateLimitNotice(io),
    guard,
    environment: credentials.environment,
    signal,
  })
}

/** Each step of a recovery as a notice on stderr in yellow; a wait for the gateway counted down at a terminal. */
function recoveryTold(io: Io): NonNullable<ClientOptions['onRecovery']> {
  let stopCountdown: (() => void) | undefined
  return (event) => {
    stopCountdown?.()
    stopCountdown = undefined
    const notice = recoveryNotice(event)
    if (notice) io.err(paint(io.errColor, 'yellow', notice) + '\n')
    if (event.step === 'waiting') stopCountdown = countdown(io, (seconds) => waitingStatus(event.noun, 1, seconds), event.endsAt)
  }
}
