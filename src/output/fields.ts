import {cardColumns, type Column, customerColumns, planColumns, purchaseColumns, purchaseGetColumns, purchaseListColumns, refundColumns, refundListColumns, subscriptionColumns, webHookColumns} from './columns.js'
import {keepNumbersWritten} from '../lib/json-as-written.js'
import type {GwRecord} from '../api/schemas/record.js'

/**
 * `--fields id,amount,reference`: the record's fields to show, in that order, named as the
 * gateway names them (snake case; kebab case is accepted as typed for flags).
 */
export function parseFields(input: string): string[] {
  const fields = input
    .split(',')
    .map((field) => field.trim().replaceAll('-', '_'))
    .filter(Boolean)
  if (fields.length === 0) throw new Error('--fields needs one or more field names separated by commas, such as id,amount,reference')
  return [...new Set(fields)]
}

/** The record with only those fields, in that order; fields it lacks are left out, as the gateway would. */
export function pickFields(record: GwRecord, fields: string[]): GwRecord {
  const picked: GwRecord = {}
  for (const field of fields) if (Object.hasOwn(record, field)) picked[field] = record[field]
  return keepNumbersWritten(record, picked)
}

/** Table columns for the fields asked for: the command's own column where it has one, else the field's name. */
export function columnsFor(columns: Column[], fields: string[]): Column[] {
  // The fields asked for are all needed alike, in the order given: none goes before another is
  // cut, the last first, and a note names any left out.
  return fields.map((field) => ({...(columns.find((known) => known.field === field) ?? {label: field, field}), need: 'most'}))
}

/**
 * Fields the live gateway's records carry beyond the interface (gateway-notes.md), which --fields
 * may pick though no schema names them.
 */
const BEYOND_THE_INTERFACE = [
  'transaction_id', 'response_code', 'captured', 'captured_amount', 'rrn', 'cvv_match', 'metadata', 'addendum_data',
  'settlement_date', 'standalone', 'card_type', 'card_category', 'card_subcategory', 'created_at',
]

/** What every customer record carries beyond the interface (gateway-notes.md), and none of a payment's fields. */
const CUSTOMER_BEYOND = ['card_number', 'bank_account', 'metadata', 'sdk_ready']

/** The record a column list shows, by its schema's name in src/api/schemas. */
const SCHEMA_OF = new Map<Column[], 'Card' | 'Purchase' | 'Refund' | 'Plan' | 'Customer' | 'Subscription' | 'WebHook'>([
  [cardColumns, 'Card'],
  [purchaseColumns, 'Purchase'],
  [purchaseGetColumns, 'Purchase'],
  [purchaseListColumns, 'Purchase'],
  [refundColumns, 'Refund'],
  [refundListColumns, 'Refund'],
  [planColumns, 'Plan'],
  [customerColumns, 'Customer'],
  [subscriptionColumns, 'Subscription'],
  [webHookColumns, 'WebHook'],
])

/**
 * The fields --fields may name for a command's records: its columns, and for a gateway record every
 * field its schema names and the live gateway adds. Asked for before anything is sent, so a typo
 * is refused (exit 2) rather than shown blank after the money moved.
 */
export async function knownFields(columns: Column[]): Promise<string[]> {
  const schema = SCHEMA_OF.get(columns)
  const fromSchema = schema ? [...Object.keys((await import('../api/schemas/index.js'))[schema].shape), ...(schema === 'Customer' ? CUSTOMER_BEYOND : BEYOND_THE_INTERFACE)] : []
  return [...new Set([...columns.map((column) => column.field), ...fromSchema])]
}
