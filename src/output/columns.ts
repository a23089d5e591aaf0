/**
 * How a table shows each record, one list per record type. Kept apart from the zod schemas so a
 * command can name its columns without loading zod at start-up (about 80 ms).
 */

/** How a table shows one field of a record. */
export interface Column {
  label: string
  field: string
  /**
   * `card`: a masked number, in a table by its last four (`…4242`); `datetime`: the date and time
   * as the record gives them; `match`: a refund's gw_match (refund list --purchase), its word and
   * reason; `refunds`: a purchase's gw_refunded or gw_left_to_refund, an amount or a range in a
   * table, what gw knows and why in the field/value list.
   */
  format?: 'money' | 'outcome' | 'date' | 'datetime' | 'boolean' | 'card' | 'match' | 'refunds'
  /**
   * How much a table needs it when columns must go to fit the terminal: the highest go first, the
   * last of equals first. 1 (the default) for what a support task looks for, 3 for what it seldom does;
   * 0 for the id the next command takes (gw refund create --transaction-id), the last to go and kept whole.
   */
  priority?: 0 | 1 | 2 | 3
}

export const cardColumns: Column[] = [
  {label: 'Token', field: 'token'},
  {label: 'Alias', field: 'alias'},
  {label: 'Card holder', field: 'card_holder'},
  {label: 'Card', field: 'card_number', format: 'card'},
  {label: 'Expiry', field: 'card_expiry', format: 'date'},
  {label: 'Type', field: 'card_type', priority: 2},
  {label: 'Category', field: 'card_category', priority: 3},
  {label: 'Issuer', field: 'card_issuer', priority: 3},
  {label: 'Country', field: 'card_country', priority: 3},
  {label: 'Transactions', field: 'transaction_count', priority: 2},
]

// Purchases and refunds in the order a support task reads them: when, which order, how much,
// what came of it, on which card; then the id to act on (refund, look up), kept to the last; whose;
// then what is seldom looked for, left out first.
export const purchaseColumns: Column[] = [
  {label: 'Date', field: 'transaction_date', format: 'datetime'},
  {label: 'Reference', field: 'reference'},
  {label: 'Amount', field: 'amount', format: 'money'},
  {label: 'Outcome', field: 'message', format: 'outcome'},
  {label: 'Card', field: 'card_number', format: 'card'},
  {label: 'Id', field: 'id', priority: 0},
  {label: 'Card holder', field: 'card_holder', priority: 2},
  {label: 'Settlement date', field: 'settlement_date', format: 'date', priority: 3},
  {label: 'Source', field: 'source', priority: 3},
  {label: 'Authorization', field: 'authorization', priority: 3},
  {label: 'Card token', field: 'card_token', priority: 3},
  {label: 'Expiry', field: 'card_expiry', format: 'date', priority: 3},
]

/** purchase get: one purchase at a terminal also shows what has been refunded of it and what is left (gw's own fields, never in JSON). */
export const purchaseGetColumns: Column[] = [...purchaseColumns, {label: 'Refunded', field: 'gw_refunded', format: 'refunds'}, {label: 'Left to refund', field: 'gw_left_to_refund', format: 'refunds'}]

export const refundColumns: Column[] = [
  {label: 'Date', field: 'transaction_date', format: 'datetime'},
  {label: 'Reference', field: 'reference'},
  {label: 'Amount', field: 'amount', format: 'money'},
  {label: 'Outcome', field: 'message', format: 'outcome'},
  {label: 'Card', field: 'card_number', format: 'card'},
  {label: 'Id', field: 'id', priority: 0},
  {label: 'Card holder', field: 'card_holder', priority: 2},
  {label: 'Card type', field: 'card_type', priority: 3},
  {label: 'Response code', field: 'response_code', priority: 3},
  {label: 'Authorization', field: 'authorization', priority: 3},
]

/** refund list: with --purchase, first whether each refund is certain, likely, possible or another purchase's, and why (its gw_match); without, no record has one and the column is left out. */
export const refundListColumns: Column[] = [{label: 'Match', field: 'gw_match', format: 'match'}, ...refundColumns]

export const planColumns: Column[] = [
  {label: 'Id', field: 'id'},
  {label: 'Name', field: 'name'},
  {label: 'Reference', field: 'reference'},
  {label: 'Description', field: 'description'},
  {label: 'Amount', field: 'amount', format: 'money'},
  {label: 'Subscriptions', field: 'subscription_count'},
]

export const customerColumns: Column[] = [
  {label: 'Id', field: 'id'},
  {label: 'Reference', field: 'reference'},
  {label: 'First name', field: 'first_name'},
  {label: 'Last name', field: 'last_name'},
  {label: 'Email', field: 'email'},
  {label: 'Card token', field: 'card_token', priority: 3},
  {label: 'Created', field: 'created_at', format: 'datetime', priority: 2},
]

export const subscriptionColumns: Column[] = [
  {label: 'Id', field: 'id'},
  {label: 'Reference', field: 'reference'},
  {label: 'Customer', field: 'customer'},
  {label: 'Plan', field: 'plan'},
  {label: 'Frequency', field: 'frequency'},
  {label: 'Active', field: 'is_active', format: 'boolean'},
  {label: 'Last status', field: 'last_status'},
  {label: 'Start date', field: 'start_date', format: 'date'},
  {label: 'Next billing', field: 'next_billing_date', format: 'date'},
  {label: 'End date', field: 'end_date', format: 'date'},
]

export const webHookColumns: Column[] = [
  {label: 'Id', field: 'id'},
  {label: 'Name', field: 'name'},
  {label: 'Address', field: 'address'},
  {label: 'Events', field: 'events'},
  {label: 'Mode', field: 'mode'},
  {label: 'Username', field: 'authentication_username'},
  {label: 'Created', field: 'created_at'},
]

export const sandboxClockColumns: Column[] = [{label: 'Today', field: 'today'}]

export const clockAdvanceColumns: Column[] = [
  {label: 'New date', field: 'today'},
  {label: 'From', field: 'from'},
  {label: 'Days', field: 'days'},
  {label: 'Charges approved', field: 'charges_approved'},
  {label: 'Charges declined', field: 'charges_declined'},
  {label: 'Events', field: 'events'},
  {label: 'Web hook deliveries queued', field: 'deliveries_queued'},
]

export const triggerColumns: Column[] = [
  {label: 'Event', field: 'event'},
  {label: 'Delivered to', field: 'delivered_to'},
  {label: 'Payload', field: 'payload'},
]

/**
 * gw report: a day's totals in one currency. The sums are what an operator reads the day by (Net
 * and Refunded stay at 80 columns); of the counts, declines go last, the others first.
 */
export const reportColumns: Column[] = [
  {label: 'Day', field: 'day'},
  {label: 'Currency', field: 'currency'},
  {label: 'Approved', field: 'purchases_approved', priority: 3},
  {label: 'Approved amount', field: 'purchases_approved_amount', format: 'money'},
  {label: 'Declined', field: 'purchases_declined', priority: 2},
  {label: 'Refunds', field: 'refunds', priority: 3},
  {label: 'Refunded', field: 'refunds_amount', format: 'money'},
  {label: 'Net', field: 'net', format: 'money'},
]

/** A request the local gateway answered (gw sandbox logs): one line each on a terminal, in this order. */
export const requestLogColumns: Column[] = [
  {label: 'Time', field: 'time'},
  {label: 'Merchant', field: 'merchant'},
  {label: 'Method', field: 'method'},
  {label: 'Path', field: 'path'},
  {label: 'Status', field: 'status'},
  {label: 'Ms', field: 'ms'},
  {label: 'Reference', field: 'reference'},
  {label: 'Card number', field: 'card_number'},
  {label: 'Error', field: 'error'},
  {label: 'Request id', field: 'request_id'},
]

/**
 * gw sandbox deliveries: what went where and what came back. The id (a UUID, 36 columns, for gw
 * sandbox redeliver) goes before the address does, at 80 columns.
 */
export const deliveryColumns: Column[] = [
  {label: 'Id', field: 'id', priority: 2},
  {label: 'Event', field: 'event'},
  {label: 'Status', field: 'status'},
  {label: 'Address', field: 'hook'},
  {label: 'Last answer', field: 'last_answer'},
  {label: 'Attempts', field: 'attempts', priority: 2},
  {label: 'Last attempt', field: 'last_attempt_at', format: 'datetime', priority: 3},
]
