import {PagingError} from '../errors.js'

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
}

/** A gateway that keeps answering with more pages stops here, so a list of every page cannot run forever. */
export const MAX_PAGES = 500

export function readPaging(envelope: Record<string, unknown>): Paging {
  return {
    page: integer(envelope.current_page) ?? integer(envelope.page),
    pages: integer(envelope.pages) ?? integer(envelope.total_pages),
    total: integer(envelope.total_records),
  }
}

/**
 * Every record of a list, page after page. The first page is asked for with no page number, so
 * whatever the gateway calls its first page (0 or 1) is where counting starts.
 */
export async function collectPages<T>(fetchPage: (page: number | undefined) => Promise<ListPage<T>>, maxPages = MAX_PAGES): Promise<T[]> {
  const records: T[] = []
  let requested: number | undefined
  let first: number | undefined
  for (let fetched = 0; fetched < maxPages; fetched++) {
    const answer = await fetchPage(requested)
    if (requested !== undefined && answer.paging.page !== undefined && answer.paging.page !== requested) {
      throw new PagingError(`Asked the gateway for page ${requested} of the list and it answered with page ${answer.paging.page}`)
    }
    records.push(...answer.records)
    const current = answer.paging.page ?? requested ?? 1
    first ??= current
    const last = answer.paging.pages === undefined ? undefined : first + answer.paging.pages - 1
    // Without a page count, an empty page is the only sure end.
    if (last === undefined ? answer.records.length === 0 : current >= last) return records
    requested = current + 1
  }
  throw new PagingError(`The list did not end after ${maxPages} pages`)
}

function integer(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value)
  return undefined
}
