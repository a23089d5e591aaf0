import type {IncomingMessage, ServerResponse} from 'node:http'
import {setTimeout as sleep} from 'node:timers/promises'
import type {Mode} from '../domain/mode.js'
import {maskCardNumbersIn, maskCardPath} from '../../safety/redact.js'
import {envelope as envelopeFor} from '../domain/envelope.js'
import {SandboxError, badRequest} from '../domain/errors.js'
import {newUuid} from '../domain/ids.js'
import {edgeOf, type FaultList} from './faults.js'
import type {Route, RouteRequest, RouteResult} from '../routes/route.js'
import {type Dialect, inDialect} from '../dialect.js'
import {withFloats} from './floats.js'

export interface HttpOptions<Ctx> {
  routes: Route<Ctx>[]
  ctx: Ctx
  mode: Mode
  /** The contract's answers, or the live gateway's (dialect.ts); the controls under /_sandbox/ answer the same in both. */
  dialect: Dialect
  /** Whether the Basic credentials are a merchant's. */
  authenticate(username: string, token: string): boolean
  faults: FaultList
  /** Runs before every route handler: the server catches the virtual clock up with the real date here. */
  beforeHandle?(): void
  /** Runs after every route handler, even one that threw, and the answer waits for it: the server makes changes durable here. */
  afterHandle(): Promise<void>
  /** Aborted when the server closes, to cut short requests a fault is delaying. */
  signal: AbortSignal
  log(line: string): void
  /** Told of every request once it is answered (or its connection dropped by a fault): the request log. */
  answered?(exchange: Exchange): void
  /** The name of this run of the gateway's data, sent with every answer as X-Sandbox-Instance. */
  instance?(): string | undefined
  guard?: {
    /** Sees every request first, and answers those the gateway must not serve (guard.ts): what it answered, for the log. `signedIn` names the merchant its Basic credentials are. */
    check(req: IncomingMessage, res: ServerResponse, signedIn: () => string | undefined): {status: number; error: string; body?: unknown} | undefined
    /** The one merchant whose records a request it let through may touch (RouteRequest's scope); undefined for all. */
    scopeOf(req: IncomingMessage, signedIn: () => string | undefined): string | undefined
  }
}

/** A request and what it was answered, for the request log; nothing here has been made safe to show yet. */
export interface Exchange {
  method: string
  pathname: string
  /** null: a fault dropped the connection before an answer was written. */
  status: number | null
  /** From the request's start to its answer written. */
  ms: number
  requestId: string
  /** The merchant whose credentials were accepted. */
  merchant?: string
  /** The parsed request body, when one was read. */
  input?: Record<string, unknown>
  /** The answer's JSON body. */
  body?: unknown
  /** What a fault did to the request, when one did. */
  fault?: string
  /** Answered by the guard, never served: logged whatever it asked for. */
  refused?: boolean
}

/** What answering a request learned about it beyond its answer. */
interface Seen {
  merchant?: string
  input?: Record<string, unknown>
  refused?: boolean
}

/**
 * Which run of its data answered (design.md §5): new for each start in memory and each reset, kept
 * in the --state file. A batch journal records it, and never reports rows from another run. The
 * live gateway sends no such header.
 */
export const INSTANCE_HEADER = 'X-Sandbox-Instance'

const MAX_BODY_BYTES = 1024 * 1024
const CONTROL_PREFIX = '/_sandbox/'
/** The real gateway's 401 body, key for key, with no `test` (gateway-notes.md). */
const UNAUTHORIZED = {successful: false, errors: ['Incorrect Username or Token'], response: null}

interface Answer {
  status: number
  body: unknown
  headers?: Record<string, string>
}

export function writeEnvelope(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, pathname?: string): void {
  if (res.headersSent || res.destroyed) return
  const text = withFloats(JSON.stringify(body), pathname)
  res.writeHead(status, {...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text))})
  res.end(text)
}

export function createRequestListener<Ctx>(options: HttpOptions<Ctx>): (req: IncomingMessage, res: ServerResponse) => void {
  const {ctx, mode, faults, signal, log} = options
  const routes = options.routes.map((route) => ({route, pattern: route.path.split('/').filter(Boolean)}))
  const envelope = (successful: boolean, response: unknown, errors: string[]) => envelopeFor(mode, successful, response, errors)

  const succeeded = (result: RouteResult): Answer => ({
    status: result.status,
    body: result.bare ? result.response : {...envelope(true, result.response, []), ...result.fields},
  })
  const handled = async (handle: () => RouteResult): Promise<RouteResult> => {
    try {
      options.beforeHandle?.()
      return handle()
    } finally {
      await options.afterHandle()
    }
  }

  return (req, res) => {
    const requestId = newUuid()
    res.setHeader('X-Request-Id', requestId)
    res.setHeader('X-Service-Mode', mode === 'live' ? 'Live' : 'Sandbox')
    // Read per request: a reset names the data anew.
    const instance = options.instance?.()
    if (instance !== undefined) res.setHeader(INSTANCE_HEADER, instance)
    serve(req, res, requestId).catch((error: unknown) => {
      // A fault's delay cut short by close() ends here, quietly; anything else is a sandbox bug.
      if (!signal.aborted) log(`unexpected failure: ${String(error)}`)
      req.socket.destroy()
    })
  }

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const started = performance.now()
    const method = req.method ?? 'GET'
    const target = req.url ?? '/'
    const queryStart = target.indexOf('?')
    const pathname = queryStart === -1 ? target : target.slice(0, queryStart)
    const search = queryStart === -1 ? '' : target.slice(queryStart + 1)
    const seen: Seen = {}
    const answered = (status: number | null, body?: unknown, fault?: string) =>
      options.answered?.({method, pathname, status, ms: performance.now() - started, requestId, ...seen, body, fault})

    // What is logged names a stored card by its token's last four only, and no card number whole.
    const shownPath = maskCardPath(pathname)
    const guarded = options.guard?.check(req, res, () => signedInMerchant(req.headers.authorization))
    if (guarded) {
      log(`${method} ${shownPath} ${guarded.status} ${guarded.error}`)
      seen.refused = true
      return answered(guarded.status, guarded.body)
    }
    const fault = pathname.startsWith(CONTROL_PREFIX) ? undefined : faults.take(method, target)
    if (fault) log(`${method} ${shownPath} fault ${fault.action}`)
    const edge = fault && edgeOf(fault)
    if (fault && edge?.instead) {
      const {status, told} = edge.instead(fault, req, res, (errors) => envelope(false, null, errors))
      return answered(status, undefined, told)
    }
    const holdMs = (fault && edge?.holdMs?.(fault)) ?? 0
    const answer = spoken(pathname, method, search, await answerRequest(req, method, pathname, search, holdMs, seen))
    // The request was processed in full; the client must now find out without an answer.
    if (edge?.dropsAnswer) {
      req.socket.destroy()
      return answered(null, answer.body, `processed, then the connection was dropped before the answer (fault ${fault!.action}; it was ${answer.status})`)
    }
    // Again, after the request's own change: the answer names the data that holds it.
    const instance = options.instance?.()
    if (instance !== undefined) res.setHeader(INSTANCE_HEADER, instance)
    writeEnvelope(res, answer.status, answer.body, answer.headers, pathname)
    log(`${method} ${shownPath} ${answer.status}`)
    answered(answer.status, answer.body, holdMs > 0 ? `delayed ${holdMs} ms by a fault` : undefined)
  }

  function spoken(pathname: string, method: string, search: string, answer: Answer): Answer {
    if (pathname.startsWith(CONTROL_PREFIX) || answer.body === null || typeof answer.body !== 'object') return answer
    const query = Object.fromEntries(new URLSearchParams(search))
    const {status, body} = inDialect(options.dialect, {method, pathname, query, status: answer.status, body: answer.body as Record<string, unknown>})
    return {...answer, status, body}
  }

  /** `delayMs` passes after the body is read: like a slow gateway, it finishes even if the client gave up. */
  async function answerRequest(req: IncomingMessage, method: string, pathname: string, search: string, delayMs: number, seen: Seen): Promise<Answer> {
    try {
      const segments = pathSegments(pathname)
      const matching = routes.flatMap(({route, pattern}) => {
        const params = matchPath(pattern, segments)
        return params ? [{route, params}] : []
      })
      if (matching.length === 0) throw unrouted(method, pathname)
      const found = matching.find(({route}) => route.method === method)
      if (!found) {
        const allowed = matching.map(({route}) => route.method).join(', ')
        return {
          status: 405,
          body: envelope(false, null, [`Method ${method} is not allowed on ${pathname}; allowed: ${allowed}`]),
          headers: {Allow: allowed},
        }
      }
      const {route, params} = found
      const readRequest = async (): Promise<RouteRequest> => {
        const input = method === 'POST' || method === 'PUT' ? await readJsonBody(req) : {}
        seen.input = input
        if (delayMs > 0) {
          const release = faults.hold(delayMs)
          await sleep(delayMs, undefined, {signal}).finally(release)
        }
        const scope = options.guard?.scopeOf(req, () => signedInMerchant(req.headers.authorization))
        return {input, params, query: Object.fromEntries(new URLSearchParams(search)), ...(scope === undefined ? {} : {scope})}
      }
      if (route.auth === 'none') {
        const request = await readRequest()
        return succeeded(await handled(() => route.handle(request, ctx)))
      }
      // Credentials are checked before the body is read: nothing from a stranger gets parsed.
      const merchant = signedInMerchant(req.headers.authorization)
      if (merchant === undefined) {
        // Read to the end, unparsed: answering mid-upload would reset the connection, and the client would see no 401.
        for await (const _chunk of req) void _chunk
        return {status: 401, body: UNAUTHORIZED}
      }
      seen.merchant = merchant
      const request = {...(await readRequest()), merchant}
      return succeeded(await handled(() => route.handle(request, ctx)))
    } catch (error) {
      // Closing cut a delayed request short: serve() drops its socket.
      if (signal.aborted) throw error
      if (error instanceof SandboxError) return {status: error.status, body: envelope(false, error.response, error.errors)}
      log(`internal error on ${method} ${maskCardPath(pathname)}: ${maskCardNumbersIn(error instanceof Error ? (error.stack ?? error.message) : String(error))}`)
      return {status: 500, body: envelope(false, null, ['Internal sandbox error'])}
    }
  }

  function signedInMerchant(header: string | undefined): string | undefined {
    const [scheme, encoded] = (header ?? '').split(' ', 2)
    if (scheme?.toLowerCase() !== 'basic' || !encoded) return undefined
    const credentials = Buffer.from(encoded, 'base64').toString('utf8')
    const colon = credentials.indexOf(':')
    if (colon === -1) return undefined
    const username = credentials.slice(0, colon)
    return options.authenticate(username, credentials.slice(colon + 1)) ? username : undefined
  }
}

/**
 * A request for no route: answered as the gateway answers one, `Not Found` in its envelope
 * (ActiveMerchant's failed void, `POST /v1.0//void?id=123`, expects those words), with `response`
 * `{}` as its other 404s have; only the local gateway's own controls say which route was not found.
 */
function unrouted(method: string, pathname: string): SandboxError {
  return pathname.startsWith(CONTROL_PREFIX) ? new SandboxError(404, [`No route matches ${method} ${pathname}`]) : new SandboxError(404, ['Not Found'], {})
}

/**
 * The path's segments, decoded. The contract's `.json` suffix and a trailing slash are
 * optional. Exactly one `.json` is cut from the last segment, before decoding: a client that
 * appends `.json` whenever the key holds a dot (`a.json` sent as `a.json.json`), or encodes the
 * dot (`a%2Ejson`), reaches any key whole.
 */
function pathSegments(pathname: string): string[] {
  const raw = pathname.split('/')
  const last = raw.length - 1
  if (raw[last]?.endsWith('.json')) raw[last] = raw[last].slice(0, -'.json'.length)
  try {
    return raw.filter(Boolean).map(decodeURIComponent)
  } catch {
    throw badRequest([`Path ${pathname} is not correctly URL-encoded`])
  }
}

function matchPath(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined
  const params: Record<string, string> = {}
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index] as string
    if (part.startsWith(':')) params[part.slice(1)] = segment
    else if (part !== segment) return undefined
  }
  return params
}

async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  let size = 0
  // Read to the end even past the limit, so the client is not cut off mid-upload and sees the 413.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= MAX_BODY_BYTES) chunks.push(chunk)
  }
  if (size > MAX_BODY_BYTES) throw new SandboxError(413, [`Request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`])
  const text = Buffer.concat(chunks).toString('utf8')
  if (text.trim() === '') return {}
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    // The parser's own words may quote the body (`"cvv=642&ca"...`): only where it broke is said.
    const at = /at position (\d+)/.exec((error as Error).message)
    throw badRequest([`Request body is not valid JSON${at ? ` (it breaks at character ${at[1]})` : ''}`])
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(['Request body must be a JSON object'])
  return body as Record<string, unknown>
}
