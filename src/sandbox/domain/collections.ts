import type {
  CardRecord,
  CustomerRecord,
  PlanRecord,
  PurchaseRecord,
  RefundRecord,
  SubscriptionRecord,
  WebHookRecord,
} from './records.js'
import type {DirectDebitRecord, PaymentPlanRecord} from './payment-records.js'
import {VOIDED} from './records.js'
import {nameKey} from './storable.js'

/**
 * The collections a merchant's records are kept in, and what each is keyed, named, dated, grouped
 * and summed by: the facts the shelves index records by (shelves.ts), the state file's schema
 * checks and the change log names.
 */

export interface Collections {
  cards: CardRecord
  purchases: PurchaseRecord
  refunds: RefundRecord
  plans: PlanRecord
  customers: CustomerRecord
  subscriptions: SubscriptionRecord
  webhooks: WebHookRecord
  payment_plans: PaymentPlanRecord
  direct_debits: DirectDebitRecord
}
export type Collection = keyof Collections
export const COLLECTIONS = ['cards', 'purchases', 'refunds', 'plans', 'customers', 'subscriptions', 'webhooks', 'payment_plans', 'direct_debits'] as const satisfies Collection[]
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
  payment_plans: {global: 'id', merchantName: 'reference'},
  direct_debits: {global: 'id', merchantName: 'reference'},
} as const satisfies {[C in Collection]: {global: keyof Collections[C]; merchantName: keyof Collections[C]}}

/** The collections whose records carry the date they were made, and its field: lists page and filter by it. */
export const DATE_FIELDS = {
  purchases: 'transaction_date',
  refunds: 'transaction_date',
  customers: 'created_at',
  subscriptions: 'created_at',
  payment_plans: 'created_at',
  direct_debits: 'created_at',
} as const
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
export const SUMMED = {
  // A voided refund gives nothing back: the purchase may be refunded that much again.
  refunds: {field: 'purchase_id', of: (refund: RefundRecord) => (refund.successful && refund.refunded !== VOIDED ? Math.abs(refund.amount) : 0)},
} as const

/** The value a record adds to its group's running total, if its collection keeps one. */
export function summedOf(collection: Collection, record: AnyRecord): number | undefined {
  return collection === 'refunds' ? SUMMED.refunds.of(record as RefundRecord) : undefined
}

/** The field a collection's records are filed under: `token` for cards, `id` for the rest. */
export const globalKeyField = (collection: Collection): string => KEYS[collection].global

export const globalKeyOf = (collection: Collection, record: AnyRecord) => String(record[KEYS[collection].global as keyof AnyRecord])

/** The name the merchant gave a record (its reference or alias), as the record holds it: whole as sent, or masked as read from the state file. */
export function merchantNameOf(collection: Collection, record: AnyRecord): string | undefined {
  const name = record[KEYS[collection].merchantName as keyof AnyRecord] as unknown
  return typeof name === 'string' ? name : undefined
}

/**
 * The name a record is looked up by when it has no keyed hash: its reference or alias with card
 * numbers masked, as the state file keeps it (storable.ts), so that a look-up by the name as sent
 * finds it after a restart too.
 */
export function nameOf(collection: Collection, record: AnyRecord): string | undefined {
  const name = merchantNameOf(collection, record)
  return name === undefined ? undefined : nameKey(name)
}

/** Merchant → collection → global key → the keyed hash of the record's name (Shelves.nameHashes). */
export type NameHashes = Record<string, Partial<Record<Collection, Record<string, string>>>>

/** Names and keyed hashes share one index, each under a prefix of its own: a name can never be taken for a hash. */
export const plainIndex = (name: string) => `name ${name}`
export const keyedIndex = (hash: string) => `keyed ${hash}`

/**
 * What a record is found by besides its global key: the keyed hash of its name when it has one,
 * else its name as the state file keeps it (masked); none when its name is its global key.
 */
export function indexedName(collection: Collection, key: string, record: AnyRecord, hash: string | undefined): string | undefined {
  if (hash !== undefined) return keyedIndex(hash)
  const name = nameOf(collection, record)
  return name === undefined || name === key ? undefined : plainIndex(name)
}

export const groupFields = (collection: Collection): readonly string[] => GROUPED_BY[collection as Grouped] ?? []
