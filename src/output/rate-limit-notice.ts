import type {GatewayClient, RateLimitWait} from '../api/client.js'
import {countdown, secondsLeft} from './countdown.js'
import {rateLimitStatus} from './hints.js'
import type {Io} from './io.js'

/**
 * What a person at a terminal sees while gw waits out the gateway's rate limit:
 * `Rate limited by the gateway: trying again in 12 s`. A wait within one shown already changes nothing.
 * - Where a progress line may be drawn, it is one at the terminal's foot, counted down and taken away when the wait is over.
 * - Where stdout's reader draws on the same terminal (`| less`), it is a line of its own, once.
 * - Where stderr is no terminal, nothing: a script hears of it only if gw gives up (exit 9), or in a batch's summary.
 */
export function rateLimitNotice(io: Io, now: () => number = Date.now): (wait: RateLimitWait) => void {
  let endsAt = 0
  let stop: (() => void) | undefined
  let over: NodeJS.Timeout | undefined
  return (wait) => {
    if (!io.chatty || wait.endsAt <= endsAt) return
    endsAt = wait.endsAt
    if (!io.progress) return void io.err(`${rateLimitStatus(secondsLeft(endsAt, now()))}\n`)
    stop?.()
    clearTimeout(over)
    stop = countdown(io, (seconds) => rateLimitStatus(seconds), endsAt, now)
    // Never what keeps gw running: the wait it shows does that.
    over = setTimeout(() => {
      stop?.()
      stop = undefined
    }, endsAt - now()).unref()
  }
}

/** What a batch's view asks of its client: the waits as they are asked, and what they cost in all. */
export type LimitedClient = Pick<GatewayClient, 'watchRateLimits' | 'rateLimits'>

/**
 * A batch's view of the gateway's rate limit, as its client tells it: until when it holds every
 * row (the progress line counts it down), and what it cost (the summary says it).
 */
export class HeldByLimit {
  private until = 0

  constructor(
    private readonly client: LimitedClient | undefined,
    changed: () => void,
  ) {
    client?.watchRateLimits((wait) => {
      this.until = Math.max(this.until, wait.endsAt)
      changed()
    })
  }

  /** Whether the gateway's wait is on now. */
  get holding(): boolean {
    return Date.now() < this.until
  }

  /** The progress line's end while the wait is on: `  Rate limited by the gateway: trying again in 3 s`. */
  status(): string {
    return this.holding ? `  ${rateLimitStatus(secondsLeft(this.until, Date.now()))}` : ''
  }

  /**
   * The summary's line when the gateway rate limited the batch: how often, how long gw waited for
   * it, the rate the batch ran at (`rows` this run sent in `seconds`) and the pace gw kept to.
   */
  summary(rows: number, seconds: number, row: string): string {
    const met = this.client?.rateLimits
    if (!met || met.limited === 0) return ''
    const paced = met.pacedPerSecond === undefined ? '' : `, paced to ${Math.floor(met.pacedPerSecond)} requests a second`
    const rate = seconds > 0 ? rows / seconds : 0
    return `Rate limited by the gateway: ${met.limited} answer${met.limited === 1 ? '' : 's'} asked gw to wait, ${(met.waitedMs / 1000).toFixed(1)} s in all; ran at ${rate.toFixed(1)} ${row}s a second${paced}.\n`
  }
}
