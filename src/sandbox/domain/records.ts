/**
 * The records the sandbox stores and returns, field for field as the gateway sends them.
 * They hold no CVV and no full card number: only the masked number is ever kept.
 */
export interface CardRecord {
  token: string
  card_holder: string
  card_number: string
  /** End of the expiry month, `2030-02-28`. */
  card_expiry: string
  card_type: string
  card_category: string
  card_subcategory: string
  card_issuer: string
  card_country: string
  authorized: boolean
  transaction_count: number
  alias: string | null
}

export interface PurchaseRecord {
  id: string
  authorization: string | null
  card_number: string
  card_holder: string
  card_expiry: string
  card_type: string
  card_category: string
  card_subcategory: string
  card_token: string
  amount: number
  decimal_amount: number
  successful: boolean
  message: string
  reference: string
  currency: string
  /** The day it was captured (a purchase captured at once: its own day); null while an authorization is uncaptured. */
  settlement_date: string | null
  transaction_date: string
  /** `Recurring` for the charges of subscriptions and payment plans (the contract's §2.3); no recorded purchase made through the API has one. */
  source?: 'Recurring'
  response_code: string
  transaction_id: string
  /** False for an authorization until it is captured, and for a decline. */
  captured: boolean
  /** What was captured: the amount, or part of it; 0 when declined, uncaptured or voided. */
  captured_amount: number
  /** The id without its dashes until a later capture gives it 12 hex digits; null when declined. */
  rrn: string | null
  /** `M` when a CVV came with the purchase (the sandbox never judges one), `U` when none did. */
  cvv_match: 'M' | 'U'
  /** The merchant's keys as sent, and the gateway's own (`original_amount` once incremented). */
  metadata: Record<string, string>
  addendum_data: Record<string, never>
}

export interface RefundRecord {
  id: string
  /** The Unix time in seconds of the refund, as text. */
  authorization: string
  /** Negative, as the contract shows it. */
  amount: number
  refunded: string
  message: string
  card_holder: string
  card_number: string
  card_expiry: string
  card_type: string
  successful: boolean
  transaction_date: string
  response_code: string
  reference: string
  /** The refund's own id, as the live gateway sends it: nothing in a refund's answer names its purchase. */
  transaction_id: string
  currency: string
  /** The day after the refund. */
  settlement_date: string
  /** The merchant's keys as sent. */
  metadata: Record<string, string>
  /** True for an unmatched refund, which names no purchase but a card. */
  standalone: boolean
  rrn: string
  /** The refunded purchase's id (null for an unmatched refund): kept for its refundable balance, never part of an answer (refundView). */
  purchase_id: string | null
}

export interface PlanRecord {
  id: string
  name: string
  reference: string
  description: string
  amount: number
  currency: string
  created_at: string
}

export interface AddressFields {
  address: string | null
  city: string | null
  state: string | null
  postcode: string | null
  country: string | null
}

export interface CustomerRecord {
  id: string
  reference: string
  first_name: string
  last_name: string
  email: string
  ip_address: string | null
  created_at: string
  card_token: string
  /** Returned on creation only (contract §4, endpoints 10 and 11). */
  address: AddressFields
}

export interface SubscriptionRecord {
  id: string
  /** The customer's id. */
  customer: string
  /** The plan's id. */
  plan: string
  frequency: string
  start_date: string
  end_date: string | null
  next_billing_date: string | null
  reference: string
  last_status: string
  is_active: boolean
  created_at: string
}

export interface WebHookRecord {
  id: string
  name: string | null
  address: string
  /** `*` or a list of event names. */
  events: string | string[]
  mode: 'Test' | 'Live'
  authentication_username: string | null
  /** Sent with each delivery; never part of an answer. */
  authentication_password: string | null
  created_at: string
}

export const PURCHASE_FIELDS = [
  'id', 'authorization', 'card_number', 'card_holder', 'card_expiry', 'card_type', 'card_category', 'card_subcategory',
  'card_token', 'amount', 'decimal_amount', 'successful', 'message', 'reference', 'currency', 'settlement_date',
  'transaction_date', 'response_code', 'transaction_id', 'captured', 'captured_amount', 'rrn', 'cvv_match',
  'metadata', 'addendum_data',
] as const satisfies readonly (keyof PurchaseRecord)[]

export const REFUND_FIELDS = [
  'id', 'authorization', 'amount', 'refunded', 'message', 'card_holder', 'card_number', 'card_expiry',
  'card_type', 'successful', 'transaction_date', 'response_code', 'reference', 'transaction_id', 'currency',
  'settlement_date', 'metadata', 'standalone', 'rrn',
] as const satisfies readonly (keyof RefundRecord)[]

/** A voided purchase's `message`, and a voided refund's `message` and `refunded` (gateway-beyond.md §5, §6). */
export const VOIDED = 'Voided'

/** The live gateway's retrieval reference number: the id without its dashes (`071P1VQZVNTX`). */
export const rrnOf = (id: string): string => id.replaceAll('-', '')

/** A refund as the gateway answers with it: without the link to its purchase that the sandbox keeps. */
export function refundView(refund: RefundRecord): Omit<RefundRecord, 'purchase_id'> {
  const {purchase_id: _purchase, ...view} = refund
  return view
}

export const CARD_FIELDS = [
  'token', 'card_holder', 'card_number', 'card_expiry', 'card_type', 'card_category', 'card_subcategory',
  'card_issuer', 'card_country', 'authorized', 'transaction_count', 'alias',
] as const satisfies readonly (keyof CardRecord)[]

export const PLAN_FIELDS = [
  'id', 'name', 'reference', 'description', 'amount', 'currency', 'subscription_count', 'created_at',
] as const

/** What a customer answer carries of the record: not `ip_address`, which the request may give but no recorded answer shows. */
export const CUSTOMER_FIELDS = [
  'id', 'reference', 'first_name', 'last_name', 'email', 'created_at', 'card_token',
] as const satisfies readonly (keyof CustomerRecord)[]

export const SUBSCRIPTION_FIELDS = [
  'id', 'customer', 'plan', 'frequency', 'start_date', 'end_date', 'next_billing_date', 'reference', 'last_status',
  'is_active', 'created_at',
] as const satisfies readonly (keyof SubscriptionRecord)[]

/** What a web hook answer carries: not `created_at`, which the gateway keeps for its lists' order but no recorded answer shows. */
export const WEB_HOOK_FIELDS = [
  'id', 'name', 'address', 'events', 'mode', 'authentication_username',
] as const satisfies readonly (keyof WebHookRecord)[]

/**
 * The body of a refused request: every field of the record, null unless the request (or the
 * record it refers to) gave a value for it. Contract §7: "fields that were not assigned set to null".
 */
export function echo(fields: readonly string[], values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = Object.fromEntries(fields.map((field) => [field, null]))
  for (const [field, value] of Object.entries(values)) if (value !== undefined) body[field] = value
  return body
}
