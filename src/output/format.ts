import type {Column} from './columns.js'
import {paint} from './colors.js'
import {formatMoney} from './money.js'
import {netBar} from './net-chart.js'
import {matchText, rangeText} from './refund-match-text.js'
import {sanitizeLine} from '../safety/sanitize.js'
import type {RefundMatch} from '../lists/refund-match.js'
import type {GwRecord} from '../api/schemas/record.js'

/** Approved in green, anything else in red: the first thing a merchant looks for. */
export function formatOutcome(record: GwRecord, color: boolean): string {
  const message = typeof record.message === 'string' ? record.message : ''
  const approved = (record.successful ?? record.authorized) === true
  const text = message ? sanitizeLine(message) : approved ? 'Approved' : 'Declined'
  return paint(color, approved ? 'green' : 'red', text)
}

/**
 * One cell of a table, on one line: money with its currency, outcome coloured, control
 * characters made visible (card numbers came masked: render.ts passes records through redact). A nested value shows as compact JSON, which
 * the table cuts to its column; the field/value list spreads it out (nestedRows).
 */
export function formatCell(record: GwRecord, column: Column, color: boolean, {inTable = false} = {}): string {
  const value = record[column.field]
  if (value === undefined || value === null || value === '') return column.format === 'outcome' ? formatOutcome(record, color) : ''
  if (column.rows && Array.isArray(value)) return String(value.length)
  switch (column.format) {
    case 'dollars':
      // A bank account's currency: a direct debit names none.
      return typeof value === 'number' ? formatMoney(Math.round(value * 100), 'AUD') : formatLeaf(value)
    case 'money':
      if (typeof value !== 'number') return formatLeaf(value)
      // A record that names no currency (a payment plan made without one, 2017-2019 builds) says so, in a batch summary's words.
      return record.currency === null ? `${formatMoney(value)} (currency not known)` : formatMoney(value, currencyOf(record))
    case 'refund-money':
      // One sign whichever gateway answered: the interface's refunds are negative, the live gateway's positive.
      return typeof value === 'number' ? formatMoney(Math.abs(value), currencyOf(record)) : formatLeaf(value)
    case 'outcome':
      return formatOutcome(record, color)
    case 'date':
      return typeof value === 'string' ? sanitizeLine(value.slice(0, 10)) : formatLeaf(value)
    case 'datetime':
      // As the record gives it, in its own offset: `2026-11-17 09:31`.
      return typeof value === 'string' ? sanitizeLine(value.slice(0, 16).replace('T', ' ')) : formatLeaf(value)
    case 'card':
      // In a table a card is its last four, which stay whole however narrow the column.
      return inTable && typeof value === 'string' && /\d{4}$/.test(value) ? `…${value.slice(-4)}` : formatLeaf(value)
    case 'match':
      return typeof value === 'object' && 'match' in value ? matchText(value as RefundMatch) : formatLeaf(value)
    case 'refunds': {
      // A table's cell shows the amount; the field/value list of one purchase, what gw knows and why.
      const range = typeof value === 'object' ? rangeText(value as Record<string, unknown>) : undefined
      const says = typeof value === 'object' && 'says' in value && typeof value.says === 'string' ? sanitizeLine(value.says) : undefined
      return (inTable ? (range ?? says) : (says ?? range)) ?? formatLeaf(value)
    }
    case 'bar':
      // gw report's chart: a share of the largest net, drawn (net-chart.ts), gains green and losses red.
      return typeof value === 'number' && value !== 0 ? paint(color, value < 0 ? 'red' : 'green', netBar(value)) : ''
    case 'boolean':
      return value === true ? 'yes' : value === false ? 'no' : formatLeaf(value)
    default:
      return formatLeaf(value)
  }
}

const currencyOf = (record: GwRecord) => (typeof record.currency === 'string' ? sanitizeLine(record.currency) : undefined)

/** A plain value, as a person reads it. */
function formatLeaf(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'object') return sanitizeLine(JSON.stringify(value))
  return sanitizeLine(String(value))
}

/** Whether a value is spread out as key paths in the field/value list rather than shown in one cell. */
export function isNested(value: unknown): value is object {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0
}

/**
 * A nested value as key paths and their values (`elements[0].purchase.amount  1000`), depth
 * first, in the gateway's order: a payload reads line by line instead of as one giant cell.
 */
export function keyPaths(value: object, prefix = ''): Array<[path: string, text: string]> {
  const rows: Array<[string, string]> = []
  for (const [key, child] of Object.entries(value)) {
    const path = Array.isArray(value) ? `${prefix}[${key}]` : prefix ? `${prefix}.${sanitizeLine(key)}` : sanitizeLine(key)
    if (isNested(child)) rows.push(...keyPaths(child, path))
    else rows.push([path, formatLeaf(child)])
  }
  return rows
}
