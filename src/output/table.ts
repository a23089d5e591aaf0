import Table from 'cli-table3'
import type {Column} from './columns.js'
import {paint} from './colors.js'
import {formatCell} from './format.js'

type GwRecord = Record<string, unknown>

/** A record as a two-column table (label, value); empty fields are left out. */
export function recordTable(record: GwRecord, columns: Column[], {color}: {color: boolean}): string {
  const table = new Table({style: {head: [], border: color ? ['grey'] : []}})
  for (const column of columns) {
    const cell = formatCell(record, column, color)
    if (cell !== '') table.push([paint(color, 'bold', column.label), cell])
  }
  return table.toString() + '\n'
}

/** Records as rows under a header, for lists. */
export function listTable(records: GwRecord[], columns: Column[], {color}: {color: boolean}): string {
  const table = new Table({head: columns.map((c) => paint(color, 'bold', c.label)), style: {head: [], border: color ? ['grey'] : []}})
  for (const record of records) table.push(columns.map((column) => formatCell(record, column, color)))
  return table.toString() + '\n'
}
