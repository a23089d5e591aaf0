import {badRequest} from './errors.js'

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
 * One page of `all`. A size above the maximum is cut to it, as the gateway does; `offset` wins
 * over `page` when both are given. Pages count from 1.
 */
export function pageOf<T>(all: T[], query: Record<string, string>): Page<T> {
  const size = Math.min(queryInteger(query, 'per_page', 1) ?? queryInteger(query, 'limit', 1) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
  const offset = queryInteger(query, 'offset', 0) ?? ((queryInteger(query, 'page', 1) ?? 1) - 1) * size
  const records = all.slice(offset, offset + size)
  const fields = {
    records: records.length,
    total_records: all.length,
    pages: Math.max(1, Math.ceil(all.length / size)),
    current_page: Math.floor(offset / size) + 1,
  }
  return {records, fields}
}
