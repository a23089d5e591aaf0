import type {
  CardRecord,
  CustomerRecord,
  PlanRecord,
  PurchaseRecord,
  RefundRecord,
  SubscriptionRecord,
  WebHookRecord,
} from './records.js'
import {nameKey} from './storable.js'

export interface Collections {
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
export type AnyRecord = Collections[Collection]

export type MerchantRecords = {[C in Collection]: Record<string, Collections[C]>}

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

/** The collections whose records carry the date they were made, and its field: lists page and filter by it. */
export const DATE_FIELDS = {purchases: 'transaction_date', refunds: 'transaction_date', customers: 'created_at'} as const
export type DatedCollection = keyof typeof DATE_FIELDS

/** Fields records are grouped by, for the look-ups requests make: a purchase's refunds, a plan's subscriptions. */
export const GROUPED_BY = {
  refunds: ['purchase_id'],
  subscriptions: ['customer', 'plan'],
} as const satisfies {[C in Collection]?: readonly (keyof Collections[C])[]}
export type Grouped = keyof typeof GROUPED_BY

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

/** Records read by position without copying the rest: a page of 10 from 100,000 reads 10. */
export interface Positional<T> {
  readonly length: number
  at(index: number): T | undefined
}

/** The field a collection's records are filed under: `token` for cards, `id` for the rest. */
export const globalKeyField = (collection: Collection): string => KEYS[collection].global

export const globalKeyOf = (collection: Collection, record: AnyRecord) => String(record[KEYS[collection].global as keyof AnyRecord])

/**
 * The name a record is looked up by: its reference or alias with card numbers masked, as the state
 * file keeps it (storable.ts), so that a look-up by the name as sent finds it after a restart too.
 */
function nameOf(collection: Collection, record: AnyRecord): string | undefined {
  const name = record[KEYS[collection].merchantName as keyof AnyRecord] as unknown
  return typeof name === 'string' ? nameKey(name) : undefined
}

const groupFields = (collection: Collection): readonly string[] => GROUPED_BY[collection as Grouped] ?? []

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

/**
 * Every merchant's records, each collection on a shelf of its own with the indexes requests look
 * records up by, so a look-up costs the same at 100,000 records as at ten. A change returns what
 * takes it back, for the store's change log.
 */
export class Shelves {
  private shelves = new Map<string, Map<Collection, Shelf<AnyRecord>>>()
  /** Global key → merchant, per collection: tells a foreign record from none at all. */
  private owners = new Map<Collection, Map<string, string>>()

  /**
   * Puts every record of a snapshot on the shelves, in place of what they held. In place, so a
   * change's undo, which holds these shelves, still takes it back after a reset was undone.
   */
  load(merchants: Record<string, Partial<MerchantRecords>>): void {
    this.shelves = new Map()
    this.owners = new Map()
    for (const [merchant, records] of Object.entries(merchants)) {
      for (const collection of COLLECTIONS) {
        for (const record of Object.values(records[collection] ?? {})) this.put(collection, merchant, record)
      }
    }
  }

  /** Every merchant's records as plain JSON, for a snapshot. */
  snapshot(): Record<string, Partial<MerchantRecords>> {
    const merchants: Record<string, Partial<MerchantRecords>> = {}
    for (const [merchant, shelves] of this.shelves) {
      const records: Partial<MerchantRecords> = {}
      for (const collection of COLLECTIONS) {
        records[collection] = Object.fromEntries(shelves.get(collection)?.records ?? []) as never
      }
      merchants[merchant] = records
    }
    return merchants
  }

  /** By global key or by the merchant's own name for the record; only the caller's records are returned. */
  find<C extends Collection>(collection: C, merchant: string, key: string): Lookup<Collections[C]> {
    const shelf = this.shelf(merchant, collection, false)
    const byName = shelf?.names.get(nameKey(key))?.[0]
    const record = shelf?.records.get(key) ?? (byName === undefined ? undefined : shelf?.records.get(byName))
    if (record) return {found: 'own', record: record as Collections[C]}
    const owner = this.owners.get(collection)?.get(key)
    return owner !== undefined && owner !== merchant ? {found: 'foreign'} : {found: 'none'}
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
    return this.shelf(merchant, 'refunds', false)?.sums.get(`${SUMMED.refunds.field} ${purchaseId}`) ?? 0
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

  merchants(): string[] {
    return [...this.shelves.keys()]
  }

  /** Adds the record, or replaces the one with the same global key; returns what takes it back. */
  save(collection: Collection, merchant: string, record: AnyRecord): () => void {
    const key = globalKeyOf(collection, record)
    const previous = this.shelf(merchant, collection, true).records.get(key)
    this.put(collection, merchant, record)
    return () => (previous ? this.put(collection, merchant, previous) : this.delete(collection, merchant, key))
  }

  /**
   * Replaces the record with one dated otherwise (a fixture dated in the past) and files it among
   * the others by its date: a list is read by position, in date order (paging.ts). A stable sort,
   * so records of one instant keep the order they were made in; what takes it back restores both.
   */
  saveDated(collection: DatedCollection, merchant: string, record: AnyRecord): () => void {
    const shelf = this.shelf(merchant, collection, true)
    const order = [...shelf.records.keys()]
    const key = globalKeyOf(collection, record)
    const previous = shelf.records.get(key)
    this.put(collection, merchant, record)
    const field = DATE_FIELDS[collection]
    const time = (held: AnyRecord) => Date.parse(String(held[field as keyof AnyRecord]))
    const sorted = [...shelf.records.entries()].sort(([, a], [, b]) => time(a) - time(b))
    shelf.records.clear()
    for (const [held, value] of sorted) shelf.records.set(held, value)
    shelf.removed()
    return () => (previous ? this.restoreOrder(collection, merchant, previous, order) : this.delete(collection, merchant, key))
  }

  /** Removes the record; what takes it back puts it again in its place in the order of creation. */
  remove(collection: Collection, merchant: string, key: string): () => void {
    const previous = this.shelf(merchant, collection, false)?.records.get(key)
    if (!previous) return () => {}
    const order = [...this.shelf(merchant, collection, true).records.keys()]
    this.delete(collection, merchant, key)
    return () => this.restoreOrder(collection, merchant, previous, order)
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
