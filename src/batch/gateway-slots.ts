import pLimit, {type LimitFunction} from 'p-limit'
import {GwError, RateLimitedError} from '../errors.js'
import type {RowReport} from './row-reports.js'
import type {Intent} from './journal-entries.js'
import {INTENT_FRESH_MS} from './in-doubt.js'
import {spanOf} from '../api/retry.js'

/** What a request asked of the slots gets when the batch stopped while it waited for one: it was never made. */
export const STOPPED = Symbol('stopped')

/** Answers lost in a row after which the gateway looks unreachable and no more rows are started: the next run looks them up. */
export const LOST_IN_A_ROW = 8

/**
 * A batch's way to the gateway: at most `concurrency` requests at once, over the client's one
 * keep-alive pool, in the order they were asked for (FIFO, so rows go in the order their intents
 * were synced), and none once the batch is stopping. It also tells when the gateway looks
 * unreachable: LOST_IN_A_ROW answers lost in a row.
 */
export class GatewaySlots {
  private readonly slots: LimitFunction
  /** Rows answered since the last that had an answer: lost ones, in a row. */
  private lostInARow = 0
  /** Rows whose request is at the gateway, by the key it goes under: when their intent was synced, and how to sync it again. */
  private readonly atGateway = new Map<string, {journaledAt: number; journal: () => Promise<Intent>}>()

  constructor(
    private readonly concurrency: number,
    /** Aborted once the batch is stopping. */
    private readonly stopping: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {
    // The first request goes alone: until one answer is in, gw does not know that the gateway
    // takes these credentials and is in the profile's environment (a batch stops on either).
    this.slots = pLimit(1)
  }

  /**
   * Runs a request in one of the slots, unless the batch stops before it has one: then it is never
   * made, and that is known at once, not once a slot is free (a first Ctrl-C while every slot waits
   * on a slow gateway takes back the rows journaled ahead right away).
   */
  async run<T>(request: () => Promise<T>): Promise<T | typeof STOPPED> {
    let started = false
    const ran = this.slots(async () => {
      if (this.stopping.aborted) return STOPPED
      started = true
      try {
        return await request()
      } finally {
        // The first answer is in: the other slots open (setting it again changes nothing).
        this.slots.concurrency = this.concurrency
      }
    })
    const stopped = new Promise<typeof STOPPED | undefined>((resolve) => {
      const stop = () => resolve(started ? undefined : STOPPED)
      if (this.stopping.aborted) stop()
      // A signal aborts at most once, so the listener need not remove itself: `done` removes it.
      else this.stopping.addEventListener('abort', stop)
      const done = () => this.stopping.removeEventListener('abort', stop)
      ran.then(done, done)
    })
    return Promise.race([ran, stopped.then((stop) => stop ?? ran)])
  }

  /** Sends a row's request (`send`), its intent (`synced`) journaled again by `journal` should the gateway rate limit it and it go again (resending). */
  async sending<T>(key: string, synced: Intent, journal: () => Promise<Intent>, send: () => Promise<T>): Promise<T> {
    this.atGateway.set(key, {journaledAt: Date.parse(synced.sent_at), journal})
    try {
      return await send()
    } finally {
      this.atGateway.delete(key)
    }
  }

  /**
   * A row's request the gateway rate limited goes again (its client waits for this first): an
   * intent older than INTENT_FRESH_MS is journaled again, so that a rerun counts the processing
   * window from when it truly left (design.md §5), not up to gw's wait earlier.
   */
  async resending(key: string): Promise<void> {
    const row = this.atGateway.get(key)
    if (!row || this.now() - row.journaledAt <= INTENT_FRESH_MS) return
    row.journaledAt = Date.parse((await row.journal()).sent_at)
  }

  /**
   * Counts a row's answer: true at the LOST_IN_A_ROW-th lost in a row, when the gateway (or the way
   * to it) looks down, and each further row would only add one more in doubt. A row in doubt that
   * the gateway answered about (row-reports.ts `reached`) shows it is up. A row that failed unsent
   * for want of an answer (its look-up before sending lost, or refused with a 5xx) counts as lost too.
   */
  lost(report: RowReport): boolean {
    const unanswered = report.status === 'unknown' ? !report.resumed && !report.reached : report.status === 'failed' && UNANSWERED.has(report.error?.kind)
    if (!unanswered) {
      this.lostInARow = 0
      return false
    }
    return ++this.lostInARow >= LOST_IN_A_ROW
  }
}

/** The kinds of a failure (errors.ts GatewayError) where the gateway gave no answer that judged the request. */
const UNANSWERED = new Set<string | undefined>(['network', 'gateway'])

/** After LOST_IN_A_ROW answers lost in a row: what the batch stops with. */
export function unreachable(noun: string): GwError {
  return new GwError('outcome_unknown', 8, `The answers to the last ${LOST_IN_A_ROW} ${noun}s were lost: the gateway looks unreachable, and no more rows were started`, {
    hint: 'Check that the gateway can be reached, then run the same command again: it looks the rows in doubt up before sending anything.',
  })
}

/** A row the gateway's rate limit held past gw's wait: what the batch stops with (exit 9); the rows it held back were not made, and are sent by the next run. */
export function rateLimited(noun: string, limit: RateLimitedError): RateLimitedError {
  return new RateLimitedError(
    `The gateway kept rate limiting the ${noun}s past the wait gw allows each one: no more rows were started`,
    {retryAfterMs: limit.retryAfterMs},
    {status: limit.status, hint: `Nothing was made for the rows it held back: run the same command again later${limit.retryAfterMs === undefined ? '' : ` (the gateway asked for ${spanOf(limit.retryAfterMs)})`}; it sends them then, and nothing twice.`},
  )
}

/**
 * Rows at work per request slot: one at the gateway, the rest having their intents synced so a
 * slot never waits for the disk (measured: an fdatasync of ~2.5 ms against ~3.5 ms a request,
 * twice the rows still left slots idle). A crash leaves those rows journaled but unsent; the
 * re-run looks each one up, finds nothing and sends it.
 */
export const LOOK_AHEAD = 4

/**
 * How many answers the journal may have still to write when a row is sent. With one slot, none:
 * a row is sent only after the answer before it is on disk, so that a batch run a row at a time
 * keeps its journal in step with the gateway (a crash leaves in doubt only the row in flight and
 * those journaled ahead). With more, as many as the rows at work, so that commits overlap the
 * requests rather than hold them up: a crash leaves those answered rows in doubt as it leaves the
 * rows journaled ahead, and the next run looks them up before sending anything.
 */
export function unjournaledAnswers(concurrency: number): number {
  return concurrency === 1 ? 1 : LOOK_AHEAD * concurrency
}
