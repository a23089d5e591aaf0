import {randomUUID} from 'node:crypto'
import {request as httpRequest} from 'node:http'
import {request as httpsRequest} from 'node:https'
import {setTimeout as sleep} from 'node:timers/promises'
import type {WebhookEvent as WebHookEvent} from '../api/schemas/recurring-rules.js'
import type {Mode} from './mode.js'
import type {WebHookRecord} from './records.js'
import type {DeliveryTarget, QueuedDelivery, Store} from './store.js'

type DeliveryStatus = 'pending' | 'delivered' | 'failed'

interface DeliveryReport {
  id: string
  hook: string
  hook_id: string | null
  event: string
  status: DeliveryStatus
  attempts: number
  last_error: string | null
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
  private readonly finished: DeliveryReport[] = []
  private readonly draining = new Map<string, Promise<void>>()
  private readonly closing = new AbortController()

  constructor(private readonly options: DeliveryOptions) {}

  /** Queues the event for each of the merchant's hooks that takes it; returns their addresses. */
  publish(merchant: string, event: WebHookEvent, payload: unknown[]): string[] {
    const hooks = this.options.store.list('webhooks', merchant).filter((hook) => takesEvent(hook, event))
    for (const hook of hooks) this.enqueue(hookTarget(hook), event, payload)
    return hooks.map((hook) => hook.address)
  }

  enqueue(target: DeliveryTarget, event: WebHookEvent, payload: unknown[]): void {
    this.options.store.enqueueDelivery({id: randomUUID(), target, event, payload, attempts: 0, last_error: null})
    this.drain(queueKey(target))
  }

  /** A deleted hook gets nothing more, not even what was queued for it. */
  forgetHook(hookId: string): void {
    const {store} = this.options
    for (const delivery of store.deliveries()) if (delivery.target.hook_id === hookId) store.dequeueDelivery(delivery.id)
  }

  /** Starts on the deliveries a previous run left queued. */
  resume(): void {
    for (const delivery of this.options.store.deliveries()) this.drain(queueKey(delivery.target))
  }

  /** Finished deliveries (the latest) then the queued ones, each in the order it was queued. */
  report(): DeliveryReport[] {
    const pending = this.options.store.deliveries().map((delivery) => reportOf(delivery, 'pending'))
    return [...this.finished, ...pending]
  }

  /** Stops delivering; what is still queued stays in the store for the next run. */
  async close(): Promise<void> {
    this.closing.abort()
    await Promise.allSettled(this.draining.values())
  }

  private drain(key: string): void {
    if (this.draining.has(key) || this.closing.signal.aborted) return
    const draining = this.deliverQueue(key).finally(() => this.draining.delete(key))
    this.draining.set(key, draining)
  }

  private async deliverQueue(key: string): Promise<void> {
    const {store, backoffMs, maxAttempts} = this.options
    const signal = this.closing.signal
    for (;;) {
      const head = store.deliveries().find((delivery) => queueKey(delivery.target) === key)
      if (!head || signal.aborted) return
      const error = await this.attempt(head)
      if (signal.aborted) return
      const attempted = {...head, attempts: head.attempts + 1, last_error: error ?? null}
      store.recordAttempt(head.id, attempted.last_error)
      if (error === undefined) this.finish(attempted, 'delivered')
      else if (attempted.attempts >= maxAttempts) this.finish(attempted, 'failed')
      else {
        this.options.onChange()
        try {
          await sleep(backoffMs * 2 ** (attempted.attempts - 1), undefined, {signal})
        } catch {
          return
        }
      }
    }
  }

  /** The reason the delivery failed, or undefined once the receiver answered 2xx. */
  private async attempt(delivery: QueuedDelivery): Promise<string | undefined> {
    const {address, username, password} = delivery.target
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Service-Mode': this.options.mode === 'live' ? 'Live' : 'Sandbox',
      'User-Agent': 'gw-sandbox',
    }
    if (username !== null) headers.Authorization = `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`
    const body = JSON.stringify({event: delivery.event, payload: delivery.payload})
    try {
      const status = await post(address, headers, body, this.options.timeoutMs, this.closing.signal)
      return status >= 200 && status < 300 ? undefined : `HTTP ${status}`
    } catch (error) {
      return (error as NodeJS.ErrnoException).code ?? (error as Error).message
    }
  }

  private finish(delivery: QueuedDelivery, status: DeliveryStatus): void {
    // A reset while the attempt was on its way already dropped it.
    this.options.store.dequeueDelivery(delivery.id)
    this.finished.push(reportOf(delivery, status))
    if (this.finished.length > REPORTED_FINISHED) this.finished.shift()
    this.options.onChange()
  }
}

const reportOf = (delivery: QueuedDelivery, status: DeliveryStatus): DeliveryReport => ({
  id: delivery.id,
  hook: delivery.target.address,
  hook_id: delivery.target.hook_id,
  event: delivery.event,
  status,
  attempts: delivery.attempts,
  last_error: delivery.last_error,
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
