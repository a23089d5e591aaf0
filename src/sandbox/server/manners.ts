/**
 * The live gateway's manners, which the local gateway takes on when asked (gw sandbox start
 * --rate-limit, --latency): a limit on each merchant's requests a second, and answers that come
 * back late, as over a network. Pure parts here; the HTTP edge (http.ts) applies them.
 */

/** How long a window the limit counts over. */
const WINDOW_MS = 1000

/** A latency's answers come back within this part of it either way: uniform, so that they do not arrive in step. */
const JITTER = 0.25

/**
 * At most `perSecond` requests of one merchant in any one second, over a sliding window: a
 * request is let in when the merchant has had fewer than that in the second before it. Only the
 * requests let in count, so a client that backs off gets back in. Each merchant keeps the times of
 * its latest `perSecond` requests let in, oldest first, in a ring.
 */
export class RateLimit {
  private readonly admitted = new Map<string, {times: number[]; oldest: number}>()

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Lets the request in (undefined), or says how many ms until the merchant may send one again. */
  admit(merchant: string): number | undefined {
    const now = this.now()
    let ring = this.admitted.get(merchant)
    if (!ring) this.admitted.set(merchant, (ring = {times: [], oldest: 0}))
    if (ring.times.length < this.perSecond) {
      ring.times.push(now)
      return undefined
    }
    // The ring is full: the oldest of the latest perSecond must have left the window.
    const oldest = ring.times[ring.oldest]!
    const waitMs = oldest + WINDOW_MS - now
    // One that left exactly a second ago still counts: no second, ends included, holds more than perSecond.
    if (waitMs >= 0) return waitMs
    ring.times[ring.oldest] = now
    ring.oldest = (ring.oldest + 1) % this.perSecond
    return undefined
  }
}

/** `Retry-After` in whole seconds, rounded up, at least 1: a client that waits that long is let in. */
export const retryAfterSeconds = (waitMs: number): number => Math.max(1, Math.ceil(waitMs / 1000))

/** One answer's delay: `latencyMs`, give or take a quarter, uniformly. */
export const jittered = (latencyMs: number, random: () => number = Math.random): number => latencyMs * (1 - JITTER + 2 * JITTER * random())

/** The longest an answer is delayed: what the latency adds to the processing window (server.ts). */
export const longestLatencyMs = (latencyMs: number): number => Math.ceil(latencyMs * (1 + JITTER))

/** A request answered with a refusal instead of being served (the rate limit, a fault): its status and headers, and what was done, for the request log. */
export interface Refusal {
  status: number
  headers: Record<string, string>
  told: string
}

/**
 * `Retry-After` as seconds, or with `asDate` as the HTTP date that many seconds on, rounded up to
 * a whole second (an HTTP date has no finer one), so a client that waits until then waits long enough.
 */
export function retryAfterValue(seconds: number, asDate: boolean, nowMs: number = Date.now()): string {
  return asDate ? new Date(Math.ceil((nowMs + seconds * 1000) / 1000) * 1000).toUTCString() : String(seconds)
}
