/**
 * How a table shows each record, one list per record type. Kept apart from the zod schemas so a
 * command can name its columns without loading zod at start-up (about 80 ms).
 */

/** How a table shows one field of a record. */
export interface Column {
  label: string
  field: string
  format?: 'money' | 'outcome' | 'date' | 'boolean'
}

export const cardColumns: Column[] = [
  {label: 'Token', field: 'token'},
  {label: 'Alias', field: 'alias'},
  {label: 'Card holder', field: 'card_holder'},
  {label: 'Card number', field: 'card_number'},
  {label: 'Expiry', field: 'card_expiry', format: 'date'},
  {label: 'Type', field: 'card_type'},
  {label: 'Category', field: 'card_category'},
  {label: 'Issuer', field: 'card_issuer'},
  {label: 'Country', field: 'card_country'},
  {label: 'Transactions', field: 'transaction_count'},
]

export const purchaseColumns: Column[] = [
  {label: 'Id', field: 'id'},
  {label: 'Outcome', field: 'message', format: 'outcome'},
  {label: 'Amount', field: 'amount', format: 'money'},
  {label: 'Reference', field: 'reference'},
  {label: 'Authorization', field: 'authorization'},
  {label: 'Card holder', field: 'card_holder'},
  {label: 'Card number', field: 'card_number'},
  {label: 'Expiry', field: 'card_expiry', format: 'date'},
  {label: 'Card token', field: 'card_token'},
  {label: 'Transaction date', field: 'transaction_date'},
  {label: 'Settlement date', field: 'settlement_date'},
  {label: 'Source', field: 'source'},
]

export const refundColumns: Column[] = [
  {label: 'Id', field: 'id'},
  {label: 'Outcome', field: 'message', format: 'outcome'},
  {label: 'Amount', field: 'amount', format: 'money'},
  {label: 'Reference', field: 'reference'},
  {label: 'Authorization', field: 'authorization'},
  {label: 'Card holder', field: 'card_holder'},
  {label: 'Card number', field: 'card_number'},
  {label: 'Card type', field: 'card_type'},
  {label: 'Transaction date', field: 'transaction_date'},
  {label: 'Response code', field: 'response_code'},
]

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
  {label: 'Card token', field: 'card_token'},
  {label: 'Created', field: 'created_at'},
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

export const deliveryColumns: Column[] = [
  {label: 'Id', field: 'id'},
  {label: 'Event', field: 'event'},
  {label: 'Status', field: 'status'},
  {label: 'Attempts', field: 'attempts'},
  {label: 'Last answer', field: 'last_answer'},
  {label: 'Last attempt', field: 'last_attempt_at'},
  {label: 'Address', field: 'hook'},
]
