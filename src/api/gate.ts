/** Time as the gate keeps it: epoch ms, and a pause (a test's clock may be simulated). */
export interface GateClock {
  now(): number
  sleep(ms: number): Promise<void>
}

/** What the gateway's rate limits cost a client so far: for a batch's summary. */
export interface RateLimitsMet {
  /** Answers that asked gw to wait (429, or 503 with Retry-After). */
  limited: number
  /** Time nothing was sent because the gateway said wait, in all (waits that overlap counted once). */
  waitedMs: number
  /** The requests a second gw paces itself to since the gateway first limited it; none while it has not had to. */
  pacedPerSecond?: number
}

/** A request let through the gate: when it left. */
export interface Pass {
  sentAt: number
}

/** A request the gate did not let through: stopped by a signal, or the gateway asks a longer wait than the request may still wait. */
export type Held = {stopped: true} | {waitMs: number}

/** What a rate is measured over: the live gateway counts requests a second (the local one, a sliding second). */
const WINDOW_MS = 1000
/** After a 429, gw paces itself to this much of what the gateway took in the second before it. */
export const CUT = 0.9
/** Up to this much of that, the pace climbs back quickly; past it, slowly (CREEP). */
export const NEAR = 0.97
/** Each second of answers below NEAR, the pace grows by a tenth. */
const RISE = 1.1
/** Each second of answers past NEAR, it grows by a fifth of a percent: a raised limit is found in time, one held is met rarely. */
const CREEP = 1.002

/** The pace after a second of answers: back to just under the rate the gateway last refused, quickly; past it, slowly. */
export function raisedPace(perSecond: number, ceiling: number): number {
  return perSecond < NEAR * ceiling ? Math.min(NEAR * ceiling, perSecond * RISE) : perSecond * CREEP
}

/**
 * The pace after a 429: CUT of what the gateway took in the second before (`took`, the answers to
 * requests sent in it), or of the pace itself when nothing was taken; none without either (a
 * first request refused: the wait it asked is all there is to go by).
 */
export function cutPace(took: number, perSecond: number | undefined): {perSecond: number; ceiling: number} | undefined {
  const ceiling = took > 0 ? took : perSecond
  return ceiling === undefined ? undefined : {perSecond: Math.max(1, ceiling * CUT), ceiling}
}

/**
 * The one way out for every request of a client (design.md §5, rate limits). Open until the
 * gateway first asks gw to wait; from then on it holds every request while the gateway says wait,
 * keeps fewer in flight (half as many as at the 429, one more after each round of answers, open
 * again past the most it ever had, so never above what the command was given), and paces them by
 * rate: on loopback one request at a time can pass a limit, so fewer in flight alone cannot keep
 * to one. A batch's rows, a list's pages read ahead and many look-ups all slow down together.
 */
export class Gate {
  private inFlight = 0
  private peak = 0
  private cap = Infinity
  private answeredAtCap = 0
  private perSecond?: number
  private ceiling = 0
  private raisedAt = 0
  /** The next request's turn at the pace, on the pace's clock: the wall clock less `shift`. */
  private nextTurn = 0
  /** How far turns have moved on for requests that left late. */
  private shift = 0
  /** Nothing leaves before this: the gateway said wait. */
  private pausedUntil = 0
  /** Since when, in one wait or several that overlap. */
  private pausedFrom = 0
  /** The waits over before that one. */
  private waitedBeforeMs = 0
  /** When the first request left: answers over less than a second since tell only part of what the gateway took. */
  private firstSentAt?: number
  /** When gw last slowed down: a 429 to a request sent before it, or in the same millisecond, says nothing of the pace since. */
  private cutAt = Number.NEGATIVE_INFINITY
  private readonly queue: (() => void)[] = []
  /**
   * When each request answered (a rate limit aside) left, from `takenFrom` on: what the gateway
   * took. Those before are over a second older than any request whose 429 may still come.
   */
  // Stryker disable next-line ArrayDeclaration: a first entry that is no time is never counted, and never forgotten: memory alone.
  private taken: number[] = []
  private takenFrom = 0
  private limited = 0

  /** `answersWithinMs`: the longest a request waits for its answer once it leaves (to connect, then for its headers). */
  constructor(
    private readonly clock: GateClock,
    private readonly answersWithinMs: number,
  ) {}

  /** What the gateway's limits cost so far. */
  get met(): RateLimitsMet {
    // A wait asked and not waited out (past the bound: gw gave up) counts as far as it went.
    const waitedMs = this.waitedBeforeMs + Math.max(0, Math.min(this.clock.now(), this.pausedUntil) - this.pausedFrom)
    return {limited: this.limited, waitedMs, ...(this.perSecond === undefined ? {} : {pacedPerSecond: this.perSecond})}
  }

  /**
   * Waits for the request's turn. Not let through: `stopped` when `signal` stopped it first, or
   * `waitMs` when the gateway asked for a wait longer than `boundMs`, which gw does not wait: no
   * request would go before its own bound was over.
   */
  async enter(boundMs: number, signal?: AbortSignal): Promise<Pass | Held> {
    if (!(await this.slot(signal))) return {stopped: true}
    let turn = this.reserve()
    let now: number
    for (;;) {
      now = this.clock.now()
      const due = Math.max(turn + this.shift, this.pausedUntil)
      if (now >= due) {
        // Stryker disable next-line ConditionalExpression: without a pace, 1000 / undefined is NaN, past which nothing is late either: the same answer.
        const turnMs = this.perSecond === undefined ? Infinity : 1000 / this.perSecond
        // Left a turn or more late (a busy process): every later turn moves on as far, so that turns woken together never leave together.
        if (now - due >= turnMs) this.shift += now - due
        break
      }
      if (this.pausedUntil - now > boundMs) {
        this.leave()
        return {waitMs: this.pausedUntil - now}
      }
      // Its turn came while the gateway said wait: a turn after the wait instead.
      if (now >= turn + this.shift) turn = this.reserve()
      await this.clock.sleep(Math.max(turn + this.shift, this.pausedUntil) - now)
      if (signal?.aborted) {
        this.leave()
        return {stopped: true}
      }
    }
    this.peak = Math.max(this.peak, this.inFlight)
    this.firstSentAt ??= now
    return {sentAt: now}
  }

  /** Any answer but a rate limit: what the gateway took, and a step back up towards the pace and the requests in flight it had. */
  answered(pass: Pass): void {
    const now = this.clock.now()
    this.leave()
    this.taken.push(pass.sentAt)
    // Stryker disable next-line CallExpression: memory alone (forgetTaken).
    this.forgetTaken(now)
    if (++this.answeredAtCap >= this.cap) {
      this.answeredAtCap = 0
      this.cap = this.cap + 1 > this.peak ? Infinity : this.cap + 1
      this.drain()
    }
    if (this.perSecond !== undefined && now - this.raisedAt >= WINDOW_MS) {
      this.raisedAt = now
      this.perSecond = raisedPace(this.perSecond, this.ceiling)
    }
  }

  /** No answer came (a network failure): nothing learned of the limit. */
  failed(): void {
    this.leave()
  }

  /**
   * The gateway asked to wait `waitMs`: nothing is sent until then; and, the first time for the
   * requests sent at the pace in force, fewer in flight and a slower pace.
   */
  limitedFor(pass: Pass, waitMs: number): void {
    const now = this.clock.now()
    this.limited++
    // The wait under way counted as far as it went; it goes on from now, as long as the longer of the two asks.
    this.waitedBeforeMs += Math.min(now, this.pausedUntil) - this.pausedFrom
    this.pausedFrom = now
    this.pausedUntil = Math.max(this.pausedUntil, now + waitMs)
    if (pass.sentAt > this.cutAt) {
      this.cutAt = now
      this.cap = Math.max(1, Math.ceil(this.inFlight / 2))
      this.answeredAtCap = 0
      // What the gateway took in the second before it took no more: the answered requests sent in the second before this one.
      // gw began under a second before: the rest of that second's requests were others' (another
      // gw, the merchant's own systems), unseen, so what gw saw taken says nothing of the limit.
      // The wait and fewer in flight are all there is to go by, until a whole second of gw's own.
      const whole = pass.sentAt - WINDOW_MS >= this.firstSentAt!
      const cut = whole ? cutPace(this.taken.filter((sentAt) => sentAt >= pass.sentAt - WINDOW_MS && sentAt < pass.sentAt).length, this.perSecond) : undefined
      if (cut) {
        ;({perSecond: this.perSecond, ceiling: this.ceiling} = cut)
        // A second of answers counts from the end of the wait.
        this.raisedAt = this.pausedUntil
      }
    }
    this.leave()
  }

  /** A place among the requests in flight: at once while there is room, else in turn (false: stopped while it waited). */
  private slot(signal?: AbortSignal): boolean | Promise<boolean> {
    // Room is given to those waiting as soon as there is any (drain): a request that finds room finds none waiting.
    if (this.inFlight < this.cap) {
      this.inFlight++
      return true
    }
    return new Promise<boolean>((resolve) => {
      const stop = () => {
        this.queue.splice(this.queue.indexOf(go), 1)
        resolve(false)
      }
      const go = () => {
        signal?.removeEventListener('abort', stop)
        resolve(true)
      }
      this.queue.push(go)
      signal?.addEventListener('abort', stop)
    })
  }

  /** The request's turn (on the pace's clock), at the pace and after any wait, and the next one's. */
  private reserve(): number {
    const turn = Math.max(this.clock.now(), this.pausedUntil) - this.shift
    const at = Math.max(turn, this.nextTurn)
    if (this.perSecond !== undefined) this.nextTurn = at + 1000 / this.perSecond
    return at
  }

  /**
   * Answers to requests sent over a second before the oldest that may still be answered 429 are
   * never counted again: memory alone, dropped in amortised constant time (shift() copies a long array).
   */
  // Stryker disable all: memory alone; what is kept past this point is outside every second counted.
  private forgetTaken(now: number): void {
    const before = now - this.answersWithinMs - WINDOW_MS
    while (this.taken[this.takenFrom]! < before) this.takenFrom++
    if (this.takenFrom > this.taken.length / 2) {
      this.taken = this.taken.slice(this.takenFrom)
      this.takenFrom = 0
    }
    // Stryker restore all
  }

  private leave(): void {
    this.inFlight--
    this.drain()
  }

  private drain(): void {
    while (this.queue.length > 0 && this.inFlight < this.cap) {
      this.inFlight++
      this.queue.shift()!()
    }
  }
}
