import Table from 'cli-table3'
import type {Column} from './columns.js'
import {paint} from './colors.js'
import {formatCell, isNested, keyPaths} from './format.js'
import {displayWidth, truncate, wrap} from './text-width.js'

type GwRecord = Record<string, unknown>

export interface TableOptions {
  color: boolean
  /** The terminal's width in columns: no line printed is wider. */
  width: number
}

const GAP = 2
/** Narrower than this a column says little; rather than go below it, columns are left out (see fitColumns). */
const MIN_COLUMN = 12

/**
 * One record as a field/value list: a label column and values wrapped to the terminal's width,
 * no boxes. Empty fields are left out; a nested value (a web hook payload) follows its label as
 * indented key paths.
 */
export function fieldList(record: GwRecord, columns: Column[], {color, width}: TableOptions): string {
  const rows = columns.map((column) => ({column, value: record[column.field], cell: formatCell(record, column, color)})).filter((row) => row.cell !== '')
  const labelWidth = Math.min(Math.max(0, ...rows.map((row) => displayWidth(row.column.label))), Math.floor(width / 3))
  const lines: string[] = []
  for (const {column, value, cell} of rows) {
    const label = truncate(column.label, labelWidth)
    if (!column.format && isNested(value)) {
      lines.push(paint(color, 'bold', label))
      lines.push(...pathLines(keyPaths(value), width))
      continue
    }
    const padded = paint(color, 'bold', label) + ' '.repeat(labelWidth - displayWidth(label) + GAP)
    const [first = '', ...rest] = wrap(cell, Math.max(1, width - labelWidth - GAP))
    lines.push(padded + first, ...rest.map((line) => ' '.repeat(labelWidth + GAP) + line))
  }
  return lines.map((line) => line + '\n').join('')
}

/** Key paths indented under their label, the values lined up and wrapped. */
function pathLines(paths: Array<[string, string]>, width: number): string[] {
  const indent = 2
  const pathWidth = Math.min(Math.max(...paths.map(([path]) => displayWidth(path))), Math.floor((width - indent) / 2))
  const valueWidth = Math.max(1, width - indent - pathWidth - GAP)
  const lines: string[] = []
  for (const [path, text] of paths) {
    const shown = truncate(path, pathWidth)
    const [first = '', ...rest] = wrap(text, valueWidth)
    lines.push(' '.repeat(indent) + shown + ' '.repeat(pathWidth - displayWidth(shown) + GAP) + first)
    lines.push(...rest.map((line) => ' '.repeat(indent + pathWidth + GAP) + line))
  }
  return lines
}

export interface FittedTable {
  text: string
  /** Labels of columns that did not fit at all, for a note on stderr. */
  leftOut: string[]
}

/**
 * Records as one table, a row each, no line wider than the terminal. Columns keep their natural
 * width when everything fits; otherwise the widest are narrowed first and their values cut with
 * `…`. Columns a support task seldom reads (Column.priority 2, then 3) are left out before
 * any it does is cut; when even the narrowest widths do not fit, columns are left out from the end. Columns empty in every record are dropped unless asked for by name (keepEmpty).
 */
export function recordsTable(records: GwRecord[], columns: Column[], {color, width, keepEmpty = false}: TableOptions & {keepEmpty?: boolean}): FittedTable {
  const cells = records.map((record) => columns.map((column) => formatCell(record, column, color, {inTable: true})))
  let shown = columns.map((column, index) => ({column, index})).filter(({index}) => keepEmpty || cells.some((row) => row[index] !== ''))
  const naturalOf = ({column, index}: {column: Column; index: number}) => Math.max(displayWidth(column.label), ...cells.map((row) => displayWidth(row[index]!)))
  const left: typeof shown = []
  const priority = ({column}: {column: Column}) => column.priority ?? 1
  const leaveOutLeastNeeded = () => {
    const least = shown.reduce((worst, candidate) => (priority(candidate) >= priority(worst) ? candidate : worst))
    left.push(least)
    shown = shown.filter((entry) => entry !== least)
  }
  // The id the next command takes (priority 0) is kept whole, up to half the width; with none, the first column, which names the row.
  const whole = () => Math.max(0, shown.findIndex((entry) => priority(entry) === 0))
  // What a support task reads (priority 0 and 1) is cut only once every column it seldom reads is gone.
  const cutsNeeded = () => {
    const natural = shown.map(naturalOf)
    const {widths, kept} = fitColumns(natural, width, whole())
    return kept < shown.length || shown.some((entry, i) => priority(entry) <= 1 && widths[i]! < natural[i]!)
  }
  while (shown.some((entry) => priority(entry) > 1) && cutsNeeded()) leaveOutLeastNeeded()
  // A narrow column left out before a wide one of its rank went may fit again once that one is
  // gone; never while a column more needed is still left out.
  for (const entry of [...left].reverse()) {
    if (left.some((other) => priority(other) < priority(entry))) continue
    const before = shown
    shown = [...shown, entry].sort((a, b) => a.index - b.index)
    if (cutsNeeded()) shown = before
    else left.splice(left.indexOf(entry), 1)
  }
  while (shown.length > 1 && fitColumns(shown.map(naturalOf), width, whole()).kept < shown.length) leaveOutLeastNeeded()
  const leftOut = left.map(({column}) => column.label)
  const {widths} = fitColumns(shown.map(naturalOf), width, whole())
  const table = new Table({
    head: shown.map(({column}, i) => paint(color, 'bold', truncate(column.label, widths[i]!))),
    colWidths: widths.map((w) => w + 2),
    wordWrap: false,
    truncate: '…',
    // compact: a rule under the header only, none between rows.
    style: {head: [], border: color ? ['grey'] : [], compact: true},
  })
  for (const row of cells) table.push(shown.map(({index}, i) => truncate(row[index]!, widths[i]!)))
  return {text: table.toString() + '\n', leftOut}
}

/**
 * Content widths for columns of the given natural widths in a table `total` columns wide (each
 * column also takes a border and two spaces of padding, and the table one more border). Returns
 * how many leading columns fit at all and their widths: the widest are narrowed first
 * (water-filling), so short columns such as amounts and outcomes stay whole.
 */
export function fitColumns(natural: number[], total: number, whole = 0): {widths: number[]; kept: number} {
  let kept = natural.length
  const room = (n: number) => total - 1 - 3 * n
  // The column that names the row (an id; `whole`, the first unless told): kept whole when it takes up to half the width.
  const floor = (w: number, i: number) => Math.min(w, i === whole ? Math.max(MIN_COLUMN, Math.floor(total / 2)) : MIN_COLUMN)
  const floors = (n: number) => natural.slice(0, n).reduce((sum, w, i) => sum + floor(w, i), 0)
  while (kept > 1 && floors(kept) > room(kept)) kept--
  const wanted = natural.slice(0, kept)
  const available = Math.max(room(kept), kept)
  if (wanted.reduce((sum, w) => sum + w, 0) <= available) return {widths: wanted, kept}
  // The largest cap at which every column narrowed to it (not below its floor) fits.
  let cap = Math.max(...wanted)
  const width = (c: number) => wanted.reduce((sum, w, i) => sum + Math.min(w, Math.max(floor(w, i), c)), 0)
  while (cap > 1 && width(cap) > available) cap--
  const widths = wanted.map((w, i) => Math.min(w, Math.max(floor(w, i), cap)))
  // What the cap leaves over goes to the columns it cut, left to right.
  let spare = available - widths.reduce((sum, w) => sum + w, 0)
  for (let i = 0; i < widths.length && spare > 0; i++) {
    if (widths[i]! < wanted[i]!) {
      widths[i]!++
      spare--
    }
  }
  if (kept === 1) widths[0] = Math.min(widths[0]!, Math.max(1, available))
  return {widths, kept}
}
