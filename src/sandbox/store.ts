import {forbidden, notFound} from './errors.js'
import type {
  CardRecord,
  CustomerRecord,
  PlanRecord,
  PurchaseRecord,
  RefundRecord,
  SubscriptionRecord,
  WebHookRecord,
} from './records.js'

interface Collections {
  cards: CardRecord
  purchases: PurchaseRecord
  refunds: RefundRecord
  plans: PlanRecord
  customers: CustomerRecord
  subscriptions: SubscriptionRecord
  webhooks: WebHookRecord
}
export type Collection = keyof Collections
export const COLLECTIONS = ['cards', 'purchases', 'refunds', 'plans', 'customers', 'subscriptions', 'webhooks'] as const satisfies Collection[]

export type MerchantRecords = {[C in Collection]: Record<string, Collections[C]>}

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

type CardNotice = 'card:expiring' | 'card:expired'

/** Plain JSON, the form of a snapshot on disk. Keys that are absent have their default. */
export interface StoreState {
  merchants: Record<string, Partial<MerchantRecords>>
  /** The virtual clock's date; absent until it was first read. */
  today?: string
  /** `token expiry` of each card whose expiry notices went out, so each is sent once. */
  cardNotices?: Record<string, CardNotice[]>
  /** Web hook deliveries not yet made, oldest first. */
  deliveries?: QueuedDelivery[]
}

type AnyRecord = Collections[Collection]

/**
 * One change to the state, as the journal writes it. Every change goes through `Store.apply`, so
 * replaying the journal rebuilds exactly the state (and the indexes) that answered requests.
 */
export type Change =
  | {op: 'put'; collection: Collection; merchant: string; record: AnyRecord}
  | {op: 'remove'; collection: Collection; merchant: string; key: string}
  | {op: 'today'; date: string}
  | {op: 'notice'; key: string; notices: CardNotice[]}
  | {op: 'enqueue'; delivery: QueuedDelivery}
  | {op: 'attempted'; id: string; attempts: number; last_error: string | null}
  | {op: 'dequeue'; id: string}
  | {op: 'reset'}

/** The changes made since the last `takeBatch`, and how to take each back, latest last. */
export interface Batch {
  changes: Change[]
  undo: (() => void)[]
}

/**
 * Each record has a global key (a token or id: unique across merchants) and a name its
 * merchant gave it (an alias or reference: unique only within that merchant).
 */
const KEYS = {
  cards: {global: 'token', merchantName: 'alias'},
  purchases: {global: 'id', merchantName: 'reference'},
  refunds: {global: 'id', merchantName: 'reference'},
  plans: {global: 'id', merchantName: 'reference'},
  customers: {global: 'id', merchantName: 'reference'},
  subscriptions: {global: 'id', merchantName: 'reference'},
  webhooks: {global: 'id', merchantName: 'id'},
} as const satisfies {[C in Collection]: {global: keyof Collections[C]; merchantName: keyof Collections[C]}}

/** Fields records are grouped by, for the look-ups requests make: a purchase's refunds, a plan's subscriptions. */
const GROUPED_BY = {
  refunds: ['purchase_id'],
  subscriptions: ['customer', 'plan'],
} as const satisfies {[C in Collection]?: readonly (keyof Collections[C])[]}
type Grouped = keyof typeof GROUPED_BY

/**
 * Running totals kept with a group, so a request that needs one does not read the whole group:
 * what a purchase has had refunded, however many partial refunds it has had (a purchase with
 * 60,000 refunds of 1.00 took 0.25 ms a refund at the first and 6 ms at the last when each refund
 * added them all up).
 */
const SUMMED = {
  refunds: {field: 'purchase_id', of: (refund: RefundRecord) => (refund.successful ? Math.abs(refund.amount) : 0)},
} as const

/** The value a record adds to its group's running total, if its collection keeps one. */
function summedOf(collection: Collection, record: AnyRecord): number | undefined {
  return collection === 'refunds' ? SUMMED.refunds.of(record as RefundRecord) : undefined
}

/** `foreign`: the key is another merchant's record, which the caller may not see. */
export type Lookup<T> = {found: 'own'; record: T} | {found: 'foreign'} | {found: 'none'}

const emptyState = (): StoreState => ({merchants: {}})

/** One merchant's records of one collection, with its indexes. */
class Shelf<T> {
  /** By global key, in the order the records were created. */
  readonly records = new Map<string, T>()
  /** The same keys as an array, to read a page by position; dropped on a removal, rebuilt when next read. */
  private order: string[] | undefined
  /** Name → global keys holding it, first holder first (a billing reference may repeat an API one). */
  readonly names = new Map<string, string[]>()
  /** `field value` → global keys. */
  readonly groups = new Map<string, Set<string>>()
  /** `field value` → the group's running total (SUMMED). */
  readonly sums = new Map<string, number>()

  added(key: string): void {
    this.order?.push(key)
  }

  removed(): void {
    this.order = undefined
  }

  inOrder(): readonly string[] {
    return (this.order ??= [...this.records.keys()])
  }
}

/** Records read by position without copying the rest: a page of 10 from 100,000 reads 10. */
export interface Positional<T> {
  readonly length: number
  at(index: number): T | undefined
}

/** The field a collection's records are filed under: `token` for cards, `id` for the rest. */
export const globalKeyField = (collection: Collection): string => KEYS[collection].global

const globalKeyOf = (collection: Collection, record: AnyRecord) => String(record[KEYS[collection].global as keyof AnyRecord])

function nameOf(collection: Collection, record: AnyRecord): string | undefined {
  const name = record[KEYS[collection].merchantName as keyof AnyRecord] as unknown
  return typeof name === 'string' ? name : undefined
}

const groupFields = (collection: Collection): readonly string[] => GROUPED_BY[collection as Grouped] ?? []

export class Store {
  private shelves = new Map<string, Map<Collection, Shelf<AnyRecord>>>()
  /** Global key → merchant, per collection: tells a foreign record from none at all. */
  private owners = new Map<Collection, Map<string, string>>()
  private todayDate: string | undefined
  private notices = new Map<string, CardNotice[]>()
  private queue = new Map<string, QueuedDelivery>()
  private batch: Batch = {changes: [], undo: []}
  /** While replaying a journal, changes are not recorded again. */
  private recording = true

  constructor(state: StoreState = emptyState()) {
    this.load(state)
  }

  /** The whole state as plain JSON, for a snapshot. */
  snapshot(): StoreState {
    const merchants: StoreState['merchants'] = {}
    for (const [merchant, shelves] of this.shelves) {
      const records: Partial<MerchantRecords> = {}
      for (const collection of COLLECTIONS) {
        records[collection] = Object.fromEntries(shelves.get(collection)?.records ?? []) as never
      }
      merchants[merchant] = records
    }
    const state: StoreState = {merchants}
    if (this.todayDate !== undefined) state.today = this.todayDate
    if (this.notices.size > 0) state.cardNotices = Object.fromEntries(this.notices)
    if (this.queue.size > 0) state.deliveries = [...this.queue.values()]
    return state
  }

  /** By global key or by the merchant's own name for the record; only the caller's records are returned. */
  find<C extends Collection>(collection: C, merchant: string, key: string): Lookup<Collections[C]> {
    const shelf = this.shelf(merchant, collection, false)
    const byName = shelf?.names.get(key)?.[0]
    const record = shelf?.records.get(key) ?? (byName === undefined ? undefined : shelf?.records.get(byName))
    if (record) return {found: 'own', record: record as Collections[C]}
    const owner = this.owners.get(collection)?.get(key)
    return owner !== undefined && owner !== merchant ? {found: 'foreign'} : {found: 'none'}
  }

  /** The caller's record, or the 403 or 404 the gateway gives for it. */
  get<C extends Collection>(collection: C, merchant: string, key: string, notFoundMessage: string): Collections[C] {
    const lookup = this.find(collection, merchant, key)
    if (lookup.found === 'foreign') throw forbidden()
    if (lookup.found === 'none') throw notFound(notFoundMessage)
    return lookup.record
  }

  /** Whether the merchant already uses `name` as a key or name of one of its records. */
  isTaken(collection: Collection, merchant: string, name: string): boolean {
    return this.find(collection, merchant, name).found === 'own'
  }

  /** How many of the merchant's records have `field` equal to `value`, without copying them. */
  countRelated<C extends Grouped>(collection: C, merchant: string, field: (typeof GROUPED_BY)[C][number], value: string): number {
    return this.shelf(merchant, collection, false)?.groups.get(`${field} ${value}`)?.size ?? 0
  }

  /** The merchant's records whose `field` is `value`, in the order they were created. */
  related<C extends Grouped>(collection: C, merchant: string, field: (typeof GROUPED_BY)[C][number], value: string): Collections[C][] {
    const shelf = this.shelf(merchant, collection, false)
    const keys = shelf?.groups.get(`${field} ${value}`) ?? []
    return [...keys].map((key) => shelf?.records.get(key) as Collections[C])
  }

  /** What a purchase has had refunded by approved refunds, kept as they come: as fast after the thousandth refund as after the first. */
  refundedOf(merchant: string, purchaseId: string): number {
    return this.shelf(merchant, 'refunds', false)?.sums.get(`purchase_id ${purchaseId}`) ?? 0
  }

  /** Adds the record, or replaces the one with the same global key. */
  save<C extends Collection>(collection: C, merchant: string, record: Collections[C]): void {
    this.apply({op: 'put', collection, merchant, record})
  }

  /** In the order they were created, by position. */
  ordered<C extends Collection>(collection: C, merchant: string): Positional<Collections[C]> {
    const shelf = this.shelf(merchant, collection, false)
    const keys = shelf?.inOrder() ?? []
    return {length: keys.length, at: (index) => shelf?.records.get(keys[index] ?? '') as Collections[C] | undefined}
  }

  /** In the order they were created. */
  list<C extends Collection>(collection: C, merchant: string): Collections[C][] {
    return [...(this.shelf(merchant, collection, false)?.records.values() ?? [])] as Collections[C][]
  }

  remove<C extends Collection>(collection: C, merchant: string, record: Collections[C]): void {
    this.apply({op: 'remove', collection, merchant, key: globalKeyOf(collection, record)})
  }

  merchantsWithRecords(): string[] {
    return [...this.shelves.keys()]
  }

  get today(): string | undefined {
    return this.todayDate
  }

  set today(date: string) {
    if (this.todayDate !== date) this.apply({op: 'today', date})
  }

  cardNoticesSent(card: CardRecord): CardNotice[] {
    return this.notices.get(`${card.token} ${card.card_expiry}`) ?? []
  }

  recordCardNotice(card: CardRecord, notice: CardNotice): void {
    this.apply({op: 'notice', key: `${card.token} ${card.card_expiry}`, notices: [...this.cardNoticesSent(card), notice]})
  }

  /** Queued web hook deliveries, oldest first. */
  deliveries(): QueuedDelivery[] {
    return [...this.queue.values()]
  }

  enqueueDelivery(delivery: QueuedDelivery): void {
    this.apply({op: 'enqueue', delivery})
  }

  recordAttempt(id: string, error: string | null): void {
    const delivery = this.queue.get(id)
    if (delivery) this.apply({op: 'attempted', id, attempts: delivery.attempts + 1, last_error: error})
  }

  dequeueDelivery(id: string): void {
    if (this.queue.has(id)) this.apply({op: 'dequeue', id})
  }

  reset(): void {
    this.apply({op: 'reset'})
  }

  /** The changes since the last call, for the journal; the store starts a new batch. */
  takeBatch(): Batch {
    const taken = this.batch
    this.batch = {changes: [], undo: []}
    return taken
  }

  /** Takes back a batch's changes, latest first: a change that could not be saved is not applied. */
  revert(batch: Batch): void {
    this.recording = false
    try {
      for (const undo of [...batch.undo].reverse()) undo()
    } finally {
      this.recording = true
    }
  }

  /** Replays changes read from a journal. */
  replay(changes: readonly Change[]): void {
    this.recording = false
    try {
      for (const change of changes) this.apply(change)
    } finally {
      this.recording = true
    }
  }

  private apply(change: Change): void {
    const undo = this.applyChange(change)
    if (this.recording) {
      this.batch.changes.push(change)
      this.batch.undo.push(undo)
    }
  }

  /** Makes the change and returns what takes it back. */
  private applyChange(change: Change): () => void {
    switch (change.op) {
      case 'put': {
        const {collection, merchant, record} = change
        const previous = this.shelf(merchant, collection, true).records.get(globalKeyOf(collection, record))
        this.put(collection, merchant, record)
        return () => (previous ? this.put(collection, merchant, previous) : this.delete(collection, merchant, globalKeyOf(collection, record)))
      }
      case 'remove': {
        const {collection, merchant, key} = change
        const previous = this.shelf(merchant, collection, false)?.records.get(key)
        if (!previous) return () => {}
        const shelf = this.shelf(merchant, collection, true)
        const order = [...shelf.records.keys()]
        this.delete(collection, merchant, key)
        // The record goes back to its place in the order of creation.
        return () => this.restoreOrder(collection, merchant, previous, order)
      }
      case 'today': {
        const previous = this.todayDate
        this.todayDate = change.date
        return () => (this.todayDate = previous)
      }
      case 'notice': {
        const previous = this.notices.get(change.key)
        this.notices.set(change.key, change.notices)
        return () => (previous ? this.notices.set(change.key, previous) : this.notices.delete(change.key))
      }
      case 'enqueue': {
        this.queue.set(change.delivery.id, {...change.delivery})
        return () => this.queue.delete(change.delivery.id)
      }
      case 'attempted': {
        const delivery = this.queue.get(change.id)
        if (!delivery) return () => {}
        const {attempts, last_error: lastError} = delivery
        delivery.attempts = change.attempts
        delivery.last_error = change.last_error
        return () => Object.assign(delivery, {attempts, last_error: lastError})
      }
      case 'dequeue': {
        const delivery = this.queue.get(change.id)
        if (!delivery) return () => {}
        const order = [...this.queue.entries()]
        this.queue.delete(change.id)
        return () => (this.queue = new Map(order))
      }
      case 'reset': {
        const previous = this.snapshot()
        this.load(emptyState())
        return () => this.load(previous)
      }
    }
  }

  private load(state: StoreState): void {
    this.shelves = new Map()
    this.owners = new Map()
    for (const [merchant, records] of Object.entries(state.merchants)) {
      for (const collection of COLLECTIONS) {
        for (const record of Object.values(records[collection] ?? {})) this.put(collection, merchant, record)
      }
    }
    this.todayDate = state.today
    this.notices = new Map(Object.entries(state.cardNotices ?? {}))
    this.queue = new Map((state.deliveries ?? []).map((delivery) => [delivery.id, {...delivery}]))
  }

  private put(collection: Collection, merchant: string, record: AnyRecord): void {
    const shelf = this.shelf(merchant, collection, true)
    const key = globalKeyOf(collection, record)
    const previous = shelf.records.get(key)
    // Saved again under the same name and groups (a subscription after each charge), it keeps its place in them.
    const sameIndexes =
      previous !== undefined &&
      nameOf(collection, previous) === nameOf(collection, record) &&
      groupFields(collection).every((field) => previous[field as keyof AnyRecord] === record[field as keyof AnyRecord]) &&
      summedOf(collection, previous) === summedOf(collection, record)
    if (previous && !sameIndexes) this.unindex(collection, shelf, key, previous)
    shelf.records.set(key, record)
    if (!previous) shelf.added(key)
    if (!sameIndexes) this.index(collection, shelf, key, record)
    let owners = this.owners.get(collection)
    if (!owners) this.owners.set(collection, (owners = new Map()))
    owners.set(key, merchant)
  }

  private delete(collection: Collection, merchant: string, key: string): void {
    const shelf = this.shelf(merchant, collection, false)
    const record = shelf?.records.get(key)
    if (!shelf || !record) return
    this.unindex(collection, shelf, key, record)
    shelf.records.delete(key)
    shelf.removed()
    this.owners.get(collection)?.delete(key)
  }

  private restoreOrder(collection: Collection, merchant: string, record: AnyRecord, order: string[]): void {
    const shelf = this.shelf(merchant, collection, true)
    const current = new Map(shelf.records)
    current.set(globalKeyOf(collection, record), record)
    shelf.records.clear()
    shelf.removed()
    for (const key of order) {
      const kept = current.get(key)
      if (kept) shelf.records.set(key, kept)
    }
    this.index(collection, shelf, globalKeyOf(collection, record), record)
    this.owners.get(collection)?.set(globalKeyOf(collection, record), merchant)
  }

  private index(collection: Collection, shelf: Shelf<AnyRecord>, key: string, record: AnyRecord): void {
    const name = nameOf(collection, record)
    if (name !== undefined && name !== key) {
      const holders = shelf.names.get(name)
      if (holders) holders.push(key)
      else shelf.names.set(name, [key])
    }
    for (const field of groupFields(collection)) {
      const group = `${field} ${String(record[field as keyof AnyRecord])}`
      let keys = shelf.groups.get(group)
      if (!keys) shelf.groups.set(group, (keys = new Set()))
      keys.add(key)
    }
    this.addToSum(collection, shelf, record, 1)
  }

  private addToSum(collection: Collection, shelf: Shelf<AnyRecord>, record: AnyRecord, sign: 1 | -1): void {
    if (collection !== 'refunds') return
    const {field, of} = SUMMED.refunds
    const refund = record as RefundRecord
    const group = `${field} ${refund[field]}`
    shelf.sums.set(group, (shelf.sums.get(group) ?? 0) + sign * of(refund))
  }

  private unindex(collection: Collection, shelf: Shelf<AnyRecord>, key: string, record: AnyRecord): void {
    const name = nameOf(collection, record)
    const holders = name === undefined ? undefined : shelf.names.get(name)
    if (name !== undefined && holders) {
      const rest = holders.filter((holder) => holder !== key)
      if (rest.length > 0) shelf.names.set(name, rest)
      else shelf.names.delete(name)
    }
    for (const field of groupFields(collection)) shelf.groups.get(`${field} ${String(record[field as keyof AnyRecord])}`)?.delete(key)
    this.addToSum(collection, shelf, record, -1)
  }

  private shelf(merchant: string, collection: Collection, create: true): Shelf<AnyRecord>
  private shelf(merchant: string, collection: Collection, create: false): Shelf<AnyRecord> | undefined
  private shelf(merchant: string, collection: Collection, create: boolean): Shelf<AnyRecord> | undefined {
    let shelves = this.shelves.get(merchant)
    if (!shelves) {
      if (!create) return undefined
      this.shelves.set(merchant, (shelves = new Map()))
    }
    let shelf = shelves.get(collection)
    if (!shelf && create) shelves.set(collection, (shelf = new Shelf()))
    return shelf
  }
}
