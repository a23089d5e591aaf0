import type {QueuedDelivery} from './delivery.js'
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

export type MerchantRecords = {[C in Collection]: Record<string, Collections[C]>}

/** Plain JSON, so persist.ts can write it as it is. Keys that are absent have their default. */
export interface StoreState {
  merchants: Record<string, MerchantRecords>
  /** The virtual clock's date; absent until it was first read. */
  today?: string
  /** `token expiry` of each card whose expiry notices went out, so each is sent once. */
  cardNotices?: Record<string, CardNotice[]>
  /** Web hook deliveries not yet made, oldest first. */
  deliveries?: QueuedDelivery[]
}

type CardNotice = 'card:expiring' | 'card:expired'

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

/** `foreign`: the key is another merchant's record, which the caller may not see. */
export type Lookup<T> = {found: 'own'; record: T} | {found: 'foreign'} | {found: 'none'}

export const emptyState = (): StoreState => ({merchants: {}})

const emptyRecords = (): MerchantRecords => ({
  cards: {},
  purchases: {},
  refunds: {},
  plans: {},
  customers: {},
  subscriptions: {},
  webhooks: {},
})

/** A state file from before the recurring area lacks its collections. */
function completeState(state: StoreState): StoreState {
  const merchants = Object.fromEntries(
    Object.entries(state.merchants).map(([merchant, records]) => [merchant, {...emptyRecords(), ...records}]),
  )
  return {...state, merchants}
}

export class Store {
  /** Bumped by every change, so the server knows when to persist. */
  revision = 0

  constructor(private state: StoreState = emptyState()) {
    this.state = completeState(state)
  }

  snapshot(): StoreState {
    return this.state
  }

  /** By global key or by the merchant's own name for the record; only the caller's records are returned. */
  find<C extends Collection>(collection: C, merchant: string, key: string): Lookup<Collections[C]> {
    const own = this.recordsOf(merchant, collection)
    const {merchantName} = KEYS[collection]
    const record = Object.hasOwn(own, key)
      ? own[key]
      : Object.values(own).find((candidate) => candidate[merchantName as keyof Collections[C]] === key)
    if (record) return {found: 'own', record}
    const isForeign = Object.entries(this.state.merchants).some(
      ([other, records]) => other !== merchant && Object.hasOwn(records[collection], key),
    )
    return isForeign ? {found: 'foreign'} : {found: 'none'}
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

  refundsOf(merchant: string, purchaseId: string): RefundRecord[] {
    return Object.values(this.recordsOf(merchant, 'refunds')).filter((refund) => refund.transaction_id === purchaseId)
  }

  /** Adds the record, or replaces the one with the same global key. */
  save<C extends Collection>(collection: C, merchant: string, record: Collections[C]): void {
    const records = (this.state.merchants[merchant] ??= emptyRecords())[collection] as Record<string, Collections[C]>
    records[String(record[KEYS[collection].global as keyof Collections[C]])] = record
    this.revision++
  }

  /** In the order they were created. */
  list<C extends Collection>(collection: C, merchant: string): Collections[C][] {
    return Object.values(this.recordsOf(merchant, collection))
  }

  remove<C extends Collection>(collection: C, merchant: string, record: Collections[C]): void {
    const records = this.recordsOf(merchant, collection)
    delete records[String(record[KEYS[collection].global as keyof Collections[C]])]
    this.revision++
  }

  merchantsWithRecords(): string[] {
    return Object.keys(this.state.merchants)
  }

  get today(): string | undefined {
    return this.state.today
  }

  set today(date: string) {
    if (this.state.today === date) return
    this.state.today = date
    this.revision++
  }

  cardNoticesSent(card: CardRecord): CardNotice[] {
    return this.state.cardNotices?.[`${card.token} ${card.card_expiry}`] ?? []
  }

  recordCardNotice(card: CardRecord, notice: CardNotice): void {
    const notices = (this.state.cardNotices ??= {})
    notices[`${card.token} ${card.card_expiry}`] = [...this.cardNoticesSent(card), notice]
    this.revision++
  }

  /** The live queue: the delivery module changes it in place and calls `changed()`. */
  deliveryQueue(): QueuedDelivery[] {
    return (this.state.deliveries ??= [])
  }

  changed(): void {
    this.revision++
  }

  reset(): void {
    this.state = emptyState()
    this.revision++
  }

  private recordsOf<C extends Collection>(merchant: string, collection: C): Record<string, Collections[C]> {
    return (this.state.merchants[merchant]?.[collection] ?? {}) as Record<string, Collections[C]>
  }
}
