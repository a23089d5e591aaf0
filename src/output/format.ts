import type {Column} from './columns.js'
import {paint} from './colors.js'
import {maskCardNumber} from '../redact.js'
import {formatMoney} from './money.js'

type GwRecord = Record<string, unknown>

/** Approved in green, anything else in red: the first thing a merchant looks for. */
export function formatOutcome(record: GwRecord, color: boolean): string {
  const message = typeof record.message === 'string' ? record.message : ''
  const approved = (record.successful ?? record.authorized) === true
  const text = message || (approved ? 'Approved' : 'Declined')
  return paint(color, approved ? 'green' : 'red', text)
}

/** One cell of a table: money with its currency, outcome coloured, card numbers masked again. */
export function formatCell(record: GwRecord, column: Column, color: boolean): string {
  const value = record[column.field]
  if (value === undefined || value === null || value === '') return column.format === 'outcome' ? formatOutcome(record, color) : ''
  switch (column.format) {
    case 'money':
      return typeof value === 'number' ? formatMoney(value, typeof record.currency === 'string' ? record.currency : undefined) : String(value)
    case 'outcome':
      return formatOutcome(record, color)
    case 'date':
      return typeof value === 'string' ? value.slice(0, 10) : String(value)
    case 'boolean':
      return value === true ? 'yes' : value === false ? 'no' : String(value)
    default:
      break
  }
  // Belt and braces: the gateway masks card numbers, and gw never shows one that slipped through.
  if (column.field === 'card_number' && typeof value === 'string') return /\d{12,}/.test(value) ? maskCardNumber(value) : value
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}
