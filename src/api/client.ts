import {setMaxListeners} from 'node:events'
import * as z from 'zod'
import {
  DeclinedError,
  GatewayError,
  GwError,
  InterruptedError,
  ModeMismatchError,
  type MoneyInFlight,
  NoAnswerError,
  OutcomeUnknownError,
  type StopSignal,
  UnreachableError,
} from '../errors.js'
import {decideAnswer, outcomeOf} from '../money/decide.js'
import {failureOf} from '../money/failure.js'
import {type Lookups, verifyFound} from '../money/find.js'
import {redactText} from '../redact.js'
import {buildPath, type Endpoint, endpointAt, endpoints, type HttpMethod, paramsAt, type RequestFacts} from './endpoints.js'
import {type ListPage, readPaging} from './paging.js'
import {type Answer, parseBody, type RawResponse, readRecord, reportedMode} from './responses.js'
import {type ProxyRoute, proxyRoute, type ProxySettings} from './proxy.js'
import {sandboxControl} from './sandbox.js'
import {backoffMs, classifyFailure, isCertificateFailure, proxyRefusal, shouldRetry} from './retry.js'
import {type LazyDispatcher, lazyDispatcher, request} from './transport.js'

export interface ClientOptions {
  baseUrl: string
  username: string
  token: string
  userAgent: string
  connectTimeoutMs?: number
  responseTimeoutMs?: number
  /** HTTP_PROXY, HTTPS_PROXY and NO_PROXY as read from the environment; none when undefined. */
  proxy?: ProxySettings
  /** Receives one line per request and response with --verbose; secrets already redacted. */
  log?: (line: string) => void
  /** Told each step of a recovery (a lost answer looked up by reference), for the user to hear of it. */
  onRecovery?: (event: RecoveryEvent) => void
  /**
   * Called before each request is sent, with its endpoint's safety facts: where a read-only
   * profile refuses a write and a live one asks for confirmation, whoever sends the request.
   */
  guard?: (facts: RequestFacts, request: {params: Record<string, string>; body: unknown}) => Promise<void>
  /**
   * The environment the profile says the gateway is (design.md §6): every answer's reported mode
   * is checked against it, and a mismatch stops the client before it sends anything more.
   */
  environment?: 'sandbox' | 'live'
  /** Aborted with the signal's name (SIGINT, SIGTERM, SIGHUP) to stop the request in flight. */
  signal?: AbortSignal
  sleep?: (ms: number) => Promise<void>
}

/** What a recovery did: started looking a reference up after a lost answer, or found the record. */
export interface RecoveryEvent extends MoneyInFlight {
  step: 'looking_up' | 'found'
  /** Why the answer was lost: a reset, a time-out, a proxy's 502. */
  why: string
}

export interface SendOptions {
  params?: Record<string, string>
  body?: unknown
  query?: Record<string, string | number | undefined>
}

/** Which records of a list to ask for (the gateway's names for them, gateway-notes.md), and within which days. */
export interface ListQuery {
  offset: number
  limit: number
  /** The same place as a page number, for a gateway that pages by page and per_page. */
  page?: number
  from?: string
  to?: string
}

type GwRecord = Record<string, unknown>

type ItemOf<List> = NonNullable<List> extends readonly (infer Item)[] ? Item : never

/** The gateway's answer to a request, or, when the answer to money was lost, what its look-up found. */
type Delivered = {raw: RawResponse; recovered?: undefined} | {recovered: Answer<z.ZodType>}

/** A body as the gateway sent it (`gw api`), and the failure it stands for, if it is one. */
export interface RawAnswer extends RawResponse {
  error?: GwError
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000
// The gateway may take 30 s to process; official libraries wait 50–60 s.
export const DEFAULT_RESPONSE_TIMEOUT_MS = 60_000

export class GatewayClient {
  readonly baseUrl: string
  /** Through a proxy or not, and why: for --verbose and for saying what could not be reached. */
  readonly route: ProxyRoute
  /** The purchase or refund being sent or looked up now, so an interruption can say what to check. */
  inFlight?: MoneyInFlight
  /** The mode the last answer reported, if it reported one: what gw login saves a profile as. */
  reportedMode?: 'sandbox' | 'live'
  private modeMismatch?: ModeMismatchError
  private readonly dispatcher: LazyDispatcher
  private readonly responseTimeoutMs: number
  private readonly authorization: string
  private readonly sleep: (ms: number) => Promise<void>

  readonly cards = {
    tokenize: (body: z.infer<typeof endpoints.cards.tokenize.body>) => this.send(endpoints.cards.tokenize, {body}),
    get: (token: string) => this.send(endpoints.cards.get, {params: {token}}),
    list: (query: ListQuery) => this.sendList(endpoints.cards.list, {query: listQuery(query)}),
    update: (token: string, body: z.infer<typeof endpoints.cards.update.body>) =>
      this.send(endpoints.cards.update, {params: {token}, body}),
  }

  /** A purchase or refund comes back as the whole answer: its record, and the status and request id a decline is reported with. */
  readonly purchases = {
    create: (body: z.infer<typeof endpoints.purchases.create.body>) => this.dispatch(endpoints.purchases.create, {body}),
    get: (idOrReference: string) => this.send(endpoints.purchases.get, {params: {id: idOrReference}}),
    list: (query: ListQuery) => this.sendList(endpoints.purchases.list, {query: listQuery(query)}),
  }

  readonly refunds = {
    create: (body: z.infer<typeof endpoints.refunds.create.body>) => this.dispatch(endpoints.refunds.create, {body}),
    get: (idOrReference: string) => this.send(endpoints.refunds.get, {params: {id: idOrReference}}),
    list: (query: ListQuery) => this.sendList(endpoints.refunds.list, {query: listQuery(query)}),
  }

  readonly webHooks = {
    create: (body: z.infer<typeof endpoints.webHooks.create.body>) => this.send(endpoints.webHooks.create, {body}),
    list: (query: ListQuery) => this.sendList(endpoints.webHooks.list, {query: listQuery(query)}),
    delete: (id: string) => this.send(endpoints.webHooks.delete, {params: {id}}),
  }

  readonly plans = {
    create: (body: z.infer<typeof endpoints.plans.create.body>) => this.send(endpoints.plans.create, {body}),
    list: (query: ListQuery) => this.sendList(endpoints.plans.list, {query: listQuery(query)}),
    get: (idOrReference: string) => this.send(endpoints.plans.get, {params: {id: idOrReference}}),
    update: (id: string, body: z.infer<typeof endpoints.plans.update.body>) => this.send(endpoints.plans.update, {params: {id}, body}),
  }

  readonly customers = {
    create: (body: z.infer<typeof endpoints.customers.create.body>) => this.send(endpoints.customers.create, {body}),
    get: (idOrReference: string) => this.send(endpoints.customers.get, {params: {id: idOrReference}}),
    list: (query: ListQuery) => this.sendList(endpoints.customers.list, {query: listQuery(query)}),
    update: (id: string, body: z.infer<typeof endpoints.customers.update.body>) => this.send(endpoints.customers.update, {params: {id}, body}),
    delete: (id: string) => this.send(endpoints.customers.delete, {params: {id}}),
  }

  readonly subscriptions = {
    create: (body: z.infer<typeof endpoints.subscriptions.create.body>) => this.send(endpoints.subscriptions.create, {body}),
    get: (reference: string) => this.send(endpoints.subscriptions.get, {params: {reference}}),
    list: (query: ListQuery) => this.sendList(endpoints.subscriptions.list, {query: listQuery(query)}),
    update: (id: string, body: z.infer<typeof endpoints.subscriptions.update.body>) => this.send(endpoints.subscriptions.update, {params: {id}, body}),
  }

  readonly sandbox = sandboxControl(this)

  constructor(private readonly options: ClientOptions) {
    // Every request in flight listens to the one signal: a batch keeps dozens at once, which is no leak.
    if (options.signal) setMaxListeners(0, options.signal)
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.route = proxyRoute(this.baseUrl, options.proxy)
    if (options.proxy) options.log?.(this.route.kind === 'proxy' ? `* through proxy ${this.route.proxy} (${this.route.variable})` : `* no proxy: ${this.route.reason}`)
    this.dispatcher = lazyDispatcher({connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, keepAliveTimeoutMs: 10_000}, options.proxy)
    this.responseTimeoutMs = options.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS
    this.authorization = 'Basic ' + Buffer.from(`${options.username}:${options.token}`).toString('base64')
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  }

  /** Ends the keep-alive sockets so a one-shot command exits as soon as its work is done. */
  close(): Promise<void> {
    return this.dispatcher.end('destroy')
  }

  async send<Res extends z.ZodType>(endpoint: Endpoint<Res>, options: SendOptions = {}): Promise<z.infer<Res> & GwRecord> {
    return (await this.dispatch(endpoint, options)).record
  }

  /** A list endpoint: its records (an empty list for a null response) and where the page sits. */
  async sendList<Res extends z.ZodType>(endpoint: Endpoint<Res>, options: SendOptions = {}): Promise<ListPage<ItemOf<z.infer<Res>>>> {
    const {record, envelope} = await this.dispatch(endpoint, options)
    return {records: (record ?? []) as ItemOf<z.infer<Res>>[], paging: readPaging(envelope)}
  }

  private async dispatch<Res extends z.ZodType>(endpoint: Endpoint<Res>, options: SendOptions = {}): Promise<Answer<Res>> {
    const body = endpoint.body && options.body !== undefined ? endpoint.body.parse(options.body) : options.body
    const path = buildPath(endpoint.path, options.params) + queryString(options.query)
    const delivered = await this.deliver(endpoint, path, body, options.params ?? {})
    return delivered.recovered ? (delivered.recovered as Answer<Res>) : readRecord(endpoint, delivered.raw)
  }

  /**
   * `gw api`: a request written by hand, with the safety facts of its endpoint in the table, or,
   * for a path not in it, those of a write unless it is a GET. The body is sent as given and the
   * gateway's answer comes back as it was sent, with the error it stands for (a decline's too);
   * a money answer that was lost comes back as the look-up of its reference found it.
   */
  async sendRaw(method: HttpMethod, path: string, body?: unknown): Promise<RawAnswer> {
    const known = endpointAt(method, path)
    const endpoint: Endpoint = known ?? {method, path, response: z.unknown()}
    const delivered = await this.deliver(endpoint, path, body, known ? paramsAt(known, path) : {})
    const {raw, record} = delivered.recovered ?? {raw: delivered.raw, record: undefined}
    try {
      const money = endpoint.movesMoney
      const found = record ?? readRecord(endpoint, raw).record
      const failure = money && failureOf(decideAnswer(money.noun, found), {sent: (body ?? {}) as GwRecord, status: raw.status, requestId: raw.requestId})
      // The body is printed as it came: a decline's record must not print a second time.
      if (failure instanceof DeclinedError) return {...raw, error: new DeclinedError(failure.message, {status: failure.status, requestId: failure.requestId, messages: failure.messages})}
      return failure ? {...raw, error: failure} : raw
    } catch (err) {
      if (!(err instanceof GwError)) throw err
      return {...raw, error: err}
    }
  }

  /** Through the guard, sent once (reads retried), and a lost answer to money recovered by its reference. */
  private async deliver(endpoint: Endpoint, path: string, body: unknown, params: Record<string, string>): Promise<Delivered> {
    if (this.modeMismatch) throw this.modeMismatch
    await this.options.guard?.(endpoint, {params, body})
    const money = endpoint.movesMoney
    const reference = money && typeof (body as {reference?: unknown})?.reference === 'string' ? (body as {reference: string}).reference : undefined
    const inFlight = money && reference !== undefined ? {noun: money.noun, reference} : undefined
    this.inFlight = inFlight
    try {
      const raw = await this.exchange(endpoint, path, body, inFlight)
      if (!inFlight) return {raw}
      const doubt = doubtAbout(endpoint, raw)
      if (doubt) return {recovered: await this.recover(endpoint, body as GwRecord, inFlight, doubt)}
      return {raw}
    } catch (err) {
      if (err instanceof LostAnswer) {
        if (inFlight) return {recovered: await this.recover(endpoint, body as GwRecord, inFlight, err.message)}
        throw new NoAnswerError(`No answer from ${this.baseUrl}: ${err.message}`)
      }
      throw err
    } finally {
      this.inFlight = undefined
    }
  }

  /**
   * Sends once; retries only what shouldRetry allows (reads), throwing LostAnswer when no answer
   * came, and InterruptedError (naming the money in flight) when a signal stopped it.
   */
  private async exchange(endpoint: Endpoint, path: string, body: unknown, inFlight?: MoneyInFlight): Promise<RawResponse> {
    const signal = this.options.signal
    const url = this.baseUrl + path
    const payload = body === undefined ? undefined : JSON.stringify(body)
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new InterruptedError(signal.reason as StopSignal)
      const dispatcher = await this.dispatcher.get()
      const started = performance.now()
      this.options.log?.(`> ${endpoint.method} ${url}${payload ? ' ' + redactText(payload) : ''}`)
      let raw: RawResponse
      try {
        const response = await request(dispatcher, url, {
          method: endpoint.method,
          // Per request rather than on the agent, so they hold through a proxy's connection too.
          headersTimeout: this.responseTimeoutMs,
          bodyTimeout: this.responseTimeoutMs,
          headers: {
            authorization: this.authorization,
            accept: 'application/json',
            'user-agent': this.options.userAgent,
            ...(payload === undefined ? {} : {'content-type': 'application/json'}),
          },
          body: payload,
          signal,
        })
        const requestId = header(response.headers['x-request-id'])
        const text = await response.body.text()
        const json = parseBody(text)
        raw = {status: response.statusCode, requestId, text, json, mode: reportedMode(header(response.headers['x-service-mode']), json)}
      } catch (err) {
        if (signal?.aborted) throw new InterruptedError(signal.reason as StopSignal, inFlight)
        const failure = classifyFailure(err)
        const refusedWith = proxyRefusal(err)
        const elapsed = Math.round(performance.now() - started)
        this.options.log?.(`< ${endpoint.method} ${url} failed after ${elapsed} ms: ${describe(err)}`)
        // A proxy's refusal is retried as its status would be: a 502 may pass, a 407 will not.
        if (shouldRetry({method: endpoint.method, attempt, status: refusedWith, failure})) {
          await this.sleep(backoffMs(attempt))
          continue
        }
        if (failure === 'not_sent') throw this.notSent(err, refusedWith)
        throw new LostAnswer(describe(err))
      }
      const elapsed = Math.round(performance.now() - started)
      this.options.log?.(`< ${raw.status} ${endpoint.method} ${url} ${elapsed} ms request-id ${raw.requestId ?? '-'} ${redactText(raw.text)}`)
      this.checkMode(endpoint, raw, inFlight)
      if (shouldRetry({method: endpoint.method, attempt, status: raw.status})) {
        await this.sleep(backoffMs(attempt))
        continue
      }
      return raw
    }
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

  /**
   * design.md §5: the answer was lost or cannot be read, so ask the gateway what it has under the
   * reference, and believe it only if the money module finds it is what was sent.
   */
  private async recover<Res extends z.ZodType>(endpoint: Endpoint<Res>, sent: GwRecord, inFlight: MoneyInFlight, why: string): Promise<Answer<Res>> {
    const money = endpoint.movesMoney!
    const lookedUpBecause = `The ${inFlight.noun} was sent but no answer came back that could be read (${why})`
    this.options.onRecovery?.({step: 'looking_up', ...inFlight, why})
    let raw: RawResponse
    try {
      raw = await this.exchange(money.lookup, buildPath(money.lookup.path, {id: inFlight.reference}), undefined, inFlight)
    } catch (err) {
      if (err instanceof InterruptedError || err instanceof ModeMismatchError) throw err
      throw new OutcomeUnknownError(`${lookedUpBecause}, and looking it up failed too: ${err instanceof Error ? err.message : String(err)}`, inFlight)
    }
    if (raw.status === 404) {
      throw new OutcomeUnknownError(`${lookedUpBecause}, and the gateway has no ${inFlight.noun} with reference ${inFlight.reference} yet; it may still be processing.`, inFlight, {
        status: raw.status,
        requestId: raw.requestId,
      })
    }
    let answer: Answer<Res>
    try {
      answer = readRecord({...endpoint, response: money.lookup.response}, raw)
    } catch (err) {
      throw new OutcomeUnknownError(`${lookedUpBecause}, and its look-up gave: ${err instanceof GwError ? err.message : String(err)}`, inFlight)
    }
    const decided = await verifyFound(money.noun, sent, answer.record, this.lookups(inFlight), 'recovered')
    if (decided.outcome === 'unknown') throw failureOf(decided, {sent, lookedUpBecause, status: raw.status, requestId: raw.requestId})
    this.options.onRecovery?.({step: 'found', ...inFlight, why})
    return answer
  }

  /** What a recovery asks besides the reference, through this client's own transport, still naming the money in flight. */
  private lookups(inFlight: MoneyInFlight): Lookups {
    const read = async <Res extends z.ZodType>(endpoint: Endpoint<Res>, params: Record<string, string>) =>
      readRecord(endpoint, await this.exchange(endpoint, buildPath(endpoint.path, params), undefined, inFlight)).record
    return {
      cardToken: async (alias) => (await read(endpoints.cards.get, {token: alias})).token,
      purchase: (idOrReference) => read(endpoints.purchases.get, {id: idOrReference}),
    }
  }
}

/**
 * Why an answer to a money POST cannot be taken as its outcome, or undefined when it can (a whole
 * record, or the gateway's refusal): a 5xx may come after the charge was made, and an unreadable
 * body or a record that does not say approved or declined tells nothing about it.
 */
function doubtAbout(endpoint: Endpoint, raw: RawResponse): string | undefined {
  // 501 is the contract's refusal of invalid data, not a failure.
  if (raw.status >= 500 && raw.status !== 501) return `the gateway answered HTTP ${raw.status}`
  let record: GwRecord
  try {
    record = readRecord(endpoint, raw).record
  } catch (err) {
    if (err instanceof GatewayError) return err.message
    return undefined
  }
  if (outcomeOf(record) === undefined) return `the answer's ${endpoint.movesMoney!.noun} does not say whether it was approved (no successful or authorized field)`
  return undefined
}

/** No answer came back after the request may have reached the gateway. */
class LostAnswer extends Error {}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** A page asked for by offset and limit, and by page and per_page alike, so either way of paging reads it. */
function listQuery({offset, limit, page, from, to}: ListQuery): SendOptions['query'] {
  return {offset, limit, ...(page === undefined ? {} : {page, per_page: limit}), from, to}
}

function queryString(query: SendOptions['query']): string {
  if (!query) return ''
  const pairs = Object.entries(query).filter((pair): pair is [string, string | number] => pair[1] !== undefined)
  return pairs.length === 0 ? '' : '?' + new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, String(v)])).toString()
}

function describe(err: unknown): string {
  const code = (err as {code?: string})?.code
  const message = err instanceof Error ? err.message : String(err)
  return code && !message.includes(code) ? `${message} (${code})` : message
}
