import {
  type AnyRecord,
  COLLECTIONS,
  type Collection,
  type Collections,
  DATE_FIELDS,
  type DatedCollection,
  GROUPED_BY,
  type Grouped,
  type MerchantRecords,
  SUMMED,
  globalKeyOf,
  groupFields,
  indexedName,
  keyedIndex,
  merchantNameOf,
  type NameHashes,
  plainIndex,
  summedOf,
} from './collections.js'
import type {RefundRecord} from './records.js'
import {Shelf} from './shelf.js'
import {nameKey} from './storable.js'

/**
 * The hash a record put again keeps: the one it has, while its name is the same as held (one read
 * from the state file, its name masked, then charged or dated); none under another name.
 */
function keptHash(collection: Collection, shelf: Shelf<AnyRecord>, key: string, record: AnyRecord): string | undefined {
  const held = shelf.records.get(key)
  return held !== undefined && merchantNameOf(collection, held) === merchantNameOf(collection, record) ? shelf.hashes.get(key) : undefined
}

/** `foreign`: the key is another merchant's record, which the caller may not see. */
export type Lookup<T> = {found: 'own'; record: T} | {found: 'foreign'} | {found: 'none'}

/** Records read by position without copying the rest: a page of 10 from 100,000 reads 10. */
export interface Positional<T> {
  readonly length: number
  at(index: number): T | undefined
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
   * Puts every record of a snapshot on the shelves, in place of what they held, each found by the
   * keyed hash of its name where the snapshot has one. In place, so a change's undo, which holds
   * these shelves, still takes it back after a reset was undone.
   */
  load(merchants: Record<string, Partial<MerchantRecords>>, hashes: NameHashes = {}): void {
    this.shelves = new Map()
    this.owners = new Map()
    for (const [merchant, records] of Object.entries(merchants)) {
      for (const collection of COLLECTIONS) {
        const hashOf = hashes[merchant]?.[collection] ?? {}
        for (const [key, record] of Object.entries(records[collection] ?? {})) this.put(collection, merchant, record, hashOf[key])
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

  /** The keyed hashes of the names that hold a card number, by merchant, collection and global key; empty when none does. */
  nameHashes(): NameHashes {
    const hashes: NameHashes = {}
    for (const [merchant, shelves] of this.shelves) {
      for (const [collection, shelf] of shelves) {
        if (shelf.hashes.size > 0) (hashes[merchant] ??= {})[collection] = Object.fromEntries(shelf.hashes)
      }
    }
    return hashes
  }

  /**
   * By global key or by the merchant's own name for the record; only the caller's records are
   * returned. A name that holds a card number is found by its keyed hash (`hashed`), or, for a
   * record saved before names had one, by the name masked, as the state file kept it.
   */
  find<C extends Collection>(collection: C, merchant: string, key: string, hashed?: string): Lookup<Collections[C]> {
    const shelf = this.shelf(merchant, collection, false)
    const byName = (hashed === undefined ? undefined : shelf?.names.get(keyedIndex(hashed))?.[0]) ?? shelf?.names.get(plainIndex(nameKey(key)))?.[0]
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
  save(collection: Collection, merchant: string, record: AnyRecord, nameHash?: string): () => void {
    const key = globalKeyOf(collection, record)
    const shelf = this.shelf(merchant, collection, true)
    const previous = shelf.records.get(key)
    const previousHash = shelf.hashes.get(key)
    this.put(collection, merchant, record, nameHash ?? keptHash(collection, shelf, key, record))
    return () => (previous ? this.put(collection, merchant, previous, previousHash) : this.delete(collection, merchant, key))
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
    const hash = shelf.hashes.get(key)
    this.put(collection, merchant, record, keptHash(collection, shelf, key, record))
    const field = DATE_FIELDS[collection]
    const time = (held: AnyRecord) => Date.parse(String(held[field as keyof AnyRecord]))
    const sorted = [...shelf.records.entries()].sort(([, a], [, b]) => time(a) - time(b))
    shelf.records.clear()
    for (const [held, value] of sorted) shelf.records.set(held, value)
    shelf.removed()
    return () => (previous ? this.restoreOrder(collection, merchant, previous, hash, order) : this.delete(collection, merchant, key))
  }

  /** Removes the record; what takes it back puts it again in its place in the order of creation. */
  remove(collection: Collection, merchant: string, key: string): () => void {
    const shelf = this.shelf(merchant, collection, false)
    const previous = shelf?.records.get(key)
    if (!shelf || !previous) return () => {}
    const order = [...shelf.records.keys()]
    const hash = shelf.hashes.get(key)
    this.delete(collection, merchant, key)
    return () => this.restoreOrder(collection, merchant, previous, hash, order)
  }

  /** `hash`: the keyed hash of the record's name, where the name holds a card number (or held one, and is read masked from the state file). */
  private put(collection: Collection, merchant: string, record: AnyRecord, hash: string | undefined): void {
    const shelf = this.shelf(merchant, collection, true)
    const key = globalKeyOf(collection, record)
    const previous = shelf.records.get(key)
    const previousHash = shelf.hashes.get(key)
    // Saved again under the same name and groups (a subscription after each charge), it keeps its place in them.
    const sameIndexes =
      previous !== undefined &&
      indexedName(collection, key, previous, previousHash) === indexedName(collection, key, record, hash) &&
      groupFields(collection).every((field) => previous[field as keyof AnyRecord] === record[field as keyof AnyRecord]) &&
      summedOf(collection, previous) === summedOf(collection, record)
    if (previous && !sameIndexes) this.unindex(collection, shelf, key, previous)
    shelf.records.set(key, record)
    shelf.hashed(key, hash)
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
    shelf.hashes.delete(key)
    shelf.removed()
    this.owners.get(collection)?.delete(key)
  }

  /** The record as it was, with its name's hash, each record in its place in `order`: a removal or a dating taken back. */
  private restoreOrder(collection: Collection, merchant: string, record: AnyRecord, hash: string | undefined, order: string[]): void {
    const shelf = this.shelf(merchant, collection, true)
    const key = globalKeyOf(collection, record)
    // A dating taken back finds the dated record still indexed: it gives way to the one it replaced.
    const held = shelf.records.get(key)
    if (held) this.unindex(collection, shelf, key, held)
    const current = new Map(shelf.records)
    current.set(key, record)
    shelf.records.clear()
    shelf.removed()
    for (const kept of order) {
      const value = current.get(kept)
      if (value) shelf.records.set(kept, value)
    }
    shelf.hashed(key, hash)
    this.index(collection, shelf, key, record)
    this.owners.get(collection)?.set(key, merchant)
  }

  private index(collection: Collection, shelf: Shelf<AnyRecord>, key: string, record: AnyRecord): void {
    const name = indexedName(collection, key, record, shelf.hashes.get(key))
    if (name !== undefined) {
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
    const name = indexedName(collection, key, record, shelf.hashes.get(key))
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
