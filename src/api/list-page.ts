import {GatewayError, GwError, PagingError} from '../errors.js'

// One page of a list as gw reads it; the rules of walking a list's pages are src/api/paging.ts's.

/**
 * Where one page of a list sits. The contract sends `current_page`/`pages`/`total_records`, the
 * live gateway `page`/`total_pages`, counting from 0 or 1 (gateway-notes.md); both read the same.
 */
export interface Paging {
  /** The page this answer holds, counted as the gateway counts. */
  page?: number
  pages?: number
  total?: number
}

export interface ListPage<T> {
  records: T[]
  paging: Paging
  /** More records of the same answer, read as they are asked for: a gateway that sent far more than a page in one (list-text.ts readListBody). */
  more?: AsyncIterable<T[]>
}

export function readPaging(envelope: Record<string, unknown>): Paging {
  return {
    page: integer(envelope.current_page) ?? integer(envelope.page),
    pages: integer(envelope.pages) ?? integer(envelope.total_pages),
    total: integer(envelope.total_records),
  }
}

/**
 * Asks the gateway for the records at `offset`, `limit` of them (in the order the gateway pages in); `page`
 * says the same in the gateway's own page numbers (0- or 1-based, as its first answer showed), for
 * a gateway that pages by page and per_page.
 */
export type FetchPage<T> = (at: {offset: number; limit: number; page?: number}) => Promise<ListPage<T>>

/** A page of a list that could not be read, even after the retries every read gets: what was printed before it stands. */
export class ListPageError extends GatewayError {
  constructor(at: {offset: number; size: number; total?: number}, cause: unknown) {
    const records = `records ${at.offset + 1}-${at.offset + at.size}${at.total === undefined ? '' : ` of ${at.total}`}`
    const why = cause instanceof Error ? cause.message : String(cause)
    super(cause instanceof GwError && cause.kind === 'network' ? 'network' : 'gateway', `Page ${at.offset / at.size + 1} of the list (${records}) could not be read: ${why}`, {
      status: cause instanceof GwError ? cause.status : undefined,
      requestId: cause instanceof GwError ? cause.requestId : undefined,
    })
  }
}

export async function readPage<T>(fetch: FetchPage<T>, at: {offset: number; size: number; total?: number; page?: number}): Promise<ListPage<T>> {
  try {
    return await fetch({offset: at.offset, limit: at.size, ...(at.page === undefined ? {} : {page: at.page})})
  } catch (err) {
    // An answer that means something of its own (credentials, permission, a 404), or a list that did not page, is that answer.
    if (err instanceof GwError && (err.exitCode !== 1 || err instanceof PagingError)) throw err
    throw new ListPageError(at, err)
  }
}

function integer(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value)
  return undefined
}
