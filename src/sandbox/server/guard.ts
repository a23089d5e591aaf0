import type {IncomingHttpHeaders, ServerResponse} from 'node:http'
import {browserGuard, type BrowserGuardOptions} from '../../lib/browser-guard.js'
import {isLoopbackHost} from '../../lib/loopback.js'
import {envelope} from '../domain/envelope.js'
import {type HttpOptions, writeEnvelope} from './http.js'
import type {Mode} from '../domain/mode.js'

export type SandboxGuardOptions = Pick<BrowserGuardOptions, 'listenHost' | 'allowedHosts' | 'allowedOrigins'> & {mode: Mode}

/** Answers a request the gateway must not serve, and says what it answered; undefined lets it through (with CORS headers for an allowed page). */
export type SandboxGuard = NonNullable<HttpOptions<unknown>['guard']>
type Guarded = NonNullable<ReturnType<SandboxGuard>>

const CONTROL_PREFIX = '/_sandbox/'
const CONTROL_SEGMENT = '_sandbox'
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * The local gateway's door (browser-guard.ts): web pages are kept out, and its controls
 * (`/_sandbox/`: reset, faults, the clock, events), which take no merchant's credentials, are
 * never a simple request. A write takes only `application/json`, so a browser would have to ask
 * first (a preflight), and is refused. A DELETE without a body has no type to give, and needs
 * none: a browser never sends a DELETE without asking first. Listening beyond loopback, the controls also need a
 * merchant's credentials, as the rest of the gateway does.
 */
export function sandboxGuard(options: SandboxGuardOptions): SandboxGuard {
  const browsers = browserGuard({...options, server: 'local gateway', command: 'gw sandbox start'})
  const controlsNeedCredentials = !isLoopbackHost(options.listenHost)
  return (req, res, signedIn) => {
    const method = req.method ?? 'GET'
    const verdict = browsers(method, req.headers)
    for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value)
    if (verdict.status === 204) {
      res.writeHead(204).end()
      return {status: 204, error: 'preflight of an allowed page answered'}
    }
    if (verdict.error !== undefined) return refuse(res, 403, verdict.error)
    if (!isControl(req.url ?? '/')) return undefined
    if (controlsNeedCredentials && !signedIn()) {
      return refuse(res, 401, `The local gateway's controls (${CONTROL_PREFIX}) need a merchant's credentials (HTTP Basic, as gw sends them) when it listens on ${options.listenHost}, beyond loopback.`)
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (WRITES.has(method) && type !== 'application/json' && !(method === 'DELETE' && bodiless(req.headers))) {
      const given = type === '' ? 'none' : JSON.stringify(type.slice(0, 100))
      return refuse(res, 415, `The local gateway's controls (${CONTROL_PREFIX}) take only Content-Type: application/json (this request had ${given}), so that no web page can send them a simple request. Send the header, as gw does: curl -H 'Content-Type: application/json' ...`)
    }
    return undefined
  }

  function refuse(res: ServerResponse, status: number, error: string): Guarded {
    const body = envelope(options.mode, false, null, [error])
    // The body of a refused request is not worth reading: the connection closes instead.
    writeEnvelope(res, status, body, {Connection: 'close'})
    return {status, error, body}
  }
}

/** A request that says it carries no body: no Content-Length but 0, no Transfer-Encoding. */
function bodiless(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0')
}

/** Whether a request is for a control, as the router reads its path: empty segments skipped, each URL-decoded (`//%5Fsandbox/reset` is one). */
function isControl(target: string): boolean {
  const first = target.split('?')[0]!.split('/').find(Boolean) ?? ''
  try {
    return decodeURIComponent(first) === CONTROL_SEGMENT
  } catch {
    return false
  }
}
