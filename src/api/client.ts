import * as z from 'zod'
import {DeclinedError, GwError, type MoneyInFlight, NoAnswerError, UsageError} from '../errors.js'
import {type Decided, decideAnswer} from '../money/decide.js'
import {failureOf} from '../money/failure.js'
import {buildPath, type Endpoint, endpointAt, type HttpMethod, paramsAt, type RequestFacts} from './endpoints.js'
import {Exchange, type ExchangeOptions, LostAnswer, type RateLimitWait, type Retry} from './exchange.js'
import type {RateLimitsMet} from './gate.js'
import {type ListPage, readPaging} from './paging.js'
import type {LocalGatewaySays} from './local-gateway.js'
import {type Calendar, fromWallTime, MACHINE_CALENDAR, wallTime} from '../lib/calendar.js'
import {doubtAbout, type LostRequest, recover, type RecoveryEvent} from './recovery.js'
import {PROCESSING_WINDOW_MS} from '../money/window.js'
import {type Resources, resources, type Sender, type SendOptions} from './resources.js'
import {type Answer, type RawResponse, readRecord} from './responses.js'
import {redactText} from '../safety/redact.js'
import type {GwRecord} from './schemas/record.js'

export type {RecoveryEvent} from './recovery.js'
export type {RateLimitWait, Retry} from './exchange.js'
export type {RateLimitsMet} from './gate.js'
export type {ListQuery} from './resources.js'

export interface ClientOptions extends ExchangeOptions {
  /** Told each step of a recovery (a lost answer looked up by reference), for the user to hear of it. */
  onRecovery?: (event: RecoveryEvent) => void
  /** How long after a purchase or refund left a 404 for it still means "not yet" (money/window.ts): when given, whatever the gateway says. */
  processingWindowMs?: number
  /** The keys of the local gateways gw started (their runtime files): one that proves it holds one is believed about its window and its today (local-gateway.ts). */
  localGatewayKeys?: () => Promise<readonly string[]>
  /**
   * Called before each request is sent, with its endpoint's safety facts: where a read-only
   * profile refuses a write and a live one asks for confirmation, whoever sends the request.
   */
  guard?: (facts: RequestFacts, request: {params: Record<string, string>; body: unknown}) => Promise<void>
}

/** Now as the gateway dates its records, and the calendar its days are read in (Client.gatewayTime). */
export interface GatewayTime {
  now: Date
  calendar: Calendar
}

type ItemOf<List> = NonNullable<List> extends readonly (infer Item)[] ? Item : never

/** The gateway's answer to a request, or, when the answer to money was lost, what its look-up found. */
/** An answer as delivered: `read`, its record as read already (a money answer's, checked for doubt). */
type Delivered = {raw: RawResponse; read?: Answer<z.ZodType>; recovered?: undefined} | {recovered: Answer<z.ZodType>}

/** A body as the gateway sent it (`gw api`), and the failure it stands for, if it is one. */
export interface RawAnswer extends RawResponse {
  error?: GwError
  /** What a purchase or refund sent came to, as the answer (or the look-up after a lost one) says: for gw to record the refunds it made. */
  decided?: Decided
}

/**
 * The gateway's client: every request passes the guard, is sent once (reads retried, exchange.ts),
 * and a lost answer to money is recovered by its reference (recovery.ts). Its resource methods,
 * `client.purchases.get(id)`, are made from the endpoint table (resources.ts).
 */
class Client implements Sender {
  /** The purchase or refund being sent or looked up now, so an interruption can say what to check. */
  inFlight?: MoneyInFlight
  private readonly exchange: Exchange
  private readonly retryWatchers = new Set<(retry: Retry) => void>()
  private readonly limitWatchers = new Set<(wait: RateLimitWait) => void>()
  private readonly resendHooks = new Set<(inFlight: MoneyInFlight) => Promise<void>>()
  private asked?: Promise<LocalGatewaySays | undefined>

  constructor(private readonly options: ClientOptions) {
    this.exchange = new Exchange({
      ...options,
      onRetry: (retry) => {
        options.onRetry?.(retry)
        for (const watcher of this.retryWatchers) watcher(retry)
      },
      onRateLimit: (wait) => {
        if (this.limitWatchers.size === 0) options.onRateLimit?.(wait)
        for (const watcher of this.limitWatchers) watcher(wait)
      },
      beforeResend: async (inFlight) => {
        await options.beforeResend?.(inFlight)
        for (const hook of this.resendHooks) await hook(inFlight)
      },
    })
    Object.assign(this, resources(this))
  }

  /** Tells `watcher` of every read tried again until the function returned is called (a long list's progress names them). */
  watchRetries(watcher: (retry: Retry) => void): () => void {
    this.retryWatchers.add(watcher)
    return () => this.retryWatchers.delete(watcher)
  }

  /**
   * Tells `watcher` of every wait the gateway's rate limit asks, until the function returned is
   * called: told in place of the client's own listener (onRateLimit), so that a batch's or a
   * list's progress line says it, and no second line is drawn beside it.
   */
  watchRateLimits(watcher: (wait: RateLimitWait) => void): () => void {
    this.limitWatchers.add(watcher)
    return () => this.limitWatchers.delete(watcher)
  }

  /** Waits for `hook` before a purchase or refund the gateway rate limited goes again (a batch journals when it leaves), until the function returned is called. */
  beforeResend(hook: (inFlight: MoneyInFlight) => Promise<void>): () => void {
    this.resendHooks.add(hook)
    return () => this.resendHooks.delete(hook)
  }

  /** When the last request left (epoch ms): a lost answer's processing window counts from no earlier (a request rate limited goes again later). */
  get lastSentAt(): number {
    return this.exchange.lastSentAt
  }

  /** What the gateway's rate limits have cost so far: for a batch's summary. */
  get rateLimits(): RateLimitsMet {
    return this.exchange.rateLimits
  }

  get baseUrl(): string {
    return this.exchange.baseUrl
  }

  /**
   * design.md §5's processing window, for a batch's rows in doubt as for a lost answer here: the
   * one gw's own local gateway says, proven (local-gateway.ts), else the live gateway's minute.
   */
  async processingWindow(): Promise<number> {
    return this.options.processingWindowMs ?? (await this.localGateway())?.processingWindowMs ?? PROCESSING_WINDOW_MS
  }

  /**
   * Now as the gateway dates its records, and the calendar its days are read in, for named days
   * (today, monday) and a report's days: on gw's own local gateway, its today (its clock may have
   * been moved on) at the time of day its clocks show, in its time zone; elsewhere this machine's
   * now and calendar.
   */
  async gatewayTime(): Promise<GatewayTime> {
    const now = new Date(this.exchange.clock().now())
    const said = await this.localGateway()
    const today = /^(\d{4})-(\d{2})-(\d{2})$/.exec(said?.today ?? '')
    if (!today) return {now, calendar: MACHINE_CALENDAR}
    const calendar = said?.calendar ?? MACHINE_CALENDAR
    const {hour, minute, second, millisecond} = wallTime(calendar, now)
    return {now: fromWallTime(calendar, Number(today[1]), Number(today[2]) - 1, Number(today[3]), hour, minute, second, millisecond), calendar}
  }

  /** What the gateway says of itself, asked once, and only of a local gateway gw started. */
  private localGateway(): Promise<LocalGatewaySays | undefined> {
    const keys = this.options.localGatewayKeys
    this.asked ??= keys ? import('./local-gateway.js').then(({askLocalGateway}) => askLocalGateway(this.exchange, keys)) : Promise.resolve(undefined)
    return this.asked
  }

  /** Time for a wait on the gateway, ended by a signal naming what is in flight (a follow-up's processing window). */
  clock(inFlight?: MoneyInFlight): ReturnType<Exchange['clock']> {
    return this.exchange.clock(inFlight)
  }

  /** Tells the user's listener a step of a recovery made outside the client: a payment plan's or direct debit's (operations/made-once.ts). */
  tellRecovery(event: RecoveryEvent): void {
    this.options.onRecovery?.(event)
  }

  /** Through a proxy or not, and why: for --verbose and for saying what could not be reached. */
  get route(): Exchange['route'] {
    return this.exchange.route
  }

  /** The mode the last answer reported, if it reported one: what gw login saves a profile as. */
  get reportedMode(): 'sandbox' | 'live' | undefined {
    return this.exchange.reportedMode
  }

  /** The run of the local gateway's data the last answer came from (X-Sandbox-Instance); undefined from a gateway that names none. */
  get gatewayInstance(): string | undefined {
    return this.exchange.gatewayInstance
  }

  /** Ends the keep-alive sockets so a one-shot command exits as soon as its work is done. */
  close(): Promise<void> {
    return this.exchange.close()
  }

  async send<Res extends z.ZodType>(endpoint: Endpoint<Res>, options: SendOptions = {}): Promise<z.infer<Res> & GwRecord> {
    return (await this.answer(endpoint, options)).record
  }

  /** A list endpoint: its records (an empty list for a null response) and where the page sits. */
  async sendList<Res extends z.ZodType>(endpoint: Endpoint<Res>, options: SendOptions = {}): Promise<ListPage<ItemOf<z.infer<Res>>>> {
    const {record, envelope, raw} = await this.answer(endpoint, options, {listing: true})
    return {records: (record ?? []) as ItemOf<z.infer<Res>>[], paging: readPaging(envelope), ...(raw.more ? {more: raw.more as AsyncGenerator<ItemOf<z.infer<Res>>[]>} : {})}
  }

  /** The whole answer: the record, its envelope, and the status and request id a decline is reported with. */
  async answer<Res extends z.ZodType>(endpoint: Endpoint<Res>, options: SendOptions = {}, read: {listing?: boolean} = {}): Promise<Answer<Res>> {
    const body = endpoint.body && options.body !== undefined ? checkedBody(endpoint.body, options.body) : options.body
    const path = buildPath(endpoint.path, options.params) + queryString(options.query)
    const delivered = await this.deliver(endpoint, path, body, options.params ?? {}, read)
    return delivered.recovered ? (delivered.recovered as Answer<Res>) : ((delivered.read as Answer<Res> | undefined) ?? readRecord(endpoint, delivered.raw))
  }

  /**
   * `gw api`: a request written by hand, with the safety facts of its endpoint in the table, or,
   * for a path not in it, those of a write unless it is a GET. The body is sent as given and the
   * gateway's answer comes back as it was sent, with the error it stands for (a decline's too);
   * a money answer that was lost comes back as the look-up of its reference found it.
   */
  async sendRaw(method: HttpMethod, path: string, body?: unknown): Promise<RawAnswer> {
    const known = endpointAt(method, path, body)
    const endpoint: Endpoint = known ?? {method, path, response: z.unknown()}
    const delivered = await this.deliver(endpoint, path, body, known ? paramsAt(known, path) : {})
    const {raw, record} = delivered.recovered ?? {raw: delivered.raw, record: delivered.read?.record}
    try {
      const money = endpoint.movesMoney
      const found = record ?? readRecord(endpoint, raw).record
      if (!money) return raw
      const decided = decideAnswer(money.noun, found)
      const failure = failureOf(decided, {sent: (body ?? {}) as GwRecord, status: raw.status, requestId: raw.requestId})
      // The body is printed as it came: a decline's record must not print a second time.
      if (failure instanceof DeclinedError) return {...raw, decided, error: new DeclinedError(failure.message, {status: failure.status, requestId: failure.requestId, messages: failure.messages})}
      return failure ? {...raw, decided, error: failure} : {...raw, decided}
    } catch (err) {
      if (!(err instanceof GwError)) throw err
      return {...raw, error: err}
    }
  }

  /** Through the guard, sent once (reads retried), and a lost answer to money recovered by its reference. */
  private async deliver(endpoint: Endpoint, path: string, body: unknown, params: Record<string, string>, read: {listing?: boolean} = {}): Promise<Delivered> {
    if (this.exchange.modeMismatch) throw this.exchange.modeMismatch
    await this.options.guard?.(endpoint, {params, body})
    const money = endpoint.movesMoney
    const reference = money && typeof (body as {reference?: unknown})?.reference === 'string' ? (body as {reference: string}).reference : undefined
    const recoverable = money && reference !== undefined ? {noun: money.noun, reference} : undefined
    // A capture or void in flight is waited for on a first Ctrl-C as a purchase is, named by its id.
    const target = endpoint.followsUp && (params.id ?? (body as {id?: unknown} | undefined)?.id)
    const inFlight = recoverable ?? (endpoint.followsUp && typeof target === 'string' ? {noun: endpoint.followsUp.noun, reference: target, action: endpoint.followsUp.action} : undefined)
    this.inFlight = inFlight
    // The processing window counts from when the request last left (a POST the gateway rate limited goes again), or later: the last request any sent.
    const lost = (why: string): LostRequest => ({sent: body as GwRecord, inFlight: recoverable!, why, sentAt: this.exchange.lastSentAt, windowMs: () => this.processingWindow()})
    try {
      const raw = await this.exchange.send(endpoint, path, body, inFlight, read)
      if (!recoverable) return {raw}
      const judged = doubtAbout(endpoint, raw)
      if ('doubt' in judged) return {recovered: await recover(this.exchange, endpoint, lost(judged.doubt), this.options.onRecovery)}
      return {raw, read: judged.read}
    } catch (err) {
      if (err instanceof LostAnswer) {
        if (recoverable) return {recovered: await recover(this.exchange, endpoint, lost(err.message), this.options.onRecovery)}
        throw new NoAnswerError(`No answer from ${this.baseUrl}: ${err.message}`)
      }
      throw err
    } finally {
      this.inFlight = undefined
    }
  }
}

export type GatewayClient = Client & Resources
export const GatewayClient = Client as new (options: ClientOptions) => GatewayClient

function queryString(query: SendOptions['query']): string {
  if (!query) return ''
  const pairs = Object.entries(query).filter((pair): pair is [string, string | number] => pair[1] !== undefined)
  return pairs.length === 0 ? '' : '?' + new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, String(v)])).toString()
}

/**
 * A request body held to its endpoint's schema before anything is sent: what fails is named by
 * its field, in the rule's own words, and nothing leaves (exit 2), never a bare schema error.
 */
function checkedBody(schema: z.ZodType, body: unknown): unknown {
  const checked = schema.safeParse(body)
  if (checked.success) return checked.data
  const issue = checked.error.issues[0]!
  const field = issue.path.join('.')
  const named = field === '' || issue.message.includes(String(issue.path.at(-1)))
  throw new UsageError(`${named ? '' : `${field} `}${redactText(issue.message)}: nothing was sent`)
}
