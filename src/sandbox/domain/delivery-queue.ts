/** Where a delivery goes: a registered hook, or an address `/_sandbox/trigger` was given. */
export interface DeliveryTarget {
  hook_id: string | null
  address: string
  username: string | null
  password: string | null
}

/** Plain JSON: the queue is part of the state, so deliveries outlive a restart. */
export interface QueuedDelivery {
  id: string
  target: DeliveryTarget
  /** A web hook event name (recurring-rules.ts). */
  event: string
  payload: unknown[]
  attempts: number
  last_error: string | null
  /** The finished delivery this one sends again (`gw sandbox redeliver`). */
  redelivery_of?: string
}

/**
 * The web hook deliveries not yet made, oldest first, by id. Each change returns what takes it
 * back, for the store's change log.
 */
export class DeliveryQueue {
  private queue = new Map<string, QueuedDelivery>()

  /** The deliveries of a snapshot in place of those queued (in place, as Shelves.load). */
  load(deliveries: readonly QueuedDelivery[]): void {
    this.queue = new Map(deliveries.map((delivery) => [delivery.id, {...delivery}]))
  }

  all(): QueuedDelivery[] {
    return [...this.queue.values()]
  }

  get(id: string): QueuedDelivery | undefined {
    return this.queue.get(id)
  }

  get size(): number {
    return this.queue.size
  }

  enqueue(delivery: QueuedDelivery): () => void {
    this.queue.set(delivery.id, {...delivery})
    return () => this.queue.delete(delivery.id)
  }

  attempted(id: string, attempts: number, lastError: string | null): () => void {
    const delivery = this.queue.get(id)
    if (!delivery) return () => {}
    const before = {attempts: delivery.attempts, last_error: delivery.last_error}
    delivery.attempts = attempts
    delivery.last_error = lastError
    return () => Object.assign(delivery, before)
  }

  dequeue(id: string): () => void {
    if (!this.queue.has(id)) return () => {}
    const order = [...this.queue.entries()]
    this.queue.delete(id)
    return () => (this.queue = new Map(order))
  }
}
