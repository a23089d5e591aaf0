import type {Column} from './columns.js'
import type {RefundMatch} from '../lists/refund-match.js'
import {sanitizeLine} from '../safety/sanitize.js'
import {displayWidth} from './text-width.js'
import type {GwRecord} from '../api/schemas/record.js'

/** A column as a table may show it: its header and a cell a record, and the width they take. */
export interface Form {
  label: string
  cells: string[]
  width: number
}

const form = (label: string, cells: string[]): Form => ({label, cells, width: Math.max(displayWidth(label), ...cells.map(displayWidth))})

/** `2026-11-25 15:04`, as format.ts shows a datetime in a table. */
const DATETIME = /^(\d{4})-(\d{2}-\d{2}) (\d{2}:\d{2})$/

/**
 * The forms a column's cells take in a table, the widest first: as formatted (`cells`, a record
 * each), then shorter ones a narrow terminal shows before it cuts any. Dates and times lose their
 * year, said once in the header (`Date (2026)`, `11-25 15:04`), when every row is of one year; else
 * they keep the day alone (`2026-11-25`). A refund's match keeps its word without the reason
 * (`certain`, `of order-1001`).
 */
export function formsOf(column: Column, records: GwRecord[], cells: string[]): Form[] {
  const full = form(column.label, cells)
  if (column.format === 'match') return [full, form(column.label, records.map((record, i) => matchWord(record[column.field]) ?? cells[i]!))]
  if (column.format !== 'datetime') return [full]
  const parts = cells.map((cell) => DATETIME.exec(cell))
  if (parts.some((part, i) => part === null && cells[i] !== '')) return [full]
  const years = new Set(parts.flatMap((part) => (part ? [part[1]] : [])))
  if (years.size === 0) return [full]
  const shorter =
    years.size === 1
      ? form(`${column.label} (${[...years][0]})`, parts.map((part) => (part ? `${part[2]} ${part[3]}` : '')))
      : form(column.label, parts.map((part) => (part ? `${part[1]}-${part[2]}` : '')))
  return [full, shorter]
}

function matchWord(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('match' in value)) return undefined
  const {match, other_purchase: other, voided} = value as RefundMatch
  const word = match === 'other_purchase' ? `of ${sanitizeLine(String(other))}` : sanitizeLine(String(match))
  // A voided one counts for nothing: said however narrow the column.
  return voided ? `${word}, voided` : word
}
