import {UsageError} from '../errors.js'
import type {PurchaseInput} from '../operations/purchases.js'
import type {RefundInput} from '../operations/refunds.js'
import type {BatchInput} from './read.js'
import {looksLikeCardNumber} from '../redact.js'

/** A row ready to send: its place in the batch and in the file, and the operation's input. */
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
  /** Checks one row's fields (blank ones as ''): the input, or what is wrong, a message per field. */
  read(fields: Record<string, string>): {input: Input; reference: string} | {errors: string[]; reference?: string}
  example: string
}

/** Raw card data does not belong in files: a file with any of these columns is refused whole. */
const CARD_COLUMNS = ['card_number', 'card_expiry', 'cvv', 'cvc', 'card_cvv', 'expiry_date']

export const refundRows: RowSchema<RefundInput> = {
  required: ['transaction_id', 'reference'],
  optional: ['amount'],
  example: 'transaction_id,amount,reference',
  read(fields) {
    const errors: string[] = []
    const transactionId = need(fields, 'transaction_id', errors)
    const reference = need(fields, 'reference', errors)
    // A blank amount refunds the purchase in full (issue 9 §4).
    const amount = fields.amount === '' || fields.amount === undefined ? undefined : minorUnits(fields.amount, errors)
    return errors.length > 0 ? {errors, reference: reference || undefined} : {input: {transactionId, reference, amount}, reference}
  },
}

export const purchaseRows: RowSchema<PurchaseInput> = {
  required: ['card_token', 'amount', 'reference'],
  optional: ['currency', 'customer_ip'],
  example: 'card_token,amount,reference,currency',
  read(fields) {
    const errors: string[] = []
    const cardToken = need(fields, 'card_token', errors)
    const reference = need(fields, 'reference', errors)
    const amount = fields.amount === '' ? (errors.push('amount is blank'), undefined) : minorUnits(fields.amount ?? '', errors)
    const currency = (fields.currency || 'AUD').toUpperCase()
    if (!/^[A-Z]{3}$/.test(currency)) errors.push(`currency must be a three-letter ISO 4217 code such as AUD, got "${fields.currency}"`)
    const customerIp = fields.customer_ip || undefined
    if (errors.length > 0 || amount === undefined) return {errors, reference: reference || undefined}
    return {input: {card: {token: cardToken}, amount, reference, currency, customerIp}, reference}
  },
}

/**
 * Every row checked before any is sent (issue 9 §2). A problem with the file itself (card data,
 * unknown or missing columns, nothing to send) is a UsageError: nothing of it can be sent. Rows
 * with problems are listed by line; a reference used twice marks every row that uses it.
 */
export function checkRows<Input>(file: BatchInput, schema: RowSchema<Input>, source: string): {valid: ValidRow<Input>[]; invalid: InvalidRow[]} {
  refuseCardData(file, source)
  const known = [...schema.required, ...schema.optional]
  const unknown = file.columns.filter((name) => !known.includes(name))
  const missing = file.format === 'csv' && file.columns.length > 0 ? schema.required.filter((name) => !file.columns.includes(name)) : []
  const shape = [
    unknown.length > 0 ? `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => JSON.stringify(name)).join(', ')}` : undefined,
    missing.length > 0 ? `no ${missing.join(', ')} column` : undefined,
  ].filter(Boolean)
  if (shape.length > 0) {
    throw new UsageError(`${source}: ${shape.join('; ')}: nothing was sent`, `The columns are ${known.join(', ')} (${schema.required.join(', ')} required); for example a header ${schema.example}.`)
  }
  const lines: {line: number; values?: Record<string, unknown>; problem?: string}[] = [...file.rows, ...file.problems.map((p) => ({line: p.line, problem: p.message}))]
  lines.sort((a, b) => a.line - b.line)
  if (lines.length === 0) throw new UsageError(`${source} has no rows to send`, `Give a header and a row a line, for example ${schema.example}.`)

  const valid: ValidRow<Input>[] = []
  const invalid: InvalidRow[] = []
  lines.forEach((entry, index) => {
    const row = index + 1
    if (!entry.values) return invalid.push({row, line: entry.line, messages: [entry.problem ?? 'cannot be read']})
    const fields = textFields(entry.values)
    if ('errors' in fields) return invalid.push({row, line: entry.line, messages: fields.errors})
    const result = schema.read(fields.text)
    if ('errors' in result) invalid.push({row, line: entry.line, reference: result.reference, messages: result.errors})
    else valid.push({row, line: entry.line, reference: result.reference, input: result.input})
  })

  const lineOf = new Map<string, number[]>()
  for (const row of valid) lineOf.set(row.reference, [...(lineOf.get(row.reference) ?? []), row.line])
  const repeated = valid.filter((row) => lineOf.get(row.reference)!.length > 1)
  for (const row of repeated) {
    const others = lineOf.get(row.reference)!.filter((line) => line !== row.line)
    invalid.push({row: row.row, line: row.line, reference: row.reference, messages: [`reference ${row.reference} is used again on line${others.length > 1 ? 's' : ''} ${others.join(', ')}: each row needs a reference of its own`]})
  }
  invalid.sort((a, b) => a.row - b.row)
  return {valid: valid.filter((row) => !repeated.includes(row)), invalid}
}

/** Refused before anything else, and never echoed: the file is not read further. */
function refuseCardData(file: BatchInput, source: string): void {
  const columns = file.columns.filter((name) => CARD_COLUMNS.includes(name.toLowerCase()))
  // A card number put where the token goes; references are left alone (long numeric order numbers pass Luhn one time in ten).
  const numbers = file.rows.filter((row) => looksLikeCardNumber(asText(row.values.card_token))).map((row) => row.line)
  if (columns.length === 0 && numbers.length === 0) return
  const what = columns.length > 0 ? `card data (column${columns.length > 1 ? 's' : ''} ${columns.join(', ')})` : `what looks like a card number (line${numbers.length > 1 ? 's' : ''} ${numbers.slice(0, 10).join(', ')}${numbers.length > 10 ? ', ...' : ''})`
  throw new UsageError(`${source} holds ${what}: raw card data does not belong in files, and nothing was sent`, 'Tokenize each card once (gw card tokenize) and give its token or alias in a card_token column; then delete this file securely.')
}

/** An NDJSON number taken as written, text as it is, anything else as nothing. */
const asText = (value: unknown): string => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '')

/** Fields as text, trimmed; an NDJSON number is taken as written, null as blank. */
function textFields(values: Record<string, unknown>): {text: Record<string, string>} | {errors: string[]} {
  const text: Record<string, string> = {}
  const errors: string[] = []
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined) text[name] = ''
    else if (typeof value === 'string') text[name] = value.trim()
    else if (typeof value === 'number') text[name] = Number.isFinite(value) ? String(value) : 'NaN'
    else errors.push(`${name} must be text or a number, got ${Array.isArray(value) ? 'a list' : typeof value}`)
    // Control characters would reach the gateway and every terminal that shows the row.
    // eslint-disable-next-line no-control-regex -- finding them is the point
    if (/[\u0000-\u001F\u007F]/.test(text[name] ?? '')) errors.push(`${name} holds control characters`)
  }
  return errors.length > 0 ? {errors} : {text}
}

function need(fields: Record<string, string>, name: string, errors: string[]): string {
  const value = fields[name] ?? ''
  if (value === '') errors.push(`${name} is blank`)
  return value
}

function minorUnits(text: string, errors: string[]): number | undefined {
  const value = Number(text)
  if (!/^\d+$/.test(text) || value <= 0 || !Number.isSafeInteger(value)) {
    errors.push(`amount must be a whole number greater than 0 in the minor unit (1000 is 10.00 AUD), got "${text}"`)
    return undefined
  }
  return value
}
