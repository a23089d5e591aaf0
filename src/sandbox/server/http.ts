import {STATUS_CODES, type IncomingMessage, type ServerResponse} from 'node:http'
import {setTimeout as sleep} from 'node:timers/promises'
import type {Mode} from '../domain/mode.js'
import {maskCardNumbersIn, maskCardPath} from '../../safety/redact.js'
import {envelope as envelopeFor} from '../domain/envelope.js'
import {SandboxError} from '../domain/errors.js'
import {matchPath, pathSegments, readJsonBody} from './request-parts.js'
import {newUuid} from '../domain/ids.js'
import {edgeOf, type FaultList} from './faults.js'
import {type RateLimit, type Refusal, retryAfterSeconds} from './manners.js'
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
  /** gw sandbox start --rate-limit: each merchant's API requests a second, past which they are answered 429 and not served. */
  rateLimit?: RateLimit
  /** gw sandbox start --latency: how long an API answer waits once its request is done, as over a network. */
  answerDelayMs?(): number
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
  /** What a fault (or the rate limit) did to the request, when one did. */
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
    const control = pathname.startsWith(CONTROL_PREFIX)
    // Whatever the answer, it comes back late, as over a network: the gateway's own controls answer at once.
    const delayMs = control ? 0 : (options.answerDelayMs?.() ?? 0)
    const late = async () => {
      if (delayMs > 0) await sleep(delayMs, undefined, {signal})
    }
    /** Answers the refusal in the envelope its dialect writes, its body read to the end, unparsed (answering mid-upload would reset the connection): nothing is done. */
    const refuse = async ({status, headers, told}: Refusal) => {
      for await (const _chunk of req) void _chunk
      await late()
      const answer = spoken(pathname, method, search, {status, body: envelope(false, null, [STATUS_CODES[status] ?? 'Error']), headers})
      writeEnvelope(res, answer.status, answer.body, answer.headers, pathname)
      log(`${method} ${shownPath} ${answer.status} ${told}`)
      answered(answer.status, answer.body, told)
    }
    const limited = control ? undefined : overLimit(req, seen)
    if (limited) return refuse(limited)
    const fault = control ? undefined : faults.take(method, target)
    if (fault) log(`${method} ${shownPath} fault ${fault.action}`)
    const edge = fault && edgeOf(fault)
    if (fault && edge?.refuses) return refuse(edge.refuses(fault))
    if (fault && edge?.instead) {
      await late()
      const {status, told} = edge.instead(fault, req, res, (errors) => envelope(false, null, errors))
      return answered(status, undefined, told)
    }
    const holdMs = (fault && edge?.holdMs?.(fault)) ?? 0
    const answer = spoken(pathname, method, search, await answerRequest(req, method, pathname, search, holdMs, seen))
    // Done as it arrived; only the answer waits.
    await late()
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

  /** A request over its merchant's rate limit, refused: let in, it counts. Credentials that are no merchant's are left to get their 401. */
  function overLimit(req: IncomingMessage, seen: Seen): Refusal | undefined {
    const merchant = options.rateLimit && signedInMerchant(req.headers.authorization)
    const waitMs = merchant === undefined ? undefined : options.rateLimit!.admit(merchant)
    if (waitMs === undefined) return undefined
    seen.merchant = merchant
    const seconds = retryAfterSeconds(waitMs)
    return {status: 429, headers: {'Retry-After': String(seconds)}, told: `over the rate limit of ${options.rateLimit!.perSecond} requests a second: answered 429, Retry-After ${seconds}, nothing done`}
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
