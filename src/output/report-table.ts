import type {Column} from './columns.js'
import type {Io} from './io.js'
import {netShares} from './net-chart.js'
import {printsTable, renderList, type RenderOptions} from './render.js'
import type {GwRecord} from '../api/schemas/record.js'

/** The chart of each day's net: a column of the terminal's table only, never a field of the JSON. */
export const NET_CHART: Column = {label: 'Net by day', field: 'net_chart', format: 'bar', need: 'most'}

/**
 * gw report's rows. Piped or with --json, the day rows alone, so that `jq -s 'map(.net) | add'`
 * counts each day once. At a terminal a table; over more than one day, with a bar of each day's
 * net and a total row per currency after the days.
 */
export async function renderReport(io: Io, rows: GwRecord[], columns: Column[], options: RenderOptions): Promise<void> {
  const days = new Set(rows.map((row) => row.day)).size
  if (days < 2 || !printsTable(io, options)) return renderList(io, rows, columns, options)
  const shares = netShares(rows as {currency: unknown; net: unknown}[])
  const charted = rows.map((row, i) => ({...row, [NET_CHART.field]: shares[i]}))
  const fields = options.fields && {fields: [...options.fields, NET_CHART.field]}
  await renderList(io, [...charted, ...totalRows(rows)], [...columns, NET_CHART], {...options, ...fields})
}

/** A row per currency adding up each count and sum of its days: amounts in two currencies are never added together. */
export function totalRows(rows: readonly GwRecord[]): GwRecord[] {
  const totals = new Map<unknown, GwRecord>()
  for (const row of rows) {
    const total = totals.get(row.currency) ?? {day: 'Total', currency: row.currency}
    for (const [field, value] of Object.entries(row)) if (typeof value === 'number') total[field] = ((total[field] as number | undefined) ?? 0) + value
    totals.set(row.currency, total)
  }
  return [...totals.values()].sort((a, b) => (String(a.currency) < String(b.currency) ? -1 : 1))
}
