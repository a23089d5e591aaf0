import {describe, expect, it} from 'vitest'
import {orderAcross, orderOf, pagedOrder} from '../../../src/api/list-order.js'
import {type FetchPage, type WalkState, walkList} from '../../../src/api/paging.js'

// gw reads the order a gateway lists in from the records' dates, and never assumes one (design.md §3).

type Row = Record<string, unknown>
const at = (minute: number) => new Date(Date.UTC(2026, 10, 17, 9, minute)).toISOString()

describe('orderOf', () => {
  it.each<[string, Row[], string]>([
    ['newest first by transaction_date', [{transaction_date: at(3)}, {transaction_date: at(2)}, {transaction_date: at(1)}], 'newest'],
    ['oldest first by created_at', [{created_at: at(1)}, {created_at: at(2)}, {created_at: at(3)}], 'oldest'],
    ['ties inside either order', [{created_at: at(3)}, {created_at: at(3)}, {created_at: at(1)}], 'newest'],
    ['the live gateway\'s offsets, read as instants', [{transaction_date: '2026-11-17T10:00:00+11:00'}, {transaction_date: '2026-11-16T22:30:00Z'}], 'newest'],
    ['steps both ways: the first against the last', [{created_at: at(5)}, {created_at: at(9)}, {created_at: at(1)}], 'newest'],
    ['one record', [{created_at: at(1)}], 'tied'],
    ['all of one date', [{created_at: at(1)}, {created_at: at(1)}], 'tied'],
    ['records without dates, or dates gw cannot read', [{id: 'a'}, {created_at: 'yesterday'}, {transaction_date: 7}], 'undated'],
    ['an undated record between dated ones is passed over', [{created_at: at(2)}, {id: 'x'}, {created_at: at(1)}], 'newest'],
    ['no records', [], 'undated'],
  ])('%s', (_, records, expected) => {
    expect(orderOf(records)).toBe(expected)
  })
})

describe('orderAcross the first and the last page', () => {
  it('compares the first page\'s first record with the last page\'s last', () => {
    expect(orderAcross([{created_at: at(5)}, {created_at: at(5)}], [{created_at: at(1)}, {created_at: at(1)}])).toBe('newest')
    expect(orderAcross([{created_at: at(1)}], [{created_at: at(5)}, {id: 'undated'}])).toBe('oldest')
    expect(orderAcross([{created_at: at(1)}], [{created_at: at(1)}])).toBe('tied')
    expect(orderAcross([{id: 'a'}], [{id: 'b'}])).toBe('undated')
    expect(orderAcross([{created_at: at(1)}], [{id: 'b'}])).toBe('tied')
  })

  it('takes dates all equal as the live gateway\'s order, and claims none without dates', () => {
    expect([pagedOrder('tied'), pagedOrder('undated'), pagedOrder('newest'), pagedOrder('oldest')]).toEqual(['newest', undefined, 'newest', 'oldest'])
  })
})

/** The n-th of `hold` records made, a minute apart (or all at one minute: `tied`, or none: `undated`). */
function record(n: number, dates: 'apart' | 'tied' | 'undated'): Row {
  return {id: `r${n}`, n, ...(dates === 'undated' ? {} : {transaction_date: at(dates === 'tied' ? 0 : n)})}
}

/**
 * A fake list of `hold` records paged newest first or oldest first, by offset with the contract's
 * count (`contract`), or by page number with the live gateway's `page`/`total_pages` from 0 (`live`).
 * `ignoresLimit` answers every record at once, as the live web hook list does.
 */
function gateway(hold: number, {order, style, dates = 'apart', ignoresLimit = false}: {order: 'newest' | 'oldest'; style: 'contract' | 'live'; dates?: 'apart' | 'tied' | 'undated'; ignoresLimit?: boolean}) {
  const all = Array.from({length: hold}, (_, n) => record(n, dates))
  const listed = order === 'newest' ? all.reverse() : all
  const asked: number[] = []
  const fetch: FetchPage<Row> = async ({offset, limit, page}) => {
    asked.push(offset)
    if (ignoresLimit) return {records: listed, paging: style === 'live' ? {page: 0, pages: 1} : {page: 1, pages: 1, total: hold}}
    const index = style === 'live' && page !== undefined ? page : offset / limit
    const records = listed.slice(index * limit, index * limit + limit)
    const pages = Math.max(1, Math.ceil(hold / limit))
    return {records, paging: style === 'live' ? {page: index, pages} : {page: index + 1, pages, total: hold}}
  }
  return {asked, fetch}
}

async function walk(fetch: FetchPage<Row>, order: 'newest' | 'oldest' | undefined, want?: number) {
  const handed: number[] = []
  const states: WalkState[] = []
  for await (const page of walkList(fetch, {order, ahead: 3, want, onState: (state) => states.push(state)})) {
    handed.push(...page.map((row) => row.n as number))
    if (want !== undefined && handed.length >= want) break
  }
  return {handed: want === undefined ? handed : handed.slice(0, want), told: states.at(-1)?.order}
}

const range = (from: number, to: number) => Array.from({length: to - from}, (_, i) => from + i)

describe.each(['newest', 'oldest'] as const)('walkList against a gateway that pages %s first', (paged) => {
  describe.each(['contract', 'live'] as const)('in the %s paging style', (style) => {
    it('newest first: every record, newest first, and says so', async () => {
      const {handed, told} = await walk(gateway(123, {order: paged, style}).fetch, 'newest')
      expect(handed).toEqual(range(0, 123).reverse())
      expect(told).toBe('newest')
    })

    it('oldest first: every record, oldest first', async () => {
      const {handed, told} = await walk(gateway(123, {order: paged, style}).fetch, 'oldest')
      expect(handed).toEqual(range(0, 123))
      expect(told).toBe('oldest')
    })

    it('the 5 newest, reading only the pages it needs', async () => {
      const {fetch, asked} = gateway(123, {order: paged, style})
      expect((await walk(fetch, 'newest', 5)).handed).toEqual([122, 121, 120, 119, 118])
      // In the gateway's order, the first page; against it, the first for the count, then the last (it holds 23).
      expect(asked).toEqual(paged === 'newest' ? [0] : [0, 100])
    })

    it('the 5 oldest', async () => {
      expect((await walk(gateway(123, {order: paged, style}).fetch, 'oldest', 5)).handed).toEqual([0, 1, 2, 3, 4])
    })

    it('the gateway\'s own order when none is asked for (gw api --paginate), naming it', async () => {
      const {handed, told} = await walk(gateway(123, {order: paged, style}).fetch, undefined)
      expect(handed).toEqual(paged === 'newest' ? range(0, 123).reverse() : range(0, 123))
      expect(told).toBe(paged)
    })
  })

  it('a limit the gateway ignores (every record on one page): still newest first, or oldest', async () => {
    expect((await walk(gateway(130, {order: paged, style: 'live', ignoresLimit: true}).fetch, 'newest')).handed).toEqual(range(0, 130).reverse())
    expect((await walk(gateway(130, {order: paged, style: 'contract', ignoresLimit: true}).fetch, 'oldest')).handed).toEqual(range(0, 130))
  })
})

describe('walkList where the first page cannot tell the order', () => {
  it('reads it across the first and the claimed last page, and does not read that last page twice', async () => {
    // The first page's 50 records were all made in one minute; the rest a minute apart.
    const listed = Array.from({length: 120}, (_, n) => ({id: `r${n}`, n, transaction_date: at(Math.max(0, n - 70))})).reverse()
    const asked: number[] = []
    const fetch: FetchPage<Row> = async ({offset, limit}) => {
      asked.push(offset)
      return {records: listed.slice(offset, offset + limit), paging: {page: offset / limit + 1, pages: 3, total: 120}}
    }
    expect((await walk(fetch, 'oldest')).handed).toEqual(range(0, 120))
    expect(asked.filter((offset) => offset === 100)).toHaveLength(1)
  })

  it('dates all equal: taken as the live gateway\'s order, newest first', async () => {
    expect((await walk(gateway(60, {order: 'newest', style: 'contract', dates: 'tied'}).fetch, 'oldest')).handed).toEqual(range(0, 60))
  })

  it('records without dates: the gateway\'s order, whatever was asked, and no order claimed', async () => {
    const {handed, told} = await walk(gateway(60, {order: 'newest', style: 'contract', dates: 'undated'}).fetch, 'oldest')
    expect(handed).toEqual(range(0, 60).reverse())
    expect(told).toBeUndefined()
  })
})
