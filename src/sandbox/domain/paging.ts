import {badRequest} from './errors.js'
import type {Positional} from './shelves.js'
import {sentDay} from '../../lib/days.js'

/** gateway-notes.md: libraries page with offset/limit (default 10, at most 50) or page/per_page. */
const DEFAULT_PAGE_SIZE = 10
const MAX_PAGE_SIZE = 50

export interface Page<T> {
  records: T[]
  /** The list envelope's fields, beside `response` (contract §2.1). */
  fields: {records: number; total_records: number; pages: number; current_page: number}
}

function queryInteger(query: Record<string, string>, name: string, least: number): number | undefined {
  const text = query[name]
  if (text === undefined || text === '') return undefined
  if (!/^\d+$/.test(text) || Number(text) < least) throw badRequest([`${name} must be a whole number of ${least} or more`])
  return Number(text)
}

/**
 * `from`/`to` as an instant: a date (`2026-11-01`, or `2026/11/01` as the gateway's recordings
 * send it: the merchant's day, from its start or to its end) or a date-time.
 */
function queryTime(query: Record<string, string>, name: 'from' | 'to'): number | undefined {
  const text = query[name]
  if (text === undefined || text === '') return undefined
  const invalid = () => badRequest([`${name} must be a date such as 2026-11-01, or a date-time`])
  const day = sentDay(text)
  if (!day) {
    // ISO 8601 only: Date.parse would take almost anything (2026-11/02) as some day.
    const time = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text) ? Date.parse(text) : Number.NaN
    if (Number.isNaN(time)) throw invalid()
    return time
  }
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return name === 'from' ? new Date(year, month - 1, date).getTime() : new Date(year, month - 1, date + 1).getTime() - 1
}

/** The first position from which `after` holds, for records in the order of `after`. */
function firstWhere<T>(all: Positional<T>, after: (record: T) => boolean): number {
  let low = 0
  let high = all.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (after(all.at(middle) as T)) high = middle
    else low = middle + 1
  }
  return low
}

/**
 * One page of `all`, newest first, as the live gateway lists every list (gateway-notes.md: Lists;
 * the contract names no order). A size above the maximum is cut to it, as the gateway does;
 * `offset` wins over `page` when both are given. Pages count from 1. With `timeOf`, `from` and
 * `to` keep the records of that span (both ends included), found by binary search: records are
 * kept in the order they were made, and the sandbox's clock never goes back. Only the page is read.
 */
export function pageOf<T>(all: Positional<T>, query: Record<string, string>, timeOf?: (record: T) => string): Page<T> {
  const size = Math.min(queryInteger(query, 'per_page', 1) ?? queryInteger(query, 'limit', 1) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
  const offset = queryInteger(query, 'offset', 0) ?? ((queryInteger(query, 'page', 1) ?? 1) - 1) * size
  const [from, to] = [queryTime(query, 'from'), queryTime(query, 'to')]
  const instant = (record: T) => (timeOf ? Date.parse(timeOf(record)) : 0)
  const first = timeOf && from !== undefined ? firstWhere(all, (record) => instant(record) >= from) : 0
  const end = timeOf && to !== undefined ? firstWhere(all, (record) => instant(record) > to) : all.length
  const total = Math.max(0, end - first)
  const records: T[] = []
  // Kept oldest first: the page at `offset` counts back from the end of the span.
  for (let index = end - 1 - offset; index >= Math.max(first, end - offset - size); index--) records.push(all.at(index) as T)
  const fields = {
    records: records.length,
    total_records: total,
    pages: Math.max(1, Math.ceil(total / size)),
    current_page: Math.floor(offset / size) + 1,
  }
  return {records, fields}
}
