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
  settlement_date: string
  transaction_date: string
  /** `Recurring` for the charges of subscriptions. */
  source: 'API' | 'Recurring'
  response_code: string
  transaction_id: string
  captured: boolean
  /** The amount when approved, 0 when declined. */
  captured_amount: number
  /** The id without its dashes, as the live gateway's retrieval reference number. */
  rrn: string
  /** `M` when a CVV came with the purchase (the sandbox never judges one), `U` when none did. */
  cvv_match: 'M' | 'U'
  metadata: Record<string, never>
  addendum_data: Record<string, never>
}

export interface RefundRecord {
  id: string
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
  metadata: Record<string, never>
  /** Always false: every refund here refunds a purchase. */
  standalone: false
  rrn: string
  /** The refunded purchase's id: kept for its refundable balance, never part of an answer (refundView). */
  purchase_id: string
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
  'transaction_date', 'source', 'response_code', 'transaction_id', 'captured', 'captured_amount', 'rrn', 'cvv_match',
  'metadata', 'addendum_data',
] as const satisfies readonly (keyof PurchaseRecord)[]

export const REFUND_FIELDS = [
  'id', 'authorization', 'amount', 'refunded', 'message', 'card_holder', 'card_number', 'card_expiry',
  'card_type', 'successful', 'transaction_date', 'response_code', 'reference', 'transaction_id', 'currency',
  'settlement_date', 'metadata', 'standalone', 'rrn',
] as const satisfies readonly (keyof RefundRecord)[]

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

export const CUSTOMER_FIELDS = [
  'id', 'reference', 'first_name', 'last_name', 'email', 'ip_address', 'created_at', 'card_token',
] as const satisfies readonly (keyof CustomerRecord)[]

export const SUBSCRIPTION_FIELDS = [
  'id', 'customer', 'plan', 'frequency', 'start_date', 'end_date', 'next_billing_date', 'reference', 'last_status',
  'is_active', 'created_at',
] as const satisfies readonly (keyof SubscriptionRecord)[]

export const WEB_HOOK_FIELDS = [
  'id', 'name', 'address', 'events', 'mode', 'authentication_username', 'created_at',
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
