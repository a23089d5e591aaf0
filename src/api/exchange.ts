import {setMaxListeners} from 'node:events'
import {setTimeout as delay} from 'node:timers/promises'
import {InterruptedError, ModeMismatchError, type MoneyInFlight, RateLimitedError, type StopSignal, UnreachableError} from '../errors.js'
import {maskCardPath, redactText} from '../safety/redact.js'
import type {Clock} from '../money/window.js'
import type {Endpoint} from './endpoints.js'
import {type ProxyRoute, proxyRoute, type ProxySettings} from './proxy.js'
import {parseBody, type RawResponse, readRecord, reportedMode} from './responses.js'
import {backoffMs, classifyFailure, errorCode, isCertificateFailure, MAX_RETRIES, proxyRefusal, type RateLimit, rateLimitOf, shouldRetry} from './retry.js'
import type {RateLimitsMet} from './gate.js'
import {type LimitedRequest, type RateLimitListeners, RateLimiting} from './rate-limiting.js'
import {type LazyDispatcher, lazyDispatcher, request} from './transport.js'
import {gatewayRoot} from './base-url.js'
import {parseListBody, readListBody} from './list-text.js'
import type {GwRecord} from './schemas/record.js'

export type {RateLimitWait} from './rate-limiting.js'

export interface ExchangeOptions {
  baseUrl: string
  username: string
  token: string
  /** The control token of the local gateway gw started at baseUrl (its runtime file): sent beside the credentials, it lets merchant TEST in beyond loopback (sandbox/server/guard.ts). */
  controlToken?: string
  userAgent: string
  connectTimeoutMs?: number
  responseTimeoutMs?: number
  /** HTTP_PROXY, HTTPS_PROXY and NO_PROXY as read from the environment; none when undefined. */
  proxy?: ProxySettings
  /** Receives one line per request and response with --verbose; secrets already redacted. */
  log?: (line: string) => void
  /**
   * The environment the profile says the gateway is (design.md §6): every answer's reported mode
   * is checked against it, and a mismatch stops the client before it sends anything more.
   */
  environment?: 'sandbox' | 'live'
  /** Aborted with the signal's name (SIGINT, SIGTERM, SIGHUP) to stop the request in flight. */
  signal?: AbortSignal
  /** A pause between attempts (a test's may return at once); the signal still ends it. */
  sleep?: (ms: number) => Promise<void>
  /** Told each time a read is tried again, before the wait: a person watching a long list hears of it. */
  onRetry?: (retry: Retry) => void
  /** The wall clock, epoch ms: Date.now unless a test keeps its own. */
  now?: () => number
  /** Told each time the gateway rate limits a request that goes again, before the wait: a person at a terminal hears of it. */
  onRateLimit?: RateLimitListeners['onRateLimit']
  /** Waited for before a purchase or refund the gateway rate limited goes again (a batch journals the time it leaves); a failure sends nothing. */
  beforeResend?: RateLimitListeners['beforeResend']
}

/** A read tried again: which, why, and which try comes next of how many. */
export interface Retry {
  method: string
  /** The path and query asked for. */
  path: string
  why: string
  /** The try that comes next (2 for the first retry), of `tries`. */
  next: number
  tries: number
  waitMs: number
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000
// The gateway may take 30 s to process; official libraries wait 50–60 s.
export const DEFAULT_RESPONSE_TIMEOUT_MS = 60_000

/** Records of one answer past which a list's body is read only as they are asked for: well past a page gw asks for (50), well short of what a gateway ignoring `limit` sends. */
const STREAM_AFTER = 500

/** No answer came back after the request may have reached the gateway. */
export class LostAnswer extends Error {}

/**
 * One request and its answer over HTTP (undici): Basic auth, the time-outs, the --verbose log, the
 * retries shouldRetry allows, and the mode every answer reports checked against the profile's.
 */
export class Exchange {
  readonly baseUrl: string
  /** Through a proxy or not, and why: for --verbose and for saying what could not be reached. */
  readonly route: ProxyRoute
  /** The mode the last answer reported, if it reported one: what gw login saves a profile as. */
  reportedMode?: 'sandbox' | 'live'
  /** Set once an answer came from the other environment: nothing more is sent. */
  modeMismatch?: ModeMismatchError
  /**
   * The run of the local gateway's data the last answer came from (X-Sandbox-Instance), if it
   * named one: a batch journal records it (design.md §5). The live gateway names none.
   */
  gatewayInstance?: string
  /** When the last request left (epoch ms): a lost answer's processing window counts from a time no earlier than its own. */
  lastSentAt = 0
  private readonly limits: RateLimiting
  private readonly dispatcher: LazyDispatcher
  private readonly responseTimeoutMs: number
  private readonly authorization: string
  private readonly sleep: (ms: number) => Promise<void>
  private readonly now: () => number

  constructor(private readonly options: ExchangeOptions) {
    // Every request in flight listens to the one signal: a batch keeps dozens at once, which is no leak.
    if (options.signal) setMaxListeners(0, options.signal)
    this.baseUrl = gatewayRoot(options.baseUrl)
    this.route = proxyRoute(this.baseUrl, options.proxy)
    if (options.proxy) options.log?.(this.route.kind === 'proxy' ? `* through proxy ${this.route.proxy} (${this.route.variable})` : `* no proxy: ${this.route.reason}`)
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS
    this.dispatcher = lazyDispatcher({connectTimeoutMs, keepAliveTimeoutMs: 10_000}, options.proxy)
    this.responseTimeoutMs = options.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS
    this.authorization = 'Basic ' + Buffer.from(`${options.username}:${options.token}`).toString('base64')
    // Ended early by a signal; whoever paused then finds the signal aborted and stops.
    this.sleep = options.sleep ?? ((ms) => delay(ms, undefined, {signal: options.signal}).catch(() => undefined))
    this.now = options.now ?? Date.now
    this.limits = new RateLimiting({now: this.now, sleep: this.sleep}, options, connectTimeoutMs + this.responseTimeoutMs)
  }

  /** What the gateway's rate limits have cost so far. */
  get rateLimits(): RateLimitsMet {
    return this.limits.met
  }

  /**
   * Time for a wait on the gateway (money/window.ts): the wall clock, and a pause that a signal
   * ends with InterruptedError, naming the money in flight.
   */
  clock(inFlight?: MoneyInFlight): Clock {
    const signal = this.options.signal
    return {
      now: this.now,
      sleep: async (ms) => {
        await this.sleep(ms)
        if (signal?.aborted) throw new InterruptedError(signal.reason as StopSignal, inFlight)
      },
    }
  }

  /** Ends the keep-alive sockets so a one-shot command exits as soon as its work is done. */
  close(): Promise<void> {
    return this.dispatcher.end('destroy')
  }

  /**
   * Sends once; retries only what shouldRetry allows (reads), and what the gateway rate limited
   * (rate-limiting.ts), throwing LostAnswer when no answer came, and InterruptedError (naming the
   * money in flight) when a signal stopped it. Every attempt passes the gate (gate.ts).
   */
  async send(endpoint: Endpoint, path: string, body: unknown, inFlight?: MoneyInFlight, {listing = false}: {listing?: boolean} = {}): Promise<RawResponse> {
    const signal = this.options.signal
    const url = this.baseUrl + path
    // --verbose names a stored card by its token's last four only, as every other line does.
    const shownUrl = maskCardPath(url)
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const limited: LimitedRequest = {method: endpoint.method, path, inFlight, tries: 0}
    for (let attempt = 0; ; ) {
      if (signal?.aborted) throw new InterruptedError(signal.reason as StopSignal, inFlight)
      const dispatcher = await this.dispatcher.get()
      const pass = await this.limits.pass(limited, signal)
      this.lastSentAt = this.now()
      // Timed for --verbose only: a process's first performance.now() loads perf_hooks (~1% of a gw purchase get).
      const started = this.options.log ? performance.now() : 0
      this.options.log?.(`> ${endpoint.method} ${shownUrl}${payload ? ' ' + redactText(payload) : ''}`)
      let raw: RawResponse
      let limit: RateLimit | undefined
      try {
        const response = await request(dispatcher, url, {
          method: endpoint.method,
          // Per request rather than on the agent, so they hold through a proxy's connection too.
          headersTimeout: this.responseTimeoutMs,
          bodyTimeout: this.responseTimeoutMs,
          headers: {
            authorization: this.authorization,
            ...(this.options.controlToken === undefined ? {} : {'gw-control-token': this.options.controlToken}),
            accept: 'application/json',
            'user-agent': this.options.userAgent,
            // On every write, body or not, as the vendor's libraries send it: the local gateway's controls take no other.
            ...(payload === undefined && endpoint.method === 'GET' ? {} : {'content-type': 'application/json'}),
          },
          body: payload,
          signal,
        })
        const requestId = header(response.headers['x-request-id'])
        // A list's records are read one by one, each keeping its text: one that needs no change prints as it came.
        // A list walked (not gw api's) is read as it comes: a page of 100,000 records is never held whole.
        const read = listing && response.statusCode < 300 ? await readListBody(response.body, {head: STREAM_AFTER, status: response.statusCode, requestId}) : undefined
        const text = read ? read.text : await response.body.text()
        const json = read ? read.json : endpoint.paged ? parseListBody(text) : parseBody(text)
        raw = {status: response.statusCode, requestId, text, json, mode: reportedMode(header(response.headers['x-service-mode']), json), ...(read?.more ? {more: read.more} : {})}
        limit = rateLimitOf(raw.status, {retryAfter: header(response.headers['retry-after']), date: header(response.headers.date)}, this.now())
        this.gatewayInstance = header(response.headers['x-sandbox-instance'])
      } catch (err) {
        this.limits.failed()
        if (signal?.aborted) throw new InterruptedError(signal.reason as StopSignal, inFlight)
        const failure = classifyFailure(err)
        const refusedWith = proxyRefusal(err)
        this.options.log?.(`< ${endpoint.method} ${shownUrl} failed after ${Math.round(performance.now() - started)} ms: ${describe(err)}`)
        // A proxy's refusal is retried as its status would be: a 502 may pass, a 407 will not.
        if (shouldRetry({method: endpoint.method, attempt, status: refusedWith, failure})) {
          await this.retry(endpoint, path, attempt++, refusedWith === undefined ? this.noAnswer(err) : `the proxy answered HTTP ${refusedWith}`)
          continue
        }
        if (failure === 'not_sent') throw this.notSent(err, refusedWith)
        throw new LostAnswer(describe(err))
      }
      this.options.log?.(`< ${raw.status} ${endpoint.method} ${shownUrl} ${Math.round(performance.now() - started)} ms request-id ${raw.requestId ?? '-'} ${redactText(raw.text)}`)
      const then = limit === undefined ? this.limits.answered(pass) : this.limits.limited(limited, pass, {...limit, requestId: raw.requestId})
      // An answer from the other environment stops the client first, a rate limit or not.
      this.checkMode(endpoint, raw, inFlight)
      if (then instanceof RateLimitedError) throw then
      if (then === 'again') continue
      if (!limit && shouldRetry({method: endpoint.method, attempt, status: raw.status})) {
        await this.retry(endpoint, path, attempt++, `HTTP ${raw.status}`)
        continue
      }
      return raw
    }
  }

  private async retry(endpoint: Endpoint, path: string, attempt: number, why: string): Promise<void> {
    const waitMs = backoffMs(attempt)
    this.options.onRetry?.({method: endpoint.method, path, why, next: attempt + 2, tries: MAX_RETRIES + 1, waitMs})
    await this.sleep(waitMs)
  }

  /** Why no answer came, as a person reads it: a time-out says how long was waited. */
  private noAnswer(err: unknown): string {
    const code = errorCode(err)
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `no answer within ${this.responseTimeoutMs / 1000} s`
    return describe(err)
  }

  /** The request never reached the gateway: where it stopped (the proxy, TLS, the connection), for the renderer to advise on. */
  private notSent(err: unknown, refusedWith: number | undefined): UnreachableError {
    const route = this.route
    const proxy = route.kind === 'proxy' ? {url: route.proxy, variable: route.variable} : undefined
    const facts = {baseUrl: this.baseUrl, proxy, refusedWith, certificate: isCertificateFailure(err)}
    if (proxy && refusedWith !== undefined) {
      return new UnreachableError(`The proxy ${proxy.url} (${proxy.variable}) refused to carry the request to ${this.baseUrl}: HTTP ${refusedWith}`, facts)
    }
    const through = proxy ? ` through the proxy ${proxy.url} (${proxy.variable})` : ''
    return new UnreachableError(`Could not reach the gateway at ${this.baseUrl}${through}: ${describe(err)}`, facts)
  }

  /**
   * An answer that says it came from another environment than the profile's: nothing more is
   * sent by this client. What it answered is kept with the error, as a decline's record is.
   */
  private checkMode(endpoint: Endpoint, raw: RawResponse, inFlight?: MoneyInFlight): void {
    if (raw.mode) this.reportedMode = raw.mode
    const expected = this.options.environment
    if (!expected || !raw.mode || raw.mode === expected) return
    let record: GwRecord | undefined
    try {
      const found = readRecord(endpoint, raw).record
      record = found !== null && typeof found === 'object' && !Array.isArray(found) ? found : undefined
    } catch {
      record = undefined
    }
    this.modeMismatch = new ModeMismatchError(
      `The gateway at ${this.baseUrl} answered in ${raw.mode} mode, but gw takes it for the ${expected === 'live' ? 'live gateway' : 'sandbox'}: nothing more is sent`,
      {expected, reported: raw.mode, inFlight},
      {status: raw.status, requestId: raw.requestId, record},
    )
    throw this.modeMismatch
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/**
 * Node 24 adds to a certificate error advice about a flag of its own (--use-system-ca); gw's hint
 * names what a gw user sets instead (NODE_EXTRA_CA_CERTS), so the error reads the same on every Node.
 */
const NODE_CA_ADVICE = /; if the root CA is installed locally, try running Node\.js with [^;]*$/

function describe(err: unknown): string {
  const code = (err as {code?: string})?.code
  const message = (err instanceof Error ? err.message : String(err)).replace(NODE_CA_ADVICE, '')
  return code && !message.includes(code) ? `${message} (${code})` : message
}

