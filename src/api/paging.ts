import {GatewayError, GwError, PagingError} from '../errors.js'
import {inOrder} from '../in-order.js'

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

/** Records asked for a page: the most the gateway's libraries ask for (gateway-notes.md). */
export const PAGE_SIZE = 50

/** A list whose end could not be told: it stops here rather than run for ever. */
const MAX_PAGES = 100_000

export function readPaging(envelope: Record<string, unknown>): Paging {
  return {
    page: integer(envelope.current_page) ?? integer(envelope.page),
    pages: integer(envelope.pages) ?? integer(envelope.total_pages),
    total: integer(envelope.total_records),
  }
}

/**
 * Asks the gateway for the records at `offset`, `limit` of them (the list is oldest first); `page`
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

/**
 * A list's records a page at a time, newest first (the gateway pages oldest first: the first page
 * tells how many there are, then the pages are read from the last) or oldest first. Up to `ahead`
 * pages are asked for at once and handed over in order, so a page is on its way while the one
 * before is printed. Only the pages in flight are held. A record met on two pages in a row (the
 * list shifted while it was read) is handed over once.
 */
export async function* walkList<T extends Record<string, unknown>>(fetch: FetchPage<T>, {newestFirst, ahead}: {newestFirst: boolean; ahead: number}): AsyncGenerator<T[]> {
  const inOrderOf = (records: T[]) => (newestFirst ? [...records].reverse() : records)
  const first = await readPage(fetch, {offset: 0, size: PAGE_SIZE})
  const {page, pages, total} = first.paging
  // No paging in the answer, or more than was asked for: the gateway does not page this list, and this is all of it.
  if ((page === undefined && pages === undefined && total === undefined) || first.records.length > PAGE_SIZE) return yield inOrderOf(first.records)
  // A gateway that hands out fewer a page than asked for (with more to come) is paged in its own size.
  const more = (total ?? 0) > first.records.length || (pages ?? 0) > 1
  const size = more && first.records.length > 0 && first.records.length < PAGE_SIZE ? first.records.length : PAGE_SIZE
  const walk: Walk<T> = {fetch, size, base: page ?? 1, total, firstIds: idsOf(first.records)}
  const count = total ?? (pages !== undefined ? pages * size : first.records.length < size ? first.records.length : await findEnd(walk, ahead))
  const lastOffset = Math.max(0, Math.ceil(count / size) - 1) * size
  const offsets = (function* () {
    if (newestFirst) for (let offset = lastOffset; offset > 0; offset -= size) yield offset
    else for (let offset = size; offset <= lastOffset; offset += size) yield offset
  })()
  let previous = new Set<unknown>()
  const once = (records: T[]): T[] => {
    const fresh = records.filter((record) => record.id === undefined || record.id === null || !previous.has(record.id))
    previous = idsOf(records)
    return fresh
  }
  if (!newestFirst) yield once(first.records)
  for await (const later of inOrder(offsets, ahead, (offset) => readLater(walk, offset))) yield once(inOrderOf(later.records))
  if (newestFirst) yield once(inOrderOf(first.records))
}

/** What every page after the first is read with. */
interface Walk<T> {
  fetch: FetchPage<T>
  size: number
  /** The number the gateway gave its first page (0 or 1). */
  base: number
  total?: number
  firstIds: Set<unknown>
}

const idsOf = (records: Record<string, unknown>[]) => new Set(records.map((record) => record.id))

async function readPage<T>(fetch: FetchPage<T>, at: {offset: number; size: number; total?: number; page?: number}): Promise<ListPage<T>> {
  try {
    return await fetch({offset: at.offset, limit: at.size, ...(at.page === undefined ? {} : {page: at.page})})
  } catch (err) {
    // An answer that means something of its own (credentials, permission, a 404) is that answer.
    if (err instanceof GwError && err.exitCode !== 1) throw err
    throw new ListPageError(at, err)
  }
}

/** A page after the first, checked to be the one asked for: a gateway that ignores the place asked would repeat its first page for ever. */
async function readLater<T extends Record<string, unknown>>(walk: Walk<T>, offset: number): Promise<ListPage<T>> {
  const asked = walk.base + offset / walk.size
  const answer = await readPage(walk.fetch, {offset, size: walk.size, total: walk.total, page: asked})
  const repeatsFirst = answer.records.length > 0 && answer.records.every((record) => walk.firstIds.has(record.id))
  if ((answer.paging.page !== undefined && answer.paging.page !== asked) || repeatsFirst) {
    throw new PagingError(`Asked the gateway for page ${asked} of the list (records from ${offset + 1}) and it answered with ${repeatsFirst ? 'the first page again' : `page ${answer.paging.page}`}: it does not page by offset or page number`)
  }
  return answer
}

/** A list that does not say how long it is: pages read forward, their records not kept, until one comes short. */
async function findEnd<T extends Record<string, unknown>>(walk: Walk<T>, ahead: number): Promise<number> {
  const offsets = (function* () {
    for (let page = 1; page < MAX_PAGES; page++) yield page * walk.size
  })()
  for await (const [offset, page] of inOrder(offsets, ahead, async (offset) => [offset, await readLater(walk, offset)] as const)) {
    if (page.records.length < walk.size) return offset + page.records.length
  }
  throw new PagingError(`The list did not end after ${MAX_PAGES} pages`)
}

function integer(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value)
  return undefined
}
