import * as rules from '../api/schemas/rules.js'
import {UsageError} from '../errors.js'
import type {PurchaseInput} from '../operations/purchases.js'
import type {RefundInput} from '../operations/refunds.js'
import {favourMemory} from '../lib/favour-memory.js'
import {collectGarbage, ROWS_PER_COLLECTION} from '../lib/memory.js'
import type {BatchEntry, BatchFile} from './read.js'
import {RowsKey} from './rows-key.js'
import {derivedFrom} from '../lists/refund-match.js'
import {looksLikeCardNumber} from '../safety/redact.js'

/**
 * A row ready to send: its place in the batch and in the file, and the operation's input. A
 * refund's row without a reference gets one when it is sent (derived from its purchase's, or the
 * one an earlier run journaled for its line): until then its reference is ''.
 */
export interface ValidRow<Input> {
  row: number
  line: number
  reference: string
  input: Input
}

export interface InvalidRow {
  row: number
  line: number
  reference?: string
  messages: string[]
}

/** The columns of one kind of batch row, and how a row's fields become an operation's input. */
export interface RowSchema<Input> {
  required: string[]
  optional: string[]
  /** Checks one row's fields (blank ones as ''): the input, or what is wrong, a message per field. No reference: one is made when the row is sent (its input's). */
  read(fields: Record<string, string>): {input: Input; reference?: string} | {errors: string[]; reference?: string}
  example: string
}

/** Raw card data does not belong in files: a file with any of these columns is refused whole. */
const CARD_COLUMNS = ['card_number', 'card_expiry', 'cvv', 'cvc', 'card_cvv', 'expiry_date']

export const refundRows: RowSchema<RefundInput> = {
  required: ['transaction_id'],
  optional: ['amount', 'reference'],
  example: 'transaction_id,amount,reference',
  read(fields) {
    const errors: string[] = []
    const transactionId = field(fields, 'transaction_id', rules.notBlank, errors)
    // A blank reference is derived from the purchase's when the row is sent (`order-1001-R2`), or is the one its journal holds for the row on a rerun.
    const reference = fields.reference === '' || fields.reference === undefined ? undefined : field(fields, 'reference', rules.reference, errors)
    // A blank amount refunds the purchase in full: its amount is looked up when the row is sent.
    const amount = fields.amount === '' || fields.amount === undefined ? undefined : field(fields, 'amount', rules.amount, errors)
    return errors.length > 0 ? {errors, reference: fields.reference || undefined} : {input: {transactionId: transactionId!, reference, amount}, reference}
  },
}

export const purchaseRows: RowSchema<PurchaseInput> = {
  required: ['card_token', 'amount', 'reference'],
  optional: ['currency', 'customer_ip'],
  example: 'card_token,amount,reference,currency',
  read(fields) {
    const errors: string[] = []
    const cardToken = field(fields, 'card_token', rules.notBlank, errors)
    const reference = field(fields, 'reference', rules.reference, errors)
    const amount = field(fields, 'amount', required(rules.amount), errors)
    const currency = fields.currency ? field(fields, 'currency', rules.currency, errors) : 'AUD'
    const customerIp = fields.customer_ip || undefined
    if (errors.length > 0) return {errors, reference: fields.reference || undefined}
    return {input: {card: {token: cardToken!}, amount: amount!, reference: reference!, currency: currency!, customerIp}, reference: reference!}
  },
}

/** What a batch file holds, from reading it once before anything is sent: every row is checked before any is. */
export interface Scan<Input> {
  /** Rows in the file, good and bad, in its order. */
  total: number
  /** Rows that fail the checks, by line. */
  invalid: Map<number, InvalidRow>
  /** How many rows pass. */
  valid: number
  /** The references of the rows that pass: what of an earlier run's journal concerns this input. */
  references: {has(reference: string): boolean; keys(): Iterable<string>}
  schema: RowSchema<Input>
  /** References rows give that have the shape gw derives (`order-1-R1`): none is derived for another row. */
  derivedShaped: Set<string>
  /** Rows without a reference, which get one when they are sent. */
  unreferenced: number
  /** What the rows are, whatever bytes held them (rows-key.ts): the same rows are the same batch. */
  key: string
}

/**
 * A long batch keeps its garbage small (lib/favour-memory.ts): a million-row dry run peaks at 157
 * MiB with it, 261 without. Not from the first row: a V8 flag changed makes V8 refuse Node's own
 * code caches, so the built-in modules loaded after it (the client's) compile from source and the
 * journal's worker takes ~44 ms to start, not ~23; a batch of a thousand rows has no need of it.
 */
const ROWS_BEFORE_FAVOURING_MEMORY = 10_000

/**
 * Every row checked before any is sent, reading the file once, its rows never held:
 * memory grows only with its references (kept to find one used twice) and its bad rows. A problem
 * with the file itself (card data, unknown, missing or repeated columns, nothing to send) is a
 * UsageError: nothing of it can be sent. A reference used twice marks every row that uses it.
 * `counted` is told each row's number as it is read.
 */
export async function scanRows<Input>(file: BatchFile, schema: RowSchema<Input>, source: string, counted?: (rows: number) => void): Promise<Scan<Input>> {
  const known = [...schema.required, ...schema.optional]
  const columns = new Set(file.header)
  refuseColumns(file.header, file.format, schema, source)
  const invalid = new Map<number, InvalidRow>()
  const firstUse = new Map<string, number>()
  const repeated = new Map<string, number[]>()
  const lineOf: number[] = []
  const cardNumbers: number[] = []
  const derivedShaped = new Set<string>()
  let unreferenced = 0
  let total = 0
  let valid = 0
  const rowsKey = new RowsKey()
  for await (const entry of file.entries) {
    rowsKey.add(entry)
    const row = ++total
    counted?.(row)
    if (row === ROWS_BEFORE_FAVOURING_MEMORY) favourMemory()
    if (row % ROWS_PER_COLLECTION === 0) collectGarbage()
    lineOf[row] = entry.line
    const checked = checkEntry(entry, schema, row)
    if (file.format === 'ndjson' && 'values' in entry) for (const key of Object.keys(entry.values)) columns.add(key)
    if ('values' in entry && looksLikeCardNumber(asText(entry.values.card_token))) cardNumbers.push(entry.line)
    if ('messages' in checked) {
      invalid.set(entry.line, checked)
      continue
    }
    valid++
    // A row without a reference gets one of its own when it is sent.
    if (checked.reference === '') {
      unreferenced++
      continue
    }
    if (derivedFrom(checked.reference) !== undefined) derivedShaped.add(checked.reference)
    const first = firstUse.get(checked.reference)
    if (first === undefined) firstUse.set(checked.reference, row)
    else repeated.set(checked.reference, [...(repeated.get(checked.reference) ?? [first]), row])
  }
  refuseCardData([...columns], cardNumbers, source)
  const unknown = [...columns].filter((name) => !known.includes(name))
  if (unknown.length > 0) throw new UsageError(`${source}: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => JSON.stringify(name)).join(', ')}: nothing was sent`, columnsHint(schema))
  if (total === 0) throw new UsageError(`${source} has no rows to send`, `Give a header and a row a line, for example ${schema.example}.`)
  for (const [reference, rows] of repeated) {
    for (const row of rows) {
      const line = lineOf[row]!
      const others = rows.filter((other) => other !== row).map((other) => lineOf[other]!)
      invalid.set(line, {row, line, reference, messages: [`reference ${reference} is used again on line${others.length > 1 ? 's' : ''} ${others.join(', ')}: each row needs a reference of its own`]})
      valid--
    }
    firstUse.delete(reference)
  }
  return {total, invalid, valid, references: firstUse, schema, derivedShaped, unreferenced, key: rowsKey.digest()}
}

/** Every row of the file again, in its order, as the scan found it: none is held longer than it takes to use it. */
export async function* checkedRows<Input>(file: BatchFile, scan: Scan<Input>): AsyncGenerator<ValidRow<Input> | InvalidRow> {
  let row = 0
  for await (const entry of file.entries) {
    if (++row % ROWS_PER_COLLECTION === 0) collectGarbage()
    yield scan.invalid.get(entry.line) ?? checkEntry(entry, scan.schema, row)
  }
}

/** The rows that passed, read again in order for sending. */
export async function* validRows<Input>(file: BatchFile, scan: Scan<Input>): AsyncGenerator<ValidRow<Input>> {
  for await (const row of checkedRows(file, scan)) if ('input' in row) yield row
}

/** One line of the file against the row's schema: a row ready to send, or what is wrong with it. */
function checkEntry<Input>(entry: BatchEntry, schema: RowSchema<Input>, row: number): ValidRow<Input> | InvalidRow {
  if ('problem' in entry) return {row, line: entry.line, messages: [entry.problem]}
  const fields = textFields(entry.values)
  if ('errors' in fields) return {row, line: entry.line, messages: fields.errors}
  const result = schema.read(fields.text)
  if ('errors' in result) return {row, line: entry.line, reference: result.reference, messages: result.errors}
  if (result.reference !== undefined) return {row, line: entry.line, reference: result.reference, input: result.input}
  // Made when the row is sent, in its input: read from there, so the journal and the row's line name the one made.
  const input = result.input as Input & {reference?: string}
  return {
    row,
    line: entry.line,
    input,
    get reference() {
      return input.reference ?? ''
    },
  }
}

/** What a row asks about, its amount and reference aside: the same for a row and its edit, another for another row. */
export function askedAbout(asked: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(asked).filter(([field, value]) => field !== 'amount' && field !== 'reference' && value !== undefined))
}

/** A CSV header that names a column twice, lacks a required one, or names card data is refused before its rows are read. */
function refuseColumns(header: string[], format: BatchFile['format'], schema: RowSchema<unknown>, source: string): void {
  refuseCardData(header, [], source)
  const twice = [...new Set(header.filter((name, i) => name !== '' && header.indexOf(name) !== i))]
  const missing = format === 'csv' && header.length > 0 ? schema.required.filter((name) => !header.includes(name)) : []
  const problems = [
    twice.length > 0 ? `the column${twice.length > 1 ? 's' : ''} ${twice.map((name) => JSON.stringify(name)).join(', ')} ${twice.length > 1 ? 'are' : 'is'} named twice` : undefined,
    missing.length > 0 ? `no ${missing.join(', ')} column` : undefined,
  ].filter(Boolean)
  if (problems.length > 0) throw new UsageError(`${source}: ${problems.join('; ')}: nothing was sent`, columnsHint(schema))
}

function columnsHint(schema: RowSchema<unknown>): string {
  const known = [...schema.required, ...schema.optional]
  return `The columns are ${known.join(', ')} (${schema.required.join(', ')} required), each once; for example a header ${schema.example}.`
}

/** Refused before anything else, and never echoed: a card data column, or a card number where the token goes. */
function refuseCardData(columns: string[], numbers: number[], source: string): void {
  const cardColumns = columns.filter((name) => CARD_COLUMNS.includes(name.toLowerCase()))
  // References are left alone: long numeric order numbers pass Luhn one time in ten.
  if (cardColumns.length === 0 && numbers.length === 0) return
  const what =
    cardColumns.length > 0
      ? `card data (column${cardColumns.length > 1 ? 's' : ''} ${cardColumns.join(', ')})`
      : `what looks like a card number (line${numbers.length > 1 ? 's' : ''} ${numbers.slice(0, 10).join(', ')}${numbers.length > 10 ? ', ...' : ''})`
  throw new UsageError(`${source} holds ${what}: raw card data does not belong in files, and nothing was sent`, 'Tokenize each card once (gw card tokenize) and give its token or alias in a card_token column; then delete this file securely.')
}

/** An NDJSON number taken as written, text as it is, anything else as nothing. */
const asText = (value: unknown): string => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '')

/** Fields as text, trimmed; an NDJSON number is taken as written, null as blank. */
function textFields(values: Record<string, unknown>): {text: Record<string, string>} | {errors: string[]} {
  const text: Record<string, string> = {}
  const errors: string[] = []
  for (const [name, value] of Object.entries(values)) {
    // An NDJSON null is no value: leaving the field out says so (a refund in full); null may be a mistake.
    if (value === null) errors.push(`${name} is null: leave the field out, or give it a value`)
    else if (typeof value === 'string') text[name] = value.trim()
    else if (typeof value === 'number') text[name] = Number.isFinite(value) ? String(value) : 'NaN'
    else errors.push(`${name} must be text or a number, got ${Array.isArray(value) ? 'a list' : typeof value}`)
    // Control characters would reach the gateway and every terminal that shows the row.
    // eslint-disable-next-line no-control-regex -- finding them is the point
    if (/[\u0000-\u001F\u007F]/.test(text[name] ?? '')) errors.push(`${name} holds control characters`)
  }
  return errors.length > 0 ? {errors} : {text}
}

/** A rule that first refuses a blank field, in the words of every blank one. */
export const required =
  <T>(rule: (text: string) => rules.Checked<T>) =>
  (text: string): rules.Checked<T> => {
    const blank = rules.notBlank(text)
    return 'problem' in blank ? blank : rule(text)
  }

/** A field held to its rule: the value, or undefined with the problem added, named after the field. */
export function field<T>(fields: Record<string, string>, name: string, rule: (text: string) => rules.Checked<T>, errors: string[]): T | undefined {
  const checked = rule(fields[name] ?? '')
  if ('problem' in checked) errors.push(`${name} ${checked.problem}`)
  return 'value' in checked ? checked.value : undefined
}
