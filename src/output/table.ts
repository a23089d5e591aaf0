import Table from 'cli-table3'
import {type Column, NEEDS} from './columns.js'
import {type Form, formsOf} from './table-forms.js'
import {paint} from './colors.js'
import {formatCell, isNested, keyPaths} from './format.js'
import {displayWidth, truncate, wrap} from './text-width.js'
import type {GwRecord} from '../api/schemas/record.js'

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
    if (column.rows && Array.isArray(value) && value.length > 0) {
      lines.push(paint(color, 'bold', label))
      lines.push(...recordsTable(value as GwRecord[], column.rows, {color, width}).text.replace(/\n$/, '').split('\n'))
      continue
    }
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
  /** Labels of the columns left out to fit, the first left out first. */
  leftOut: string[]
  /** Those of them a person would miss (a column that matters, or one asked for by name): a note on stderr names them. */
  missed: string[]
}

/** A column as the table may show it: its cells in each form it has, the widest first (table-forms.ts). */
interface Candidate {
  column: Column
  index: number
  forms: Form[]
}

const needOf = ({column}: Candidate) => NEEDS.indexOf(column.need ?? 'often')
const SILENT = NEEDS.indexOf('often')
const ALWAYS = NEEDS.indexOf('always')

/**
 * Records as one table, a row each, no line wider than the terminal. Columns keep their natural
 * width when everything fits; otherwise a date loses its year, the widest columns are narrowed and
 * their values cut with `…`. Columns a person needs less (Column.need) are left out before one
 * needed more is cut; when even the narrowest widths do not fit, the least needed of the rest go
 * too, never one needed `always`. Columns empty in every record are dropped unless asked for by
 * name (keepEmpty).
 */
export function recordsTable(records: GwRecord[], columns: Column[], {color, width, keepEmpty = false}: TableOptions & {keepEmpty?: boolean}): FittedTable {
  const candidates = columns.map((column, index): Candidate => ({column, index, forms: formsOf(column, records, records.map((record) => formatCell(record, column, color, {inTable: true})))}))
  let shown = candidates.filter(({forms}) => keepEmpty || forms[0]!.cells.some((cell) => cell !== ''))
  const left: Candidate[] = []
  const leaveOutLeastNeeded = (among: Candidate[]) => {
    const least = among.reduce((worst, candidate) => (needOf(candidate) <= needOf(worst) ? candidate : worst))
    left.push(least)
    shown = shown.filter((entry) => entry !== least)
  }
  // Left out without a word while a column needed more is shortened, cut or cannot fit.
  for (;;) {
    const cut = shortenedColumns(layOut(shown, width))
    const most = Math.max(-1, ...cut.map(needOf))
    const silent = shown.filter((entry) => needOf(entry) <= SILENT && needOf(entry) < most)
    if (silent.length === 0) break
    leaveOutLeastNeeded(silent)
  }
  // A narrow column left out before a wide one of its need went may fit again once that one is
  // gone; never while a column more needed is still left out, nor by narrowing one needed more.
  for (const entry of [...left].reverse()) {
    if (left.some((other) => needOf(other) > needOf(entry))) continue
    const before = layOut(shown, width)
    const after = layOut([...shown, entry].sort((a, b) => a.index - b.index), width)
    if (fits(after) && !narrowed(before, after, needOf(entry))) {
      shown = after.shown
      left.splice(left.indexOf(entry), 1)
    }
  }
  for (;;) {
    const {kept} = layOut(shown, width)
    const goable = shown.filter((entry) => needOf(entry) < ALWAYS)
    if (kept === shown.length || goable.length === 0) break
    leaveOutLeastNeeded(goable)
  }
  const {widths, chosen, kept} = layOut(shown, width)
  const visible = shown.slice(0, kept)
  const table = new Table({
    head: visible.map((entry, i) => paint(color, 'bold', truncate(entry.forms[chosen[i]!]!.label, widths[i]!))),
    colWidths: widths.map((w) => w + 2),
    wordWrap: false,
    truncate: '…',
    // compact: a rule under the header only, none between rows.
    style: {head: [], border: color ? ['grey'] : [], compact: true},
  })
  for (let row = 0; row < records.length; row++) table.push(visible.map((entry, i) => truncate(entry.forms[chosen[i]!]!.cells[row]!, widths[i]!)))
  const gone = [...left, ...shown.slice(kept)]
  return {text: table.toString() + '\n', leftOut: gone.map(({column}) => column.label), missed: gone.filter((entry) => needOf(entry) > SILENT).map(({column}) => column.label)}
}

interface Layout {
  shown: Candidate[]
  /** Which of its forms each column shows. */
  chosen: number[]
  widths: number[]
  /** How many leading columns fit at all. */
  kept: number
}

/**
 * Widths for the columns shown (fitColumns), each in the widest of its forms that fits whole: a
 * column narrowed below its form takes its next one (a date without its year), and the room that
 * frees goes to the others.
 */
function layOut(shown: Candidate[], width: number): Layout {
  // The id the next command takes is kept whole; with none, the first column, which names the row.
  const whole = Math.max(0, shown.findIndex((entry) => entry.column.need === 'id'))
  const chosen = shown.map(() => 0)
  for (;;) {
    const natural = shown.map((entry, i) => entry.forms[chosen[i]!]!.width)
    const {widths, kept} = fitColumns(natural, width, whole)
    let changed = false
    for (const [i, entry] of shown.entries()) {
      const room = i < kept ? widths[i]! : 0
      if (room >= natural[i]! || chosen[i] === entry.forms.length - 1) continue
      chosen[i]!++
      changed = true
    }
    if (!changed) return {shown, chosen, widths, kept}
  }
}

/** The columns a layout shows in a shorter form than their first, cuts with `…`, or cannot fit at all. */
function shortenedColumns({shown, chosen, widths, kept}: Layout): Candidate[] {
  return shown.filter((entry, i) => i >= kept || chosen[i]! > 0 || widths[i]! < entry.forms[chosen[i]!]!.width)
}

const fits = ({shown, kept}: Layout) => kept === shown.length

/** Whether a column needed more than `need` is shown shorter or cut in `after` than in `before`. */
function narrowed(before: Layout, after: Layout, need: number): boolean {
  return after.shown.some((entry, i) => {
    const was = before.shown.indexOf(entry)
    if (was === -1 || needOf(entry) <= need) return false
    return after.chosen[i]! > before.chosen[was]! || after.widths[i]! < Math.min(before.widths[was]!, entry.forms[after.chosen[i]!]!.width)
  })
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
