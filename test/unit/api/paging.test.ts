import {describe, expect, it} from 'vitest'
import {type FetchPage, ListPageError, type Paging, readPaging, walkList} from '../../../src/api/paging.js'
import {AuthError, GatewayError, PagingError} from '../../../src/errors.js'
import {hintFor} from '../../../src/output/hints.js'
import {expectReject} from '../../expect-error.js'

describe('readPaging', () => {
  it.each<[string, Record<string, unknown>, Paging]>([
    ['contract style', {successful: true, response: [], records: 10, total_records: 23, pages: 3, current_page: 2}, {page: 2, pages: 3, total: 23}],
    ['live style from 0', {successful: true, response: [], page: 0, total_pages: 4}, {page: 0, pages: 4, total: undefined}],
    ['live style from 1', {successful: true, response: [], page: 1, total_pages: 1}, {page: 1, pages: 1, total: undefined}],
    ['numbers as strings', {successful: true, response: [], current_page: '2', pages: '5', total_records: '41'}, {page: 2, pages: 5, total: 41}],
    ['no paging at all', {successful: true, response: []}, {page: undefined, pages: undefined, total: undefined}],
    ['nonsense values', {successful: true, response: [], current_page: 'x', pages: -1, total_records: 1.5}, {page: undefined, pages: undefined, total: undefined}],
  ])('%s', (_, envelope, expected) => {
    expect(readPaging(envelope)).toEqual(expected)
  })
})

type Row = {id: string; transaction_date: string}
/** The i-th record made, a minute after the one before it. */
const row = (i: number): Row => ({id: `r${i}`, transaction_date: new Date(Date.UTC(2026, 10, 17) + i * 60_000).toISOString()})
const ids = (pages: Row[][]) => pages.flat().map((record) => record.id)
const range = (from: number, to: number) => Array.from({length: to - from}, (_, i) => `r${from + i}`)

/**
 * A fake list endpoint over `records()`, oldest first, answering in the paging style given: by
 * offset (the contract's envelope, pages from 1), or by page number only (the live gateway's
 * `page`/`total_pages`, from 0 or 1, ignoring offset). Records each place asked for.
 */
function gateway(records: () => Row[], style: 'contract' | 'live0' | 'live1' | 'unpaged', {maxSize = 50} = {}) {
  const asked: {offset: number; limit: number; page?: number}[] = []
  const fetch: FetchPage<Row> = async (at) => {
    asked.push(at)
    const all = records()
    const size = Math.min(at.limit, maxSize)
    if (style === 'unpaged') return {records: all, paging: {}}
    const base = style === 'live0' ? 0 : 1
    const index = style === 'contract' ? at.offset / size : (at.page ?? base) - base
    const page = all.slice(index * size, index * size + size)
    const pages = Math.max(1, Math.ceil(all.length / size))
    return {records: page, paging: style === 'contract' ? {page: index + 1, pages, total: all.length} : {page: index + base, pages}}
  }
  return {asked, fetch}
}

const walk = async (fetch: FetchPage<Row>, newestFirst: boolean, ahead = 3) => {
  const pages: Row[][] = []
  for await (const page of walkList(fetch, {order: newestFirst ? 'newest' : 'oldest', ahead})) pages.push(page)
  return pages
}

describe('walkList', () => {
  // Records without dates (web hooks) in the order their list is known to page in.
  it.each(['contract', 'unpaged'] as const)('undated records: read in the order undatedOrder tells from the first page, backwards where it is not the one asked for (%s)', async (style) => {
    const undated = () => Array.from({length: 75}, (_, i) => ({id: `r${i}`}) as unknown as Row)
    const told: string[][] = []
    const telling = (order: 'newest' | 'oldest' | undefined) => async (first: readonly Record<string, unknown>[]) => (told.push(first.map((row) => String(row.id))), order)
    const read = async (order: 'newest' | 'oldest', tells?: 'newest' | 'oldest' | 'nothing') => {
      const pages: Row[][] = []
      const options = {order, ahead: 2, ...(tells === undefined ? {} : {undatedOrder: telling(tells === 'nothing' ? undefined : tells)})}
      for await (const page of walkList(gateway(undated, style).fetch, options)) pages.push(page)
      return ids(pages)
    }
    expect(await read('newest', 'oldest')).toEqual(range(0, 75).reverse())
    expect(await read('oldest', 'oldest')).toEqual(range(0, 75))
    // The first page it is asked with: all 75 where the gateway does not page, else the first 50.
    expect(told.at(-1)).toEqual(range(0, style === 'unpaged' ? 75 : 50))
    // Told newest first (the gateway of 2018): as read for newest first, backwards for oldest first.
    expect(await read('newest', 'newest')).toEqual(range(0, 75))
    expect(await read('oldest', 'newest')).toEqual(range(0, 75).reverse())
    // Not known: as the gateway pages them, claiming no order.
    expect(await read('newest', 'nothing')).toEqual(range(0, 75))
    expect(await read('newest')).toEqual(range(0, 75))
  })

  it.each(['contract', 'live0', 'live1'] as const)('newest first in the %s style: the first page for the count, then from the last page back', async (style) => {
    const {asked, fetch} = gateway(() => Array.from({length: 123}, (_, i) => row(i)), style)
    const pages = await walk(fetch, true)
    expect(ids(pages)).toEqual(range(0, 123).reverse())
    expect(pages.map((page) => page.length)).toEqual([23, 50, 50])
    const base = style === 'live0' ? 0 : 1
    expect(asked).toEqual([
      {offset: 0, limit: 50},
      {offset: 100, limit: 50, page: base + 2},
      {offset: 50, limit: 50, page: base + 1},
    ])
  })

  it.each(['contract', 'live0', 'live1'] as const)('oldest first in the %s style, page after page', async (style) => {
    const {asked, fetch} = gateway(() => Array.from({length: 101}, (_, i) => row(i)), style)
    expect(ids(await walk(fetch, false))).toEqual(range(0, 101))
    expect(asked.map((at) => at.offset)).toEqual([0, 50, 100])
  })

  it('an empty list and a list of one page are asked for once', async () => {
    for (const count of [0, 7, 50]) {
      const {asked, fetch} = gateway(() => Array.from({length: count}, (_, i) => row(i)), 'contract')
      expect(ids(await walk(fetch, true))).toEqual(range(0, count).reverse())
      expect(asked).toHaveLength(1)
    }
  })

  it('an answer without paging fields is the whole list, read once (web hooks)', async () => {
    const {asked, fetch} = gateway(() => Array.from({length: 50}, (_, i) => row(i)), 'unpaged')
    expect(ids(await walk(fetch, true))).toEqual(range(0, 50).reverse())
    expect(asked).toHaveLength(1)
  })

  it('a gateway that hands out fewer a page than asked for is paged in its own size', async () => {
    const {asked, fetch} = gateway(() => Array.from({length: 25}, (_, i) => row(i)), 'contract', {maxSize: 10})
    expect(ids(await walk(fetch, true))).toEqual(range(0, 25).reverse())
    expect(asked.map((at) => [at.offset, at.limit])).toEqual([[0, 50], [20, 10], [10, 10]])
  })

  it('a page that changes size while paging: a record deleted meanwhile shifts the pages, and nothing is handed over twice', async () => {
    const all = Array.from({length: 120}, (_, i) => row(i))
    let reads = 0
    // After the first two reads (the first page, the last page) the record r60 is deleted.
    const {fetch} = gateway(() => (++reads > 2 ? all.filter((record) => record.id !== 'r60') : all), 'contract')
    const seen = ids(await walk(fetch, true, 1))
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen).toEqual(range(0, 120).filter((id) => id !== 'r60').reverse())
  })

  it('a record added while paging newest first is not shown, and none is lost', async () => {
    const all = Array.from({length: 100}, (_, i) => row(i))
    let reads = 0
    const {fetch} = gateway(() => (++reads === 2 ? (all.push(row(100)), all) : all), 'contract')
    expect(ids(await walk(fetch, true, 1))).toEqual(range(0, 100).reverse())
  })

  it('refuses a gateway that answers another page than the one asked for', async () => {
    let calls = 0
    const stuck: FetchPage<Row> = async () => ({records: Array.from({length: 50}, (_, i) => row(calls++ * 50 + i)), paging: {page: 1, pages: 9}})
    await expectReject(walk(stuck, false), PagingError, 'Asked the gateway for page 2 of the list (records from 51) and it answered with page 1: it does not page by offset or page number')
  })

  it('words no flag itself: the renderer says how to page by hand (design.md §7)', async () => {
    const stuck: FetchPage<Row> = async () => ({records: Array.from({length: 50}, (_, i) => row(i)), paging: {page: 1}})
    const failure = await walk(stuck, false).catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(PagingError)
    expect(failure).toMatchObject({exitCode: 1, kind: 'unreadable', hint: undefined})
    expect(hintFor(failure as PagingError)).toBe('Read its pages one at a time with gw api PATH --query offset=N --query limit=50.')
  })

  it('a list that does not say its length is read forward to its first short page', async () => {
    const records = Array.from({length: 130}, (_, i) => row(i))
    const fetch: FetchPage<Row> = async (at) => ({records: records.slice(at.offset, at.offset + at.limit), paging: {page: (at.page ?? 1)}})
    expect(ids(await walk(fetch, true))).toEqual(range(0, 130).reverse())
  })

  it('a page that cannot be read is named, after everything before it was handed over', async () => {
    const {fetch} = gateway(() => Array.from({length: 150}, (_, i) => row(i)), 'contract')
    const failing: FetchPage<Row> = async (at) => {
      if (at.offset === 50) throw new GatewayError('network', 'connect ECONNREFUSED 127.0.0.1:9')
      return fetch(at)
    }
    const handed: string[] = []
    const run = (async () => {
      for await (const page of walkList(failing, {order: 'newest', ahead: 2})) handed.push(...ids([page]))
    })()
    await expect(run).rejects.toThrow(ListPageError)
    await expectReject(run, ListPageError, 'Page 2 of the list (records 51-100 of 150) could not be read: connect ECONNREFUSED 127.0.0.1:9')
    expect(handed).toEqual(range(100, 150).reverse())
  })

  it('an answer that means something of its own (401, 404) is passed on as it is', async () => {
    const denied: FetchPage<Row> = async () => {
      throw new AuthError('Incorrect Username or Token')
    }
    await expect(walk(denied, true)).rejects.toBeInstanceOf(AuthError)
  })
})
