import {type ClientOptions, GatewayClient} from '../api/client.js'
import type {ProxySettings} from '../api/proxy.js'
import type {Credentials} from '../auth/resolve.js'
import {paint} from '../output/colors.js'
import {recoveryNotice} from '../output/hints.js'
import type {Io} from '../output/io.js'

/** What a client is built for: a profile's credentials, or those gw login is about to save (no environment yet). */
export type ClientCredentials = Pick<Credentials, 'baseUrl' | 'username' | 'token' | 'connectTimeoutMs' | 'responseTimeoutMs'> & {environment?: Credentials['environment']}

export type RequestGuard = NonNullable<ClientOptions['guard']>

/**
 * A client for the given credentials, whose every answer is checked against their environment;
 * --verbose logs each request dimmed on stderr, and a recovery (a lost answer looked up by its
 * reference) is told there in yellow.
 */
export function buildClient(
  credentials: ClientCredentials,
  {io, verbose, version, proxy, guard, signal}: {io: Io; verbose: boolean; version: string; proxy?: ProxySettings; guard?: RequestGuard; signal: AbortSignal},
): GatewayClient {
  return new GatewayClient({
    baseUrl: credentials.baseUrl,
    username: credentials.username,
    token: credentials.token,
    userAgent: `gw/${version} node/${process.versions.node}`,
    connectTimeoutMs: credentials.connectTimeoutMs,
    responseTimeoutMs: credentials.responseTimeoutMs,
    proxy,
    log: verbose ? (line) => io.err(paint(io.errColor, 'dim', line) + '\n') : undefined,
    onRecovery: (event) => io.err(paint(io.errColor, 'yellow', recoveryNotice(event)) + '\n'),
    guard,
    environment: credentials.environment,
    signal,
  })
}
