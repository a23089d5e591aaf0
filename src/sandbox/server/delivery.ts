import {request as httpRequest} from 'node:http'
import {request as httpsRequest} from 'node:https'
import {setTimeout as sleep} from 'node:timers/promises'
import type {DeliveryStatus, GatewayEvent as WebHookEvent} from '../../api/schemas/recurring-rules.js'
import {badRequest, notFound} from '../domain/errors.js'
import {newUuid} from '../domain/ids.js'
import type {Mode} from '../domain/mode.js'
import type {WebHookRecord} from '../domain/records.js'
import type {DeliveryTarget, QueuedDelivery} from '../domain/delivery-queue.js'
import type {Store} from '../domain/store.js'
import {withFloats} from './floats.js'

/** A delivery as `gw sandbox deliveries` lists it (the shared schema's Delivery). */
interface DeliveryReport {
  id: string
  event: string
  hook: string
  hook_id: string | null
  status: DeliveryStatus
  attempts: number
  /** Why the last attempt failed; null once delivered or before the first. */
  last_error: string | null
  /** What the receiver last answered (`HTTP 200`, `HTTP 500`), or why no answer came (`ECONNREFUSED`). */
  last_answer: string | null
  last_attempt_at: string | null
  redelivery_of: string | null
  payload: unknown[]
}

/** A delivery that is over: kept (in memory, the latest REPORTED_FINISHED) to be listed and sent again. */
interface FinishedDelivery {
  delivery: QueuedDelivery
  status: 'delivered' | 'failed'
  lastAnswer: string
  lastAttemptAt: string
}

/** What one attempt came to: the receiver's status, or why it gave none. */
type Attempt = {status: number} | {error: string}

export interface DeliveryFilter {
  event?: string
  status?: DeliveryStatus
}

interface DeliveryOptions {
  store: Store
  mode: Mode
  /** The wait after the first failed attempt; it doubles after each further one. */
  backoffMs: number
  maxAttempts: number
  timeoutMs: number
  /** Called after the queue changed outside a request, for the server to persist it. */
  onChange(): void
}

/** Finished deliveries kept for `GET /_sandbox/deliveries`. */
const REPORTED_FINISHED = 500

const hookTarget = (hook: WebHookRecord): DeliveryTarget => ({
  hook_id: hook.id,
  address: hook.address,
  username: hook.authentication_username,
  password: hook.authentication_password,
})

export const takesEvent = (hook: WebHookRecord, event: WebHookEvent) =>
  hook.events === '*' || (Array.isArray(hook.events) && hook.events.includes(event))

/** One queue per hook (or address), so each receiver gets its events in the order they happened. */
const queueKey = (target: DeliveryTarget) => target.hook_id ?? `${target.address} ${target.username ?? ''}`

/**
 * Web hook delivery in the background: nothing here is awaited by a request or the clock. A
 * delivery that fails (refused, non-2xx, timed out) is tried again after a doubling wait, and
 * holds back the later events of its hook until it succeeds or runs out of attempts.
 */
export class Deliveries {
  /** Whether sending has begun (start): events published before wait in the store's queue. */
  private started = false
  private readonly finished: FinishedDelivery[] = []
  private readonly draining = new Map<string, Promise<void>>()
  private readonly closing = new AbortController()
  /** Per queue, the wait after a failed attempt, which `redeliver` cuts short. */
  private readonly waits = new Map<string, AbortController>()
  /** When each queued delivery was last attempted, and what came of it: this run's only. */
  private readonly lastAttempts = new Map<string, {at: string; answer: string}>()

  constructor(private readonly options: DeliveryOptions) {}

  /** Queues the event for each of the merchant's hooks that takes it; returns their addresses. */
  publish(merchant: string, event: WebHookEvent, payload: unknown[]): string[] {
    const hooks = this.options.store.list('webhooks', merchant).filter((hook) => takesEvent(hook, event))
    for (const hook of hooks) this.enqueue(hookTarget(hook), event, payload)
    return hooks.map((hook) => hook.address)
  }

  enqueue(target: DeliveryTarget, event: string, payload: unknown[], redeliveryOf?: string): QueuedDelivery {
    const delivery: QueuedDelivery = {id: newUuid(), target, event, payload, attempts: 0, last_error: null, ...(redeliveryOf ? {redelivery_of: redeliveryOf} : {})}
    this.options.store.enqueueDelivery(delivery)
    this.drain(queueKey(target))
    return delivery
  }

  /**
   * Sends a delivery again now: a finished one (delivered or failed) is queued anew, as it was, to
   * the same address; a queued one waiting to be tried again is tried at once. A web hook deleted
   * since gets nothing more.
   */
  redeliver(id: string): DeliveryReport {
    const queued = this.options.store.deliveries().find((delivery) => delivery.id === id)
    if (queued) {
      this.waits.get(queueKey(queued.target))?.abort()
      return this.pendingReport(queued)
    }
    const finished = this.finished.find((entry) => entry.delivery.id === id)
    if (!finished) throw notFound(`No delivery ${id}: gw sandbox deliveries lists them (finished ones only since the gateway started, the latest ${REPORTED_FINISHED})`)
    const {target, event, payload} = finished.delivery
    if (target.hook_id !== null && !this.hookExists(target.hook_id)) {
      throw badRequest([`Delivery ${id} went to web hook ${target.hook_id}, which was deleted: register ${target.address} again to receive its events`])
    }
    return this.pendingReport(this.enqueue(target, event, payload, id))
  }

  /** A deleted hook gets nothing more, not even what was queued for it. */
  forgetHook(hookId: string): void {
    const {store} = this.options
    for (const delivery of store.deliveries()) {
      if (delivery.target.hook_id !== hookId) continue
      store.dequeueDelivery(delivery.id)
      this.lastAttempts.delete(delivery.id)
    }
  }

  /**
   * Starts sending: what a previous run left queued, and what the gateway's start queued while it
   * caught up on the days it missed. Nothing is sent before, so a start that fails (a state file
   * it cannot write, a port in use) tells no receiver of a change it never kept, and has nothing
   * in flight to stop.
   */
  start(): void {
    this.started = true
    for (const delivery of this.options.store.deliveries()) this.drain(queueKey(delivery.target))
  }

  /** Finished deliveries (the latest) then the queued ones, each in the order it was queued; those the filter takes. */
  report(filter: DeliveryFilter = {}): DeliveryReport[] {
    const finished = this.finished.map(({delivery, status, lastAnswer, lastAttemptAt}) => reportOf(delivery, status, lastAnswer, lastAttemptAt))
    const pending = this.options.store.deliveries().map((delivery) => this.pendingReport(delivery))
    return [...finished, ...pending].filter((report) => (filter.event === undefined || report.event === filter.event) && (filter.status === undefined || report.status === filter.status))
  }

  /** Stops delivering; what is still queued stays in the store for the next run. */
  async close(): Promise<void> {
    this.closing.abort()
    await Promise.allSettled(this.draining.values())
  }

  private drain(key: string): void {
    if (!this.started || this.draining.has(key) || this.closing.signal.aborted) return
    const draining = this.deliverQueue(key).finally(() => this.draining.delete(key))
    this.draining.set(key, draining)
  }

  private async deliverQueue(key: string): Promise<void> {
    const {store, backoffMs, maxAttempts} = this.options
    const signal = this.closing.signal
    for (;;) {
      const head = store.deliveries().find((delivery) => queueKey(delivery.target) === key)
      if (!head || signal.aborted) return
      const attempt = await this.attempt(head)
      if (signal.aborted) return
      const error = 'error' in attempt ? attempt.error : attempt.status >= 200 && attempt.status < 300 ? undefined : `HTTP ${attempt.status}`
      const answer = 'error' in attempt ? attempt.error : `HTTP ${attempt.status}`
      const attempted = {...head, attempts: head.attempts + 1, last_error: error ?? null}
      store.recordAttempt(head.id, attempted.last_error)
      this.lastAttempts.set(head.id, {at: new Date().toISOString(), answer})
      if (error === undefined) this.finish(attempted, 'delivered')
      else if (attempted.attempts >= maxAttempts) this.finish(attempted, 'failed')
      else {
        this.options.onChange()
        const wait = new AbortController()
        this.waits.set(key, wait)
        try {
          await sleep(backoffMs * 2 ** (attempted.attempts - 1), undefined, {signal: AbortSignal.any([signal, wait.signal])})
        } catch {
          // Cut short: by close(), which ends the queue, or by redeliver(), which tries the head now.
          if (signal.aborted) return
        } finally {
          this.waits.delete(key)
        }
      }
    }
  }

  /** What the receiver answered, or why it did not. */
  private async attempt(delivery: QueuedDelivery): Promise<Attempt> {
    const {address, username, password} = delivery.target
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Service-Mode': this.options.mode === 'live' ? 'Live' : 'Sandbox',
      'User-Agent': 'gw-sandbox',
    }
    if (username !== null) headers.Authorization = `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`
    const body = withFloats(JSON.stringify({event: delivery.event, payload: delivery.payload}))
    try {
      return {status: await post(address, headers, body, this.options.timeoutMs, this.closing.signal)}
    } catch (error) {
      return {error: (error as NodeJS.ErrnoException).code ?? (error as Error).message}
    }
  }

  private finish(delivery: QueuedDelivery, status: 'delivered' | 'failed'): void {
    // A reset while the attempt was on its way already dropped it.
    this.options.store.dequeueDelivery(delivery.id)
    const last = this.lastAttempts.get(delivery.id)!
    this.lastAttempts.delete(delivery.id)
    this.finished.push({delivery, status, lastAnswer: last.answer, lastAttemptAt: last.at})
    if (this.finished.length > REPORTED_FINISHED) this.finished.shift()
    this.options.onChange()
  }

  /** A queued delivery; its last attempt is known if this run made it (a restart keeps only why it failed). */
  private pendingReport(delivery: QueuedDelivery): DeliveryReport {
    const last = this.lastAttempts.get(delivery.id)
    return reportOf(delivery, 'pending', last?.answer ?? delivery.last_error, last?.at ?? null)
  }

  private hookExists(hookId: string): boolean {
    const {store} = this.options
    return store.merchantsWithRecords().some((merchant) => store.find('webhooks', merchant, hookId).found === 'own')
  }
}

const reportOf = (delivery: QueuedDelivery, status: DeliveryStatus, lastAnswer: string | null, lastAttemptAt: string | null): DeliveryReport => ({
  id: delivery.id,
  event: delivery.event,
  hook: delivery.target.address,
  hook_id: delivery.target.hook_id,
  status,
  attempts: delivery.attempts,
  last_error: delivery.last_error,
  last_answer: lastAnswer,
  last_attempt_at: lastAttemptAt,
  redelivery_of: delivery.redelivery_of ?? null,
  payload: delivery.payload,
})

/**
 * One POST on a fresh connection (no keep-alive: a receiver that stops must not find a socket
 * of ours holding it open). Resolves with the status once the answer has been read.
 */
function post(address: string, headers: Record<string, string>, body: string, timeoutMs: number, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(address)
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const request = send(url, {method: 'POST', headers: {...headers, 'Content-Length': String(Buffer.byteLength(body))}, agent: false, signal})
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    request.once('error', reject)
    request.once('response', (response) => {
      response.resume()
      response.once('end', () => resolve(response.statusCode ?? 0))
      response.once('error', reject)
    })
    request.end(body)
  })
}
