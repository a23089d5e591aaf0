/**
 * How a table shows each record, one list per record type. Kept apart from the zod schemas so a
 * command can name its columns without loading zod at start-up (about 80 ms).
 */

import {FAULT_PARAMETERS, type FaultParameter} from '../api/schemas/fault-actions.js'

/** How a table shows one field of a record. */
export interface Column {
  label: string
  field: string
  /**
   * `refund-money`: a refund's amount as money given back, without the sign a gateway puts on it
   * (the interface's -1000 and the live gateway's 1000 are both `10.00 AUD`); `card`: a masked
   * number, in a table by its last four (`…4242`); `datetime`: the date and time as the record
   * gives them, in a narrow table without the year (`11-25 15:04`); `match`: a refund's gw_match (refund list --purchase), its word and
   * reason; `refunds`: a purchase's gw_refunded or gw_left_to_refund, an amount or a range in a
   * table, what gw knows and why in the field/value list; `dollars`: an amount the gateway gives in
   * dollars (a direct debit's, `42.42`), shown as money in Australian dollars; `bar`: a share of
   * the largest (-1 to 1), drawn as a bar of blocks (gw report's chart at a terminal).
   */
  format?: 'money' | 'refund-money' | 'outcome' | 'date' | 'datetime' | 'boolean' | 'card' | 'match' | 'refunds' | 'dollars' | 'bar'
  /**
   * A field holding a list of records (a payment plan's payments): in the field/value list of one
   * record a table of its own under its label, with these columns; in a table, how many.
   */
  rows?: Column[]
  /**
   * How much a person reading the table needs it, when the terminal is too narrow for every
   * column (table.ts recordsTable). The least needed are left out first, the last of equals first:
   * - `seldom`, `sometimes`, `often` (the default): left out before any column more needed is
   *   cut, and without a word;
   * - `most`: what a person reads a record by (its amount, its card's last four, its reference):
   *   cut before it is left out, and a note on stderr names it when it is;
   * - `id`: the id the next command takes (gw refund create --transaction-id): kept whole, up to
   *   half the width, and left out only after every `most`;
   * - `always`: never left out, cut if it must be (a record's outcome, the day a report's row adds up).
   */
  need?: Need
}

export type Need = 'always' | 'id' | 'most' | 'often' | 'sometimes' | 'seldom'

/** Needs from the first to be left out to the last. */
export const NEEDS: readonly Need[] = ['seldom', 'sometimes', 'often', 'most', 'id', 'always']

export const cardColumns: Column[] = [
  {label: 'Token', field: 'token', need: 'id'},
  {label: 'Alias', field: 'alias', need: 'most'},
  {label: 'Card holder', field: 'card_holder'},
  {label: 'Card', field: 'card_number', format: 'card', need: 'most'},
  {label: 'Expiry', field: 'card_expiry', format: 'date'},
  {label: 'Type', field: 'card_type', need: 'sometimes'},
  {label: 'Category', field: 'card_category', need: 'seldom'},
  {label: 'Issuer', field: 'card_issuer', need: 'seldom'},
  {label: 'Country', field: 'card_country', need: 'seldom'},
  {label: 'Transactions', field: 'transaction_count', need: 'sometimes'},
]

// Purchases and refunds in the order a support task reads them: when, which order, how much,
// what came of it, on which card; then the id to act on (refund, look up), kept to the last; whose;
// then what is seldom looked for, left out first. What came of it stays at any width; the date goes
// before the reference, amount, card and id are cut, and of those the card goes first.
export const purchaseColumns: Column[] = [
  {label: 'Date', field: 'transaction_date', format: 'datetime'},
  {label: 'Reference', field: 'reference', need: 'most'},
  {label: 'Amount', field: 'amount', format: 'money', need: 'most'},
  {label: 'Outcome', field: 'message', format: 'outcome', need: 'always'},
  {label: 'Card', field: 'card_number', format: 'card', need: 'most'},
  {label: 'Id', field: 'id', need: 'id'},
  {label: 'Card holder', field: 'card_holder', need: 'sometimes'},
  {label: 'Settlement date', field: 'settlement_date', format: 'date', need: 'seldom'},
  {label: 'Captured', field: 'captured_amount', format: 'money', need: 'seldom'},
  {label: 'Metadata', field: 'metadata', need: 'seldom'},
  {label: 'Source', field: 'source', need: 'seldom'},
  {label: 'Authorization', field: 'authorization', need: 'seldom'},
  {label: 'Card token', field: 'card_token', need: 'seldom'},
  {label: 'Expiry', field: 'card_expiry', format: 'date', need: 'seldom'},
]

/** purchase list: with --duplicates, each purchase's group (gw_duplicates), which --fields may name; a table says it above each group instead. */
export const purchaseListColumns: Column[] = [...purchaseColumns, {label: 'Duplicates', field: 'gw_duplicates', need: 'seldom'}]

/** purchase get: one purchase at a terminal also shows what has been refunded of it and what is left (gw's own fields, never in JSON). */
export const purchaseGetColumns: Column[] = [...purchaseColumns, {label: 'Refunded', field: 'gw_refunded', format: 'refunds'}, {label: 'Left to refund', field: 'gw_left_to_refund', format: 'refunds'}]

export const refundColumns: Column[] = [
  {label: 'Date', field: 'transaction_date', format: 'datetime'},
  {label: 'Reference', field: 'reference', need: 'most'},
  {label: 'Amount', field: 'amount', format: 'refund-money', need: 'most'},
  {label: 'Outcome', field: 'message', format: 'outcome', need: 'always'},
  {label: 'Card', field: 'card_number', format: 'card', need: 'most'},
  {label: 'Id', field: 'id', need: 'id'},
  {label: 'Card holder', field: 'card_holder', need: 'sometimes'},
  {label: 'Card type', field: 'card_type', need: 'seldom'},
  {label: 'Response code', field: 'response_code', need: 'seldom'},
  {label: 'Authorization', field: 'authorization', need: 'seldom'},
  {label: 'Metadata', field: 'metadata', need: 'seldom'},
]

/** refund list: with --purchase, first whether each refund is certain, likely, possible or another purchase's, and why (its gw_match); without, no record has one and the column is left out. */
export const refundListColumns: Column[] = [{label: 'Match', field: 'gw_match', format: 'match', need: 'always'}, ...refundColumns]

export const planColumns: Column[] = [
  {label: 'Id', field: 'id', need: 'id'},
  {label: 'Name', field: 'name', need: 'most'},
  {label: 'Reference', field: 'reference'},
  {label: 'Description', field: 'description', need: 'sometimes'},
  {label: 'Amount', field: 'amount', format: 'money', need: 'most'},
  {label: 'Subscriptions', field: 'subscription_count'},
]

export const customerColumns: Column[] = [
  {label: 'Id', field: 'id', need: 'id'},
  {label: 'Reference', field: 'reference', need: 'most'},
  {label: 'First name', field: 'first_name', need: 'most'},
  {label: 'Last name', field: 'last_name', need: 'most'},
  {label: 'Email', field: 'email'},
  {label: 'Card token', field: 'card_token', need: 'seldom'},
  {label: 'Created', field: 'created_at', format: 'datetime', need: 'sometimes'},
]

// A subscription's state (active, and how its last charge went) is its outcome.
export const subscriptionColumns: Column[] = [
  {label: 'Id', field: 'id', need: 'id'},
  {label: 'Reference', field: 'reference', need: 'most'},
  {label: 'Customer', field: 'customer'},
  {label: 'Plan', field: 'plan'},
  {label: 'Frequency', field: 'frequency', need: 'sometimes'},
  {label: 'Active', field: 'is_active', format: 'boolean', need: 'always'},
  {label: 'Last status', field: 'last_status', need: 'most'},
  {label: 'Start date', field: 'start_date', format: 'date', need: 'sometimes'},
  {label: 'Next billing', field: 'next_billing_date', format: 'date'},
  {label: 'End date', field: 'end_date', format: 'date', need: 'sometimes'},
]

export const webHookColumns: Column[] = [
  {label: 'Id', field: 'id', need: 'id'},
  {label: 'Name', field: 'name', need: 'most'},
  {label: 'Address', field: 'address', need: 'most'},
  {label: 'Events', field: 'events'},
  {label: 'Mode', field: 'mode'},
  {label: 'Username', field: 'authentication_username', need: 'sometimes'},
  {label: 'Created', field: 'created_at', need: 'sometimes'},
]

export const sandboxClockColumns: Column[] = [
  {label: 'Today', field: 'today', need: 'always'},
  {label: 'Now', field: 'now', need: 'sometimes'},
  {label: 'Time zone', field: 'time_zone', need: 'sometimes'},
  {label: 'Processing window ms', field: 'processing_window_ms', need: 'most'},
]

export const clockAdvanceColumns: Column[] = [
  {label: 'New date', field: 'today', need: 'always'},
  {label: 'From', field: 'from'},
  {label: 'Days', field: 'days'},
  {label: 'Charges approved', field: 'charges_approved', need: 'most'},
  {label: 'Charges declined', field: 'charges_declined', need: 'most'},
  {label: 'Events', field: 'events'},
  {label: 'Web hook deliveries queued', field: 'deliveries_queued'},
]

/** A fault of the local gateway (gw sandbox fault list): what it matches, what it does with the parameters of the fault table (in its order), how many more times. */
export const faultColumns: Column[] = [
  {label: 'Method', field: 'method', need: 'always'},
  {label: 'Path', field: 'path', need: 'most'},
  {label: 'Action', field: 'action', need: 'always'},
  ...(Object.entries(FAULT_PARAMETERS) as [string, FaultParameter][]).map(([field, {column, kind}]): Column =>
    kind === 'boolean' ? {label: column, field, format: 'boolean', need: 'seldom'} : {label: column, field, need: 'sometimes'},
  ),
  {label: 'Times left', field: 'times', need: 'most'},
]

export const triggerColumns: Column[] = [
  {label: 'Event', field: 'event', need: 'always'},
  {label: 'Delivered to', field: 'delivered_to', need: 'most'},
  {label: 'Created', field: 'created', need: 'most'},
  {label: 'Payload', field: 'payload'},
]

/**
 * gw report: a day's totals in one currency. The sums are what an operator reads the day by (Net
 * and Refunded stay at 80 columns, and at 60, where the currency goes: each sum names it); of the
 * counts, declines go last, the others first.
 */
export const reportColumns: Column[] = [
  {label: 'Day', field: 'day', need: 'always'},
  {label: 'Currency', field: 'currency'},
  {label: 'Approved', field: 'purchases_approved', need: 'seldom'},
  {label: 'Approved amount', field: 'purchases_approved_amount', format: 'money', need: 'most'},
  {label: 'Uncaptured', field: 'purchases_uncaptured_amount', format: 'money', need: 'seldom'},
  {label: 'Voided', field: 'purchases_voided', need: 'seldom'},
  {label: 'Declined', field: 'purchases_declined', need: 'sometimes'},
  {label: 'Refunds', field: 'refunds', need: 'seldom'},
  {label: 'Refunded', field: 'refunds_amount', format: 'money', need: 'most'},
  {label: 'Refunds voided', field: 'refunds_voided', need: 'seldom'},
  {label: 'Plan payments', field: 'plan_payments_amount', format: 'money', need: 'seldom'},
  {label: 'Debited', field: 'direct_debits_amount', format: 'money', need: 'sometimes'},
  {label: 'Net', field: 'net', format: 'money', need: 'most'},
  // gw report --settlement alone: a column empty in every row is left out of the table.
  {label: 'Settling', field: 'settling', need: 'seldom'},
  {label: 'Settling amount', field: 'settling_amount', format: 'money', need: 'most'},
  {label: 'Settling voided', field: 'settling_voided', need: 'seldom'},
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
  {label: 'Id', field: 'id', need: 'sometimes'},
  {label: 'Event', field: 'event', need: 'most'},
  {label: 'Status', field: 'status', need: 'always'},
  {label: 'Address', field: 'hook', need: 'most'},
  {label: 'Last answer', field: 'last_answer', need: 'most'},
  {label: 'Attempts', field: 'attempts', need: 'sometimes'},
  {label: 'Last attempt', field: 'last_attempt_at', format: 'datetime', need: 'seldom'},
]
