import {describe, expect, it} from 'vitest'
import {collectPages, type ListPage, type Paging, readPaging} from '../../../src/api/paging.js'
import {GatewayError, PagingError} from '../../../src/errors.js'
import {hintFor} from '../../../src/output/hints.js'

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

/** A fake list endpoint over `count` records, answering in the paging style given; records its calls. */
function gateway(count: number, size: number, style: 'contract' | 'live0' | 'live1' | 'none') {
  const calls: (number | undefined)[] = []
  const base = style === 'live0' ? 0 : 1
  const pages = Math.ceil(count / size)
  const fetchPage = async (page: number | undefined): Promise<ListPage<number>> => {
    calls.push(page)
    const index = (page ?? base) - base
    const records = Array.from({length: count}, (_, i) => i).slice(index * size, index * size + size)
    const paging: Paging =
      style === 'none' ? {} : style === 'contract' ? {page: index + 1, pages, total: count} : {page: index + base, pages}
    return {records, paging}
  }
  return {calls, fetchPage}
}

describe('collectPages', () => {
  it.each([
    ['contract style (current_page from 1)', 'contract', [undefined, 2, 3]],
    ['live style counting from 0', 'live0', [undefined, 1, 2]],
    ['live style counting from 1', 'live1', [undefined, 2, 3]],
    ['no paging fields: stops at the first empty page', 'none', [undefined, 2, 3, 4]],
  ] as const)('follows every page, %s', async (_, style, expectedCalls) => {
    const {calls, fetchPage} = gateway(23, 10, style)
    expect(await collectPages(fetchPage)).toEqual(Array.from({length: 23}, (_, i) => i))
    expect(calls).toEqual(expectedCalls)
  })

  it('asks once for an empty list', async () => {
    const {calls, fetchPage} = gateway(0, 10, 'contract')
    expect(await collectPages(fetchPage)).toEqual([])
    expect(calls).toEqual([undefined])
  })

  it('stops on the last page when it is exactly full', async () => {
    const {calls, fetchPage} = gateway(20, 10, 'contract')
    expect(await collectPages(fetchPage)).toHaveLength(20)
    expect(calls).toEqual([undefined, 2])
  })

  it('refuses a gateway that answers another page than the one asked for', async () => {
    const stuck = async (): Promise<ListPage<number>> => ({records: [1], paging: {page: 1, pages: 9}})
    await expect(collectPages(stuck)).rejects.toThrow('Asked the gateway for page 2 of the list and it answered with page 1')
  })

  it('words no flag itself: the renderer says how to page by hand (design.md §7)', async () => {
    const failure = await collectPages(async (): Promise<ListPage<number>> => ({records: [1], paging: {page: 1, pages: 9}})).catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(PagingError)
    expect(failure).toMatchObject({exitCode: 1, kind: 'unreadable', hint: undefined})
    expect(hintFor(failure as PagingError)).toBe('Page through it by hand with --page and --limit instead of --all.')
  })

  it('gives up on a gateway that never ends, after the bound', async () => {
    let calls = 0
    const endless = async (page: number | undefined): Promise<ListPage<number>> => {
      calls++
      return {records: [1], paging: {page: page ?? 1}}
    }
    const failure = collectPages(endless, 5)
    await expect(failure).rejects.toThrow(GatewayError)
    await expect(collectPages(endless, 5)).rejects.toThrow('The list did not end after 5 pages')
    expect(calls).toBe(10)
  })
})
