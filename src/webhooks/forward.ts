import type {IncomingHttpHeaders} from 'node:http'
import type {ProxySettings} from '../api/proxy.js'
import {lazyDispatcher, request} from '../api/transport.js'
import type {ForwardResult} from './format.js'
import {SIGNATURE_HEADER, signatureHeader} from './signing.js'

export const DEFAULT_FORWARD_TIMEOUT_MS = 30_000

// Hop-by-hop headers describe one connection, not the delivery; undici sets its own. A signature
// is gw listen's to make: one a sender put in is never passed on.
const HOP_BY_HOP = new Set([SIGNATURE_HEADER.toLowerCase(), 'host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'expect', 'upgrade', 'te', 'trailer', 'proxy-connection', 'proxy-authorization'])

export interface Forwarder {
  /** Passes a delivery on, signed when `signed` (the default) and there is a secret: gw listen signs only what passed a credentials check. */
  send(body: Buffer | string, headers: IncomingHttpHeaders | Record<string, string>, signed?: boolean): Promise<ForwardResult>
  close(): Promise<void>
}

/**
 * Passes deliveries on to the merchant's app over keep-alive connections: the exact bytes and the
 * gateway's headers (its Basic credentials too: the app checks them as it would the gateway's),
 * signed with `secret` when given (signing.ts).
 */
export function createForwarder(url: string, timeoutMs = DEFAULT_FORWARD_TIMEOUT_MS, proxy?: ProxySettings, secret?: string): Forwarder {
  const dispatcher = lazyDispatcher({connectTimeoutMs: timeoutMs, keepAliveTimeoutMs: 4_000}, proxy)
  return {
    async send(body, headers, signed = true) {
      const started = performance.now()
      const elapsed = () => Math.round(performance.now() - started)
      try {
        const relayed = relayedHeaders(headers)
        if (secret !== undefined && signed) relayed[SIGNATURE_HEADER] = signatureHeader(secret, body)
        const response = await request(await dispatcher.get(), url, {method: 'POST', headers: relayed, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs})
        await response.body.dump()
        return {status: response.statusCode, ms: elapsed()}
      } catch (err) {
        return {error: describeFailure(err, timeoutMs), ms: elapsed()}
      }
    },
    close: () => dispatcher.end('close'),
  }
}

function relayedHeaders(headers: IncomingHttpHeaders | Record<string, string>): Record<string, string> {
  const relayed: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name.toLowerCase())) continue
    relayed[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return relayed
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const code = (err as {code?: string})?.code
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `no answer within ${timeoutMs} ms`
  return err instanceof Error ? err.message : String(err)
}
