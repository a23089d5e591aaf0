import {InterruptedError, type MoneyInFlight, RateLimitedError, type StopSignal} from '../errors.js'
import type {HttpMethod} from './endpoints.js'
import {Gate, type GateClock, type Pass, type RateLimitsMet} from './gate.js'
import {RATE_LIMIT_BOUND_MS, RATE_LIMIT_FLOOR_MS, type RateLimit, rateLimitWait, resendsWhenLimited, spanOf} from './retry.js'

/** A request the gateway rate limited, and the wait before it goes again (until `endsAt`, epoch ms). */
export interface RateLimitWait {
  method: string
  path: string
  status: number
  waitMs: number
  endsAt: number
}

/** Who hears of the waits: --verbose's log, a person at a terminal, and a batch journal before a purchase goes again (a failure sends nothing). */
export interface RateLimitListeners {
  log?: (line: string) => void
  onRateLimit?: (wait: RateLimitWait) => void
  beforeResend?: (inFlight: MoneyInFlight) => Promise<void>
}

/** One request through the limits: what it is, and how it has been limited so far (since when, epoch ms, and how many times). */
export interface LimitedRequest {
  method: HttpMethod
  path: string
  /** The purchase or refund it sends or looks up, if any. */
  inFlight?: MoneyInFlight
  since?: number
  tries: number
}

/**
 * How a client keeps to the gateway's rate limits (design.md §5): every attempt passes one gate
 * (gate.ts), and an answer that asks gw to wait is waited out and tried again, within the bound
 * (retry.ts); past it, RateLimitedError: the request was not processed, nothing was made.
 */
export class RateLimiting {
  private readonly gate: Gate

  /** `answersWithinMs`: the longest a request waits for its answer once it leaves (the gate's). */
  constructor(
    private readonly clock: GateClock,
    private readonly listeners: RateLimitListeners,
    answersWithinMs: number,
  ) {
    this.gate = new Gate(clock, answersWithinMs)
  }

  /** What the gateway's rate limits have cost so far. */
  get met(): RateLimitsMet {
    return this.gate.met
  }

  /**
   * Waits for the request's turn. Not sent: a signal stopped it (InterruptedError), or the gateway
   * asks a longer wait than gw allows it (RateLimitedError). A purchase going again waits for
   * beforeResend first: a journal that holds it learns the time it leaves now.
   */
  async pass(request: LimitedRequest, signal?: AbortSignal): Promise<Pass> {
    const pass = await this.gate.enter(RATE_LIMIT_BOUND_MS, signal)
    if ('stopped' in pass) throw new InterruptedError(signal!.reason as StopSignal, request.inFlight)
    if ('waitMs' in pass) throw this.notMade(request, {status: 429, retryAfterMs: pass.waitMs})
    if (request.tries > 0 && request.inFlight && request.method !== 'GET') {
      try {
        await this.listeners.beforeResend?.(request.inFlight)
      } catch (err) {
        this.gate.failed()
        throw err
      }
    }
    return pass
  }

  /** Any answer but a rate limit: it is the answer. */
  answered(pass: Pass): 'answer' {
    this.gate.answered(pass)
    return 'answer'
  }

  /** No answer came. */
  failed(): void {
    this.gate.failed()
  }

  /**
   * A rate-limited answer: the gate holds every request for the wait, and `again` when this one
   * goes again after it. `answer` for a purchase answered 503, returned for what it is (a 5xx to
   * money is looked up by its reference: it says nothing of whether the money moved). Past the
   * bound, the RateLimitedError to throw: nothing was made.
   */
  limited(request: LimitedRequest, pass: Pass, limit: RateLimit & {requestId?: string}): 'again' | 'answer' | RateLimitedError {
    const now = this.clock.now()
    request.since ??= now
    const resends = resendsWhenLimited(request.method, limit.status)
    const waitMs = resends ? rateLimitWait({retryAfterMs: limit.retryAfterMs, tries: request.tries++, limitedForMs: now - request.since}) : undefined
    // The gateway's word holds for every request, whether or not this one goes again.
    this.gate.limitedFor(pass, waitMs ?? limit.retryAfterMs ?? RATE_LIMIT_FLOOR_MS)
    if (!resends) return 'answer'
    if (waitMs === undefined) return this.notMade(request, limit)
    this.listeners.log?.(`* rate limited by the gateway (HTTP ${limit.status}${limit.retryAfterMs === undefined ? ', no Retry-After' : ''}): trying again in ${(waitMs / 1000).toFixed(1)} s`)
    this.listeners.onRateLimit?.({method: request.method, path: request.path, status: limit.status, waitMs, endsAt: now + waitMs})
    return 'again'
  }

  /** The request the gateway kept rate limiting past the bound: it was not processed. */
  private notMade({since, inFlight}: LimitedRequest, limit: RateLimit & {requestId?: string}): RateLimitedError {
    // Whole seconds waited: a request refused at once has waited none.
    const waited = since === undefined ? 0 : Math.floor((this.clock.now() - since) / 1000) * 1000
    const bound = `${RATE_LIMIT_BOUND_MS / 1000} s`
    const asked = limit.retryAfterMs === undefined ? undefined : spanOf(limit.retryAfterMs)
    let told: string
    if (waited === 0) told = `Rate limited by the gateway: it asks gw to wait ${asked ?? 'a while'}, longer than the ${bound} gw waits`
    else told = `Rate limited by the gateway for ${spanOf(waited)}${asked === undefined ? ', past' : `, and it asks gw to wait ${asked} more: past`} the ${bound} gw waits`
    if (inFlight) told += inFlight.action ? `; the ${inFlight.action} of ${inFlight.noun} ${inFlight.reference} was not made` : `; the ${inFlight.noun} with reference ${inFlight.reference} was not made`
    return new RateLimitedError(told, {retryAfterMs: limit.retryAfterMs, notMade: inFlight}, {status: limit.status, requestId: limit.requestId})
  }
}
