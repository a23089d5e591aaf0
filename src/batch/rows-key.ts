import {createHash} from 'node:crypto'
import type {BatchEntry} from './read.js'

/**
 * What makes two inputs one batch (design.md §5): the rows they hold, as read, never their bytes.
 * A copy saved with CRLF line ends, without its final newline, with a byte order mark, blank lines,
 * spaces around header names or fields, its columns in another order, or as NDJSON instead of CSV
 * holds the same rows, so it is the same batch: its rows sent once, under one journal. A blank field
 * is no field (a refund's blank reference and amount are as good as none given). Row order counts:
 * a batch's rows are journaled by their place in it.
 */
export class RowsKey {
  private readonly hash = createHash('sha256')

  add(entry: BatchEntry): void {
    const row = 'problem' in entry ? {problem: entry.problem} : fieldsOf(entry.values)
    this.hash.update(`${JSON.stringify(row)}\n`)
  }

  /** The key of the rows added (sha256, hex); once only. */
  digest(): string {
    return this.hash.digest('hex')
  }
}

/** A row's fields in one order (by name: a CSV's names are read trimmed), as text as the row checks read them (trimmed; a number as written); blank ones left out. */
function fieldsOf(values: Record<string, unknown>): [string, string][] {
  const fields: [string, string][] = []
  for (const [name, value] of Object.entries(values)) {
    const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : JSON.stringify(value)
    if (text !== '') fields.push([name, text])
  }
  return fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}
