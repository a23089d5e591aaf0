import {describe, expect, it} from 'vitest'
import {type FetchPage, type Paging, type WalkOptions, type WalkState, walkList} from '../../../src/api/paging.js'
import {PagingError} from '../../../src/errors.js'
import {hintFor} from '../../../src/output/hints.js'

// A list always ends, whatever the gateway says of its length (design.md §3). Each fake below answers as a
// misbehaving gateway does, and counts the places asked for: every walk is held to a bound on them.
type Row = Record<string, unknown>

interface FakeList {
  /** Records the gateway holds, oldest first; Infinity: a new one wherever it is asked. */
  hold: number
  /** Its claim of the list's length, `none` for no claim; its real count unless given. */
  total?: number | 'none'
  /** total_pages instead of total_records (the live gateway). */
  pages?: number
  /** Answers every place asked for with the first page. */
  ignoresOffset?: boolean
  /** What tells its records apart: an id (the default), a token (cards), or nothing. */
  key?: 'id' | 'token' | 'none'
}

/** The n-th record made: a second after the one before it, so its date says where it sits. */
const made = (n: number, key: FakeList['key'] = 'id'): Row => ({...(key === 'none' ? {} : {[key]: `r${n}`}), n, created_at: new Date(Date.UTC(2026, 10, 17) + n * 1000).toISOString()})

function fakeList(spec: FakeList) {
  const asked: number[] = []
  const fetch: FetchPage<Row> = async ({offset, limit}) => {
    asked.push(offset)
    const from = spec.ignoresOffset ? 0 : offset
    const count = Math.max(0, Math.min(limit, spec.hold - from))
    const records = Array.from({length: count}, (_, i) => made(from + i, spec.key))
    const paging: Paging = {page: spec.ignoresOffset ? undefined : offset / limit + 1}
    if (spec.pages !== undefined) paging.pages = spec.pages
    else if (spec.total !== 'none') paging.total = spec.total ?? spec.hold
    return {records, paging}
  }
  return {asked, fetch}
}

async function walk(fetch: FetchPage<Row>, {newestFirst, ...options}: Partial<WalkOptions> & {newestFirst: boolean}) {
  const handed: number[] = []
  const states: WalkState[] = []
  let failure: unknown
  try {
    for await (const page of walkList(fetch, {ahead: 4, onState: (state) => states.push(state), order: newestFirst ? 'newest' : 'oldest', ...options})) {
      handed.push(...page.map((record) => record.n as number))
      if (options.want !== undefined && handed.length >= options.want) break
    }
  } catch (err) {
    failure = err
  }
  return {handed: options.want === undefined ? handed : handed.slice(0, options.want), states, failure, last: states.at(-1)}
}

const range = (from: number, to: number) => Array.from({length: to - from}, (_, i) => from + i)

describe('a total the pages contradict is not believed (case 1: 1e9 claimed, 120 held)', () => {
  it('newest first, 30 wanted: the claimed last page comes empty, the end is found reading forward, the 30 newest handed over', async () => {
    const {asked, fetch} = fakeList({hold: 120, total: 1e9})
    const {handed, failure, last} = await walk(fetch, {newestFirst: true, want: 30})
    expect(failure).toBeUndefined()
    expect(handed).toEqual(range(90, 120).reverse())
    // The first page, the claimed last, then forward to the first empty page (and what was already in flight).
    expect(asked.slice(0, 5)).toEqual([0, 1e9 - 50, 50, 100, 150])
    // Up to the first empty page, and no more than were already asked for ahead of it.
    expect(asked.length).toBeLessThanOrEqual(5 + 4)
    expect(last?.total).toBe(120)
  })

  it('newest first, every record: each once, newest first, and the count found is the one told', async () => {
    const {asked, fetch} = fakeList({hold: 120, total: 1e9})
    const {handed, last} = await walk(fetch, {newestFirst: true})
    expect(handed).toEqual(range(0, 120).reverse())
    expect(asked.length).toBeLessThanOrEqual(10)
    expect(last).toMatchObject({records: 120, total: 120})
  })

  it('oldest first: the 120, then the first empty page ends it', async () => {
    const {asked, fetch} = fakeList({hold: 120, total: 1e9})
    const {handed, failure, last} = await walk(fetch, {newestFirst: false})
    expect(failure).toBeUndefined()
    expect(handed).toEqual(range(0, 120))
    expect(Math.max(...asked)).toBeLessThanOrEqual(150 + 4 * 50)
    expect(last?.total).toBe(120)
  })

  it('a total below what the pages hold: its last page comes fuller than it says, and the walk goes on to an empty page', async () => {
    const {fetch} = fakeList({hold: 130, total: 110})
    expect((await walk(fetch, {newestFirst: false})).handed).toEqual(range(0, 130))
    expect((await walk(fakeList({hold: 130, total: 110}).fetch, {newestFirst: true})).handed).toEqual(range(0, 130).reverse())
  })

  it('a count of pages (total_pages) that says too many: the same', async () => {
    const {fetch} = fakeList({hold: 120, pages: 1000})
    expect((await walk(fetch, {newestFirst: true, want: 5})).handed).toEqual([119, 118, 117, 116, 115])
    expect((await walk(fakeList({hold: 120, pages: 1000}).fetch, {newestFirst: false})).handed).toEqual(range(0, 120))
  })

  it('newest first, the most pages reached by a page asked for ahead past the end: the walk back stops there, exit 1, and hands over no list with a hole in it', async () => {
    // The first page, the claimed last (empty), then 50, 100 and 150 (empty): a fifth read, of 200, was asked for ahead and refused.
    const {asked, fetch} = fakeList({hold: 120, total: 1e9})
    const {handed, failure} = await walk(fetch, {newestFirst: true, maxPages: 5})
    expect(asked).toEqual([0, 1e9 - 50, 50, 100, 150])
    expect(handed).toEqual(range(100, 120).reverse())
    expect(failure).toMatchObject({reason: 'endless', message: 'The list had not ended after 5 pages, and the walk stops there: 5 pages is the most it was to read'})
  })

  it('a total the pages bear out is believed: nothing past its end is asked for', async () => {
    const {asked, fetch} = fakeList({hold: 120})
    expect((await walk(fetch, {newestFirst: false})).handed).toEqual(range(0, 120))
    expect(asked).toEqual([0, 50, 100])
  })
})

describe('no total, and a full page wherever asked (case 2)', () => {
  it('oldest first, 30 wanted: one page asked for', async () => {
    const {asked, fetch} = fakeList({hold: Infinity, total: 'none'})
    expect((await walk(fetch, {newestFirst: false, want: 30})).handed).toEqual(range(0, 30))
    expect(asked).toEqual([0])
  })

  it('newest first: stops at the most pages it may read, exit 1 saying why, the hint naming the way out', async () => {
    const {asked, fetch} = fakeList({hold: Infinity, total: 'none'})
    const {handed, failure} = await walk(fetch, {newestFirst: true, want: 30, maxPages: 40})
    expect(handed).toEqual([])
    expect(failure).toBeInstanceOf(PagingError)
    expect(failure).toMatchObject({exitCode: 1, reason: 'endless', message: 'The list had not ended after 40 pages, and the walk stops there: 40 pages is the most it was to read'})
    expect(asked).toHaveLength(40)
    expect(hintFor(failure as PagingError)).toBe('If the list is really that long, raise --max-pages, or ask for fewer days of it.')
  })

  it('the most pages, unless given, is a generous count of records over the largest page seen', async () => {
    const {asked, fetch} = fakeList({hold: Infinity, total: 'none'})
    const {handed, failure} = await walk(fetch, {newestFirst: false})
    expect((failure as PagingError).message).toBe(
      'The list had not ended after 20,000 pages, and the walk stops there: 20,000 pages of up to 50 hold 1,000,000 records, more than a list is taken to hold',
    )
    // Every page read was handed over before the walk stopped.
    expect(asked).toHaveLength(20_000)
    expect(handed).toHaveLength(20_000 * 50)
  })
})

describe('a page that adds nothing new', () => {
  it('twice in a row stops the walk with exit 1 naming the page, after what came before it was handed over', async () => {
    const {asked, fetch} = fakeList({hold: 500, ignoresOffset: true})
    const {handed, failure} = await walk(fetch, {newestFirst: false})
    expect(handed).toEqual(range(0, 50))
    expect(failure).toBeInstanceOf(PagingError)
    expect((failure as PagingError).message).toBe(
      'Page 3 of the list (records from 101), like page 2 before it, held only records already read: the gateway repeats its pages, and the walk stops here',
    )
    expect(asked.length).toBeLessThanOrEqual(3 + 4)
    expect(hintFor(failure as PagingError)).toBe('Read its pages one at a time with gw api PATH --query offset=N --query limit=50.')
  })

  it('newest first, a gateway that ignores the place asked: its claimed last page repeats the first, and the walk stops', async () => {
    const {asked, fetch} = fakeList({hold: 500, total: 120, ignoresOffset: true})
    const {handed, failure} = await walk(fetch, {newestFirst: true})
    expect(handed).toEqual([])
    expect((failure as PagingError).reason).toBe('stuck')
    expect(asked.length).toBeLessThanOrEqual(3 + 4)
  })

  it('once is let pass (a list that shifted), its records not handed over twice', async () => {
    let reads = 0
    const fetch: FetchPage<Row> = async ({offset, limit}) => {
      reads++
      // Page 3 is asked for and answered with page 2 once.
      const from = offset === 100 && reads <= 3 ? 50 : offset
      const records = range(from, Math.min(200, from + limit)).map((n) => made(n))
      return {records, paging: {page: offset / limit + 1}}
    }
    const {handed, failure} = await walk(fetch, {newestFirst: false, ahead: 1})
    expect(failure).toBeUndefined()
    expect(handed).toEqual([...range(0, 100), ...range(150, 200)])
  })

  it('cards, told apart by their token, and records with nothing to tell them by, page as any other', async () => {
    for (const key of ['token', 'none'] as const) {
      const {fetch} = fakeList({hold: 120, key})
      expect((await walk(fetch, {newestFirst: true})).handed).toEqual(range(0, 120).reverse())
    }
  })
})

describe('an empty page ends a walk', () => {
  it('oldest first, though the count says more', async () => {
    const {asked, fetch} = fakeList({hold: 0, total: 500})
    expect(await walk(fetch, {newestFirst: false})).toMatchObject({handed: [], failure: undefined})
    expect(asked).toEqual([0])
  })

  it('newest first: the first page empty is the whole list', async () => {
    const {asked, fetch} = fakeList({hold: 0, total: 'none'})
    expect(await walk(fetch, {newestFirst: true})).toMatchObject({handed: [], failure: undefined})
    expect(asked).toEqual([0])
  })
})

describe('records wanted: no page past them is asked for', () => {
  it.each([
    ['oldest first, 100 of 20,000', false, 100, [0, 50]],
    ['newest first, 30 of 20,000', true, 30, [0, 19_950]],
    ['newest first, 60 of 20,000', true, 60, [0, 19_950, 19_900]],
  ] as const)('%s', async (_, newestFirst, want, expected) => {
    const {asked, fetch} = fakeList({hold: 20_000})
    const {handed} = await walk(fetch, {newestFirst, want})
    expect(handed).toEqual(newestFirst ? range(20_000 - want, 20_000).reverse() : range(0, want))
    expect(asked).toEqual(expected)
  })

  it('newest first, 30 of 120: the last page holds 20, so the one before it too', async () => {
    const {asked, fetch} = fakeList({hold: 120})
    expect((await walk(fetch, {newestFirst: true, want: 30})).handed).toEqual(range(90, 120).reverse())
    expect(asked).toEqual([0, 100, 50])
  })
})

describe('what a person watching is told', () => {
  it('pages read, records handed over, of how many, and the page waited for', async () => {
    const {fetch} = fakeList({hold: 120})
    const {states} = await walk(fetch, {newestFirst: false, ahead: 1})
    expect(states[0]).toEqual({pages: 1, records: 0, size: 50, total: 120, waitingFor: undefined})
    expect(states).toContainEqual({pages: 1, records: 50, size: 50, total: 120, waitingFor: 2, order: 'oldest'})
    expect(states.at(-1)).toEqual({pages: 3, records: 120, size: 50, total: 120, waitingFor: undefined, order: 'oldest'})
  })
})
