import {type Batch, type CardNotice, type Change, ChangeLog} from './change-log.js'
import {DeliveryQueue, type QueuedDelivery} from './delivery-queue.js'
import {forbidden, notFound} from './errors.js'
import type {CardRecord} from './records.js'
import {type Collection, type Collections, type DatedCollection, type Grouped, GROUPED_BY, globalKeyOf, merchantNameOf, type MerchantRecords, type NameHashes} from './collections.js'
import {type Lookup, type Positional, Shelves} from './shelves.js'
import {isMaskedInFile, keyedName, newNameSecret} from './storable.js'

/** Plain JSON, the form of a snapshot on disk. Keys that are absent have their default. */
export interface StoreState {
  merchants: Record<string, Partial<MerchantRecords>>
  /** The virtual clock's date; absent until it was first read. */
  today?: string
  /** `token expiry` of each card whose expiry notices went out, so each is sent once. */
  cardNotices?: Record<string, CardNotice[]>
  /** Web hook deliveries not yet made, oldest first. */
  deliveries?: QueuedDelivery[]
  /** Each run of this data, oldest first: a start of the gateway on it, or a reset (which drops those before). */
  runs?: Run[]
  /** How many changes the data has had since it began (or was reset): with a run's id, where it stood. */
  changes?: number
  /** The key the names that hold a card number are hashed with (storable.ts keyedName); absent until the first such name. */
  nameSecret?: string
  /** What each record whose name holds a card number is found by; a record without one is found by its name masked. */
  nameHashes?: NameHashes
}

/** One run of the data: its id, and how many changes the data had had when it began. */
export interface Run {
  id: string
  from: number
}

const emptyState = (): StoreState => ({merchants: {}})

/**
 * The local gateway's state: the records and their indexes (shelves.ts), the virtual date, the
 * card notices sent and the delivery queue (delivery-queue.ts). Every change is made through
 * `apply`, which records it with what takes it back in the change log the journal saves
 * (change-log.ts).
 */
export class Store {
  private readonly shelves = new Shelves()
  private todayDate: string | undefined
  private notices = new Map<string, CardNotice[]>()
  private readonly queue = new DeliveryQueue()
  private readonly log = new ChangeLog()
  private runs: Run[] = []
  private changes = 0
  private nameSecret: string | undefined

  constructor(state: StoreState = emptyState()) {
    this.load(state)
  }

  /** The whole state as plain JSON, for a snapshot. */
  snapshot(): StoreState {
    const state: StoreState = {merchants: this.shelves.snapshot()}
    if (this.todayDate !== undefined) state.today = this.todayDate
    if (this.notices.size > 0) state.cardNotices = Object.fromEntries(this.notices)
    if (this.queue.size > 0) state.deliveries = this.queue.all()
    const latest = this.runs.at(-1)
    if (latest) Object.assign(state, {runs: this.runs.map((run) => ({...run})), changes: this.changes})
    if (this.nameSecret !== undefined) Object.assign(state, {nameSecret: this.nameSecret, nameHashes: this.shelves.nameHashes()})
    return state
  }

  /**
   * By global key or by the merchant's own name for the record; only the caller's records are
   * returned. A name that holds a card number is found by its keyed hash: `ref-4111111000071111`
   * never finds the record of `ref-4111111111111111`, which the state file holds masked alike.
   */
  find<C extends Collection>(collection: C, merchant: string, key: string): Lookup<Collections[C]> {
    const hashed = this.nameSecret !== undefined && isMaskedInFile(key) ? keyedName(this.nameSecret, key) : undefined
    return this.shelves.find(collection, merchant, key, hashed)
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
    return this.shelves.countRelated(collection, merchant, field, value)
  }

  /** The merchant's records whose `field` is `value`, in the order they were created. */
  related<C extends Grouped>(collection: C, merchant: string, field: (typeof GROUPED_BY)[C][number], value: string): Collections[C][] {
    return this.shelves.related(collection, merchant, field, value)
  }

  /** What a purchase has had refunded by approved refunds. */
  refundedOf(merchant: string, purchaseId: string): number {
    return this.shelves.refundedOf(merchant, purchaseId)
  }

  /** In the order they were created, by position. */
  ordered<C extends Collection>(collection: C, merchant: string): Positional<Collections[C]> {
    return this.shelves.ordered(collection, merchant)
  }

  /** In the order they were created. */
  list<C extends Collection>(collection: C, merchant: string): Collections[C][] {
    return this.shelves.list(collection, merchant)
  }

  merchantsWithRecords(): string[] {
    return this.shelves.merchants()
  }

  /** Adds the record, or replaces the one with the same global key; one whose name holds a card number is found by the name's keyed hash. */
  save<C extends Collection>(collection: C, merchant: string, record: Collections[C]): void {
    const name = merchantNameOf(collection, record)
    if (name === undefined || !isMaskedInFile(name)) return this.apply({op: 'put', collection, merchant, record})
    if (this.nameSecret === undefined) this.apply({op: 'nameSecret', secret: newNameSecret()})
    this.apply({op: 'put', collection, merchant, record, nameHash: keyedName(this.nameSecret!, name)})
  }

  /** Replaces the record with one dated otherwise, filed among the others by its date (shelves.ts saveDated). */
  saveDated<C extends DatedCollection>(collection: C, merchant: string, record: Collections[C]): void {
    this.apply({op: 'dated', collection, merchant, record})
  }

  remove<C extends Collection>(collection: C, merchant: string, record: Collections[C]): void {
    this.apply({op: 'remove', collection, merchant, key: globalKeyOf(collection, record)})
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
    return this.queue.all()
  }

  enqueueDelivery(delivery: QueuedDelivery): void {
    this.apply({op: 'enqueue', delivery})
  }

  recordAttempt(id: string, error: string | null): void {
    const delivery = this.queue.get(id)
    if (delivery) this.apply({op: 'attempted', id, attempts: delivery.attempts + 1, last_error: error})
  }

  dequeueDelivery(id: string): void {
    if (this.queue.get(id)) this.apply({op: 'dequeue', id})
  }

  /**
   * What the data is now (design.md §5, X-Sandbox-Instance): the run it is in and how many changes
   * it has had, `<run>.<changes>`. Named by what it holds, not by the file it came from: a copy of
   * a --state file taken before a batch, started again, begins a run of its own at the count the
   * copy holds, so what the batch was answered with is not held by it (heldRuns).
   */
  get instance(): string | undefined {
    const latest = this.runs.at(-1)
    return latest && `${latest.id}.${this.changes}`
  }

  /** A start of the gateway on this data: not a change to journal, it goes with the next snapshot. */
  beginRun(id: string): void {
    this.runs.push({id, from: this.changes})
  }

  /**
   * The runs this data holds, oldest first, each with how many changes the data had when it ended
   * (the next run began from a copy of it, or the data as it is now): what the data answered as
   * `<run>.<n>` it still holds while that run is here and n is at most its `until`.
   */
  heldRuns(): {id: string; until: number}[] {
    return this.runs.map((run, index) => ({id: run.id, until: this.runs[index + 1]?.from ?? this.changes}))
  }

  /** Empties the store: the data is another from now on, under the name given. */
  reset(instance: string): void {
    this.apply({op: 'reset', instance})
  }

  /** The changes since the last call, for the journal; the store starts a new batch. */
  takeBatch(): Batch {
    return this.log.take()
  }

  /** Takes back a batch's changes, latest first: a change that could not be saved is not applied. */
  revert(batch: Batch): void {
    this.log.revert(batch)
  }

  /** Replays changes read from a journal. */
  replay(changes: readonly Change[]): void {
    this.log.unrecorded(() => {
      for (const change of changes) this.apply(change)
    })
  }

  private apply(change: Change): void {
    const before = this.changes
    const undo = this.applyChange(change)
    this.changes++
    this.log.record(change, () => {
      undo()
      this.changes = before
    })
  }

  /** Makes the change and returns what takes it back. */
  private applyChange(change: Change): () => void {
    switch (change.op) {
      case 'put':
        return this.shelves.save(change.collection, change.merchant, change.record, change.nameHash)
      case 'remove':
        return this.shelves.remove(change.collection, change.merchant, change.key)
      case 'dated':
        return this.shelves.saveDated(change.collection, change.merchant, change.record)
      case 'nameSecret': {
        const previous = this.nameSecret
        this.nameSecret = change.secret
        return () => (this.nameSecret = previous)
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
      case 'enqueue':
        return this.queue.enqueue(change.delivery)
      case 'attempted':
        return this.queue.attempted(change.id, change.attempts, change.last_error)
      case 'dequeue':
        return this.queue.dequeue(change.id)
      case 'reset': {
        const previous = this.snapshot()
        this.load({...emptyState(), runs: [{id: change.instance, from: 0}]})
        return () => this.load(previous)
      }
    }
  }

  private load(state: StoreState): void {
    this.shelves.load(state.merchants, state.nameHashes)
    this.nameSecret = state.nameSecret
    this.todayDate = state.today
    this.notices = new Map(Object.entries(state.cardNotices ?? {}))
    this.queue.load(state.deliveries ?? [])
    this.runs = state.runs?.map((run) => ({...run})) ?? []
    this.changes = state.changes ?? 0
  }
}
