import {timingSafeEqual} from 'node:crypto'
import type {IncomingHttpHeaders, ServerResponse} from 'node:http'
import {browserGuard, type BrowserGuardOptions} from '../../lib/browser-guard.js'
import {isLoopbackHost} from '../../lib/loopback.js'
import {envelope} from '../domain/envelope.js'
import {TEST_MERCHANT} from '../domain/ids.js'
import {type HttpOptions, writeEnvelope} from './http.js'
import type {Mode} from '../domain/mode.js'

export type SandboxGuardOptions = Pick<BrowserGuardOptions, 'listenHost' | 'allowedHosts' | 'allowedOrigins'> & {
  mode: Mode
  /** The secret of whoever started it (its runtime file, 0600): its stop, and beyond loopback its controls, take it as `Authorization: Bearer`. */
  controlToken: string
  /** Beyond loopback, let merchant TEST in with its published token (--open-test-merchant); on loopback it always is. */
  openTestMerchant?: boolean
}

/** The vendor's public demo merchant, whose token (TEST) anyone can read. */
const PUBLISHED_MERCHANT = TEST_MERCHANT
/** What only the one who started the gateway may ask, with its control token: its stop and its process. */
const OWNER_CONTROLS = new Set(['stop', 'process'])
/**
 * Beyond loopback, the controls a merchant's credentials reach without the control token, each
 * kept to that merchant's own records (the route's `scope`): what the gateway is, its today, the
 * merchant's sample events and its requests, its records dated and its quick history. The others (reset, faults, the clock moved on, web
 * hook deliveries) act on every merchant's records: the control token only.
 */
const MERCHANT_CONTROLS = new Set(['', 'info', 'instance', 'clock', 'trigger', 'requests', 'dated', 'history'])
/** The control token beside a merchant's Basic credentials: how gw reaches its own local gateway as TEST beyond loopback. */
export const CONTROL_TOKEN_HEADER = 'gw-control-token'

/** Answers a request the gateway must not serve, and says what it answered; undefined lets it through (with CORS headers for an allowed page). */
export type SandboxGuard = NonNullable<HttpOptions<unknown>['guard']>
type Guarded = NonNullable<ReturnType<SandboxGuard['check']>>

const CONTROL_PREFIX = '/_sandbox/'
const CONTROL_SEGMENT = '_sandbox'
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * The local gateway's door (browser-guard.ts): web pages are kept out, and its controls
 * (`/_sandbox/`: reset, faults, the clock, events), which take no merchant's credentials, are
 * never a simple request. A write takes only `application/json`, so a browser would have to ask
 * first (a preflight), and is refused. A DELETE without a body has no type to give, and needs
 * none: a browser never sends a DELETE without asking first. Its stop and process take its
 * control token, wherever it listens. Listening beyond loopback, nothing published gets in: its
 * controls need the control token, or a merchant's credentials for that merchant's own records
 * (MERCHANT_CONTROLS), and merchant TEST, whose token is published, is refused unless
 * --open-test-merchant lets it in, or the control token comes with it (gw's own profile does so).
 */
export function sandboxGuard(options: SandboxGuardOptions): SandboxGuard {
  const browsers = browserGuard({...options, server: 'local gateway', command: 'gw sandbox start'})
  const beyondLoopback = !isLoopbackHost(options.listenHost)
  const testShut = beyondLoopback && !options.openTestMerchant
  const expected = Buffer.from(options.controlToken)
  const matches = (token: string | undefined) => {
    const given = Buffer.from(token ?? '')
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
  const holdsToken = (headers: IncomingHttpHeaders) => {
    const [scheme, token] = (headers.authorization ?? '').split(' ', 2)
    const beside = headers[CONTROL_TOKEN_HEADER]
    return (scheme?.toLowerCase() === 'bearer' && matches(token)) || (typeof beside === 'string' && matches(beside))
  }
  const check: SandboxGuard['check'] = (req, res, merchantSignedIn) => {
    const method = req.method ?? 'GET'
    const verdict = browsers(method, req.headers)
    for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value)
    if (verdict.status === 204) {
      res.writeHead(204).end()
      return {status: 204, error: 'preflight of an allowed page answered'}
    }
    if (verdict.error !== undefined) return refuse(res, 403, verdict.error)
    const control = controlOf(req.url ?? '/')
    if (control === undefined) {
      if (!testShut || merchantSignedIn() !== PUBLISHED_MERCHANT || holdsToken(req.headers)) return undefined
      return refuse(res, 401, `Merchant ${PUBLISHED_MERCHANT}'s token is published, so it is refused on a local gateway listening on ${options.listenHost}, beyond loopback. Use a merchant of your own (gw sandbox start --merchant USER:TOKEN), or start it with --open-test-merchant to let anyone who reaches it in as ${PUBLISHED_MERCHANT}.`)
    }
    const owner = OWNER_CONTROLS.has(control)
    if ((owner || beyondLoopback) && !holdsToken(req.headers)) {
      if (owner) return refuse(res, 401, `${CONTROL_PREFIX}${control} takes the local gateway's control token (Authorization: Bearer TOKEN), which only the user who started it can read, in its runtime file: gw sandbox stop sends it.`)
      const signedIn = merchantSignedIn()
      if (signedIn === undefined || (testShut && signedIn === PUBLISHED_MERCHANT)) {
        return refuse(res, 401, `The local gateway's controls (${CONTROL_PREFIX}) need its control token (Authorization: Bearer TOKEN, printed as it started) or a merchant's credentials${testShut ? ` other than ${PUBLISHED_MERCHANT}'s, which are published,` : ' (HTTP Basic, as gw sends them)'} when it listens on ${options.listenHost}, beyond loopback.`)
      }
      if (!merchantControl(control, method)) {
        return refuse(res, 403, `${CONTROL_PREFIX}${control} acts on every merchant's records, so on a local gateway listening on ${options.listenHost}, beyond loopback, it takes the control token (Authorization: Bearer TOKEN), which only the user who started it can read; merchant ${signedIn}'s credentials reach only its own sample events, requests and the gateway's clock.`)
      }
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (WRITES.has(method) && type !== 'application/json' && !(method === 'DELETE' && bodiless(req.headers))) {
      const given = type === '' ? 'none' : JSON.stringify(type.slice(0, 100))
      return refuse(res, 415, `The local gateway's controls (${CONTROL_PREFIX}) take only Content-Type: application/json (this request had ${given}), so that no web page can send them a simple request. Send the header, as gw does: curl -H 'Content-Type: application/json' ...`)
    }
    return undefined
  }
  /** Beyond loopback, a control asked with a merchant's credentials and not the control token: that merchant, whose records alone it may touch. */
  const scopeOf: SandboxGuard['scopeOf'] = (req, merchantSignedIn) =>
    beyondLoopback && controlOf(req.url ?? '/') !== undefined && !holdsToken(req.headers) ? merchantSignedIn() : undefined
  return {check, scopeOf}

  function refuse(res: ServerResponse, status: number, error: string): Guarded {
    const body = envelope(options.mode, false, null, [error])
    // The body of a refused request is not worth reading: the connection closes instead.
    writeEnvelope(res, status, body, {Connection: 'close'})
    return {status, error, body}
  }
}

/** A control a merchant's credentials reach beyond loopback: the clock read, not moved on. */
const merchantControl = (control: string, method: string) => MERCHANT_CONTROLS.has(control) && (control !== 'clock' || method === 'GET')

/** A request that says it carries no body: no Content-Length but 0, no Transfer-Encoding. */
function bodiless(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0')
}

/**
 * The control a request is for, as the router reads its path (empty segments skipped, each
 * URL-decoded: `//%5Fsandbox/reset` is one): `reset`, `clock`...; '' for `/_sandbox/` itself;
 * undefined for the gateway's own endpoints.
 */
function controlOf(target: string): string | undefined {
  const [first = '', second = ''] = target.split('?')[0]!.split('/').filter(Boolean)
  if (decoded(first) !== CONTROL_SEGMENT) return undefined
  // The router takes one .json off the last segment, as it does for every path.
  return (decoded(second) ?? second).replace(/\.json$/, '')
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}
