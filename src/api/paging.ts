import {PagingError} from '../errors.js'
import {inOrder} from '../lib/in-order.js'
import {LengthClaim} from './length-claim.js'
import {type FetchPage, readPage} from './list-page.js'
import {type ListOrder, orderAcross, orderOf, pagedOrder} from './list-order.js'
import {keyOf, RECENT_PAGES, RecentKeys} from './recent-keys.js'

export {GENEROUS_RECORDS} from './length-claim.js'
export {type FetchPage, type ListPage, ListPageError, type Paging, readPaging} from './list-page.js'

/** Records asked for a page: the most the gateway's libraries ask for (gateway-notes.md). */
export const PAGE_SIZE = 50

/** Where a walk stands, for a person watching it: pages read, records handed over, of how many when known. */
export interface WalkState {
  /** Pages read so far, the first one too. */
  pages: number
  /** Records handed over so far. */
  records: number
  /** Records a page holds. */
  size: number
  /** How many records the list holds: the gateway's count while its pages bear it out, or the end the walk found. */
  total?: number
  /** The page (counted from 1) the walk needs next, while it waits for one. */
  waitingFor?: number
  /** The order the records are handed over in, once the first page's dates told it; none where they carry no dates. */
  order?: ListOrder
}

export interface WalkOptions {
  /** The order to hand the records over in; none: the order the gateway pages in. */
  order?: ListOrder
  /** Pages asked for at once. */
  ahead: number
  /** Records the reader takes at most, when it keeps every one it is handed: pages past them are not asked for. */
  want?: number
  /** Pages read at most before the walk stops as one that would not end; by default GENEROUS_RECORDS over the largest page seen. */
  maxPages?: number
  /** Told when a page is read, and when the walk starts waiting for one. */
  onState?: (state: WalkState) => void
}

/**
 * A list's records a page at a time, newest first or oldest first, whatever the gateway says of
 * its length (issue 28) and whichever order it pages in (issue 33). The order is read from the
 * records' dates (list-order.ts): on the first page, or across the first and the claimed last
 * page where the first cannot tell. In the gateway's order the pages are read forward. Against it,
 * the walk reads the first page for the count, checks it on the last page, and reads back from
 * there; a count the pages contradict (or none at all) is found by reading forward to the end,
 * holding only the last pages. Records without dates are handed over as the gateway pages them,
 * claiming no order (WalkState.order). The rules:
 * an empty page ends a walk; a count is believed only while the pages bear it out, and once one
 * contradicts it the walk goes on until a page comes empty; a page that adds no record the walk
 * has not already met, twice in a row, stops it (PagingError, naming the page), as does a walk
 * past `maxPages`. Up to `ahead` pages are asked for at once and handed over in order, none past
 * the `want`ed records; only the pages in flight are held. A record met twice as the list shifts
 * is handed over once.
 */
export async function* walkList<T extends Record<string, unknown>>(fetch: FetchPage<T>, options: WalkOptions): AsyncGenerator<T[]> {
  const first = await readPage(fetch, {offset: 0, size: PAGE_SIZE})
  const {page, pages, total} = first.paging
  // No paging in the answer, or more than was asked for: the gateway does not page this list, and this is all of it.
  if ((page === undefined && pages === undefined && total === undefined) || first.records.length > PAGE_SIZE) {
    const paged = pagedOrder(orderOf(first.records))
    const reverse = options.order !== undefined && paged !== undefined && options.order !== paged
    options.onState?.({pages: 1, records: first.records.length, size: first.records.length, total: first.records.length, order: reverse ? options.order : paged})
    return yield reverse ? [...first.records].reverse() : first.records
  }
  // A gateway that hands out fewer a page than asked for (with more to come) is paged in its own size.
  const more = (total ?? 0) > first.records.length || (pages ?? 0) > 1
  const size = more && first.records.length > 0 && first.records.length < PAGE_SIZE ? first.records.length : PAGE_SIZE
  const walk = new Walk(fetch, {base: page ?? 1, claim: new LengthClaim({total, pages}, size)}, options, first.records)
  await walk.learnOrder()
  yield* walk.reverses() ? walk.reversed() : walk.asPaged()
}

/** A page read after the first, and where it sits. */
interface Read<T> {
  offset: number
  records: T[]
}

class Walk<T extends Record<string, unknown>> {
  private readonly size: number
  private readonly base: number
  private readonly claim: LengthClaim
  private readonly firstKeys: Set<unknown>
  private recent: RecentKeys
  private pagesRead = 1
  private handed = 0
  private largest: number
  /** How far into the list records were seen. */
  private reach: number
  /** Pages in a row that added no new record, and the page before this one. */
  private idle = 0
  private previous = 0
  /** Offsets asked for and not yet read, oldest first: the head is the page the walk waits for. */
  private readonly waiting: number[] = []
  /** Records the pages asked for should bring (what came, for those that came): no page past `want` is asked for. */
  private expected = 0
  /** Where the walk found the list to end, once it did. */
  private end?: number
  /** The order the gateway pages in, once learnt; none: its records carry no dates. */
  private paged?: ListOrder
  /** The claimed last page, where it was read to learn the order. */
  private last?: Read<T>

  constructor(
    private readonly fetch: FetchPage<T>,
    {base, claim}: {base: number; claim: LengthClaim},
    private readonly options: WalkOptions,
    private readonly first: T[],
  ) {
    this.size = claim.size
    this.base = base
    this.claim = claim
    this.largest = first.length
    this.reach = first.length
    this.firstKeys = new Set(first.map(keyOf).filter((key) => key !== undefined))
    this.recent = new RecentKeys(this.firstKeys)
    claim.check(0, first.length)
    this.tell()
  }

  /**
   * Learns the order the gateway pages in from the first page's dates; where they are all equal
   * and the gateway claims more pages, from the first page's first record and the last's last.
   */
  async learnOrder(): Promise<void> {
    let seen = orderOf(this.first)
    if (seen === 'tied' && this.claim.stands() && !this.claim.endsAt(0, this.first.length)) {
      const offset = this.claim.lastOffset()
      const last = await this.readLater(offset, 0)
      if (last.records.length > 0) {
        this.last = last
        seen = orderAcross(this.first, last.records)
      }
    }
    this.paged = pagedOrder(seen)
    this.tell()
  }

  /** Whether the order asked for is not the one the gateway pages in (both known). */
  reverses(): boolean {
    return this.options.order !== undefined && this.paged !== undefined && this.options.order !== this.paged
  }

  /** The records as the gateway pages them, reading forward. */
  async *asPaged(): AsyncGenerator<T[]> {
    this.handed = this.expected = this.first.length
    this.tell()
    if (this.first.length > 0) yield this.first
    if (this.claim.endsAt(0, this.first.length)) return this.found()
    for await (const {offset, records} of this.pagesFrom(this.size, 1, {wanted: true})) {
      if (records.length === 0) return this.found()
      const fresh = this.fresh(offset, records)
      this.handed += fresh.length
      this.tell()
      if (fresh.length > 0) yield fresh
      if (this.claim.endsAt(offset, records.length)) return this.found()
    }
  }

  /** The records in the other order: from the end of the list back, each page reversed. */
  async *reversed(): AsyncGenerator<T[]> {
    const first = this.first
    if (first.length === 0) return this.found()
    // The pages nearest the end, read on the way there: handed over first without reading them again.
    let held: Read<T>[] = []
    if (this.claim.endsAt(0, first.length)) {
      this.found()
    } else if (this.claim.stands()) {
      const lastOffset = this.claim.lastOffset()
      const last = this.last ?? (await this.readLater(lastOffset, 0))
      if (last.records.length > 0) held = [last]
      if (this.claim.stands()) this.found()
      else {
        if (last.records.length > 0) this.fresh(lastOffset, last.records)
        held = await this.findEnd(last.records.length > 0 ? lastOffset + this.size : this.size, held)
      }
    } else {
      held = await this.findEnd(this.size, held)
    }
    // Back from the end: the pages held, the last first, then those before them; the first page, read at the start, last.
    this.recent = new RecentKeys(this.firstKeys)
    this.idle = this.expected = 0
    const newestHeldFirst = held.reverse()
    for (const read of newestHeldFirst) {
      const fresh = this.fresh(read.offset, read.records)
      this.handed += fresh.length
      this.expected += fresh.length
      this.tell()
      if (fresh.length > 0) yield fresh.reverse()
    }
    const below = newestHeldFirst.at(-1)?.offset ?? 0
    for await (const {offset, records} of this.pagesFrom(below - this.size, -1, {wanted: true})) {
      // The end was seen past this page: one that comes empty means the list shrank under the walk, or the gateway misleads it.
      const fresh = this.fresh(offset, records, {emptyIsIdle: true})
      this.handed += fresh.length
      this.tell()
      if (fresh.length > 0) yield fresh.reverse()
    }
    this.handed += first.length
    this.tell()
    yield [...first].reverse()
  }

  /**
   * Reads forward from `offset` to the list's end, keeping the last pages that held records
   * (enough for the records wanted, or the last one): the newest, handed over first.
   */
  private async findEnd(offset: number, held: Read<T>[]): Promise<Read<T>[]> {
    const keep = this.options.want === undefined ? 1 : Math.min(Math.ceil(this.options.want / this.size) + 1, RECENT_PAGES)
    for await (const read of this.pagesFrom(offset, 1, {wanted: false})) {
      if (read.records.length === 0) break
      this.fresh(read.offset, read.records)
      held.push(read)
      if (held.length > keep) held.shift()
      if (this.claim.endsAt(read.offset, read.records.length)) break
    }
    this.found()
    return held
  }

  /**
   * The pages from `start`, `direction` +1 forward (while the claim stands, not past its last
   * page) or -1 back to the second page, up to `ahead` at once, in order; `wanted`: none past the
   * records wanted.
   */
  private pagesFrom(start: number, direction: 1 | -1, {wanted}: {wanted: boolean}): AsyncGenerator<Read<T>> {
    let next = start
    // Set once the page asked for is one past the most a walk reads: its read fails, and nothing after it is asked
    // for. A later pass asks again and fails in its turn: a failure read ahead and never heard must not end it quietly.
    let full = false
    const guesses = new Map<number, number>()
    const offsets: Iterator<number> = {
      next: () => {
        const want = this.options.want
        const stop = full || (direction < 0 ? next < this.size : this.claim.stands() && next > this.claim.lastOffset())
        if (stop || (wanted && want !== undefined && this.expected >= want)) return {done: true, value: undefined}
        const offset = next
        next += direction * this.size
        guesses.set(offset, this.claim.expectedAt(offset))
        this.expected += guesses.get(offset)!
        full = this.full()
        return {done: false, value: offset}
      },
    }
    return inOrder(offsets, Math.max(1, this.options.ahead), (offset) => this.readLater(offset, guesses.get(offset)!))
  }

  /**
   * A page after the first, checked to be the one asked for and counted against the most pages a
   * walk reads; `guess` is what it was expected to hold, corrected by what it holds.
   */
  private async readLater(offset: number, guess: number): Promise<Read<T>> {
    const asked = this.base + offset / this.size
    if (this.full()) throw this.endless(this.maxPages())
    this.waiting.push(offset)
    this.tell()
    try {
      const answer = await readPage(this.fetch, {offset, size: this.size, total: this.claim.total(), page: asked})
      if (answer.paging.page !== undefined && answer.paging.page !== asked) {
        throw new PagingError(`Asked the gateway for page ${asked} of the list (records from ${offset + 1}) and it answered with page ${answer.paging.page}: it does not page by offset or page number`)
      }
      const count = answer.records.length
      this.pagesRead++
      this.largest = Math.max(this.largest, count)
      if (count > 0) this.reach = Math.max(this.reach, offset + count)
      this.expected += count - guess
      this.claim.check(offset, count)
      return {offset, records: answer.records}
    } finally {
      this.waiting.splice(this.waiting.indexOf(offset), 1)
    }
  }

  /** The records of a page not met on the pages just before it, nor on the first; a page with none, twice in a row, stops the walk. */
  private fresh(offset: number, records: T[], {emptyIsIdle = false} = {}): T[] {
    const keys = records.map(keyOf)
    const fresh = records.filter((_, index) => keys[index] === undefined || !this.recent.has(keys[index]))
    this.recent.add(keys)
    const previous = this.previous
    this.previous = offset
    if (fresh.length > 0 || (records.length === 0 && !emptyIsIdle)) {
      this.idle = 0
      return fresh
    }
    if (++this.idle < 2) return fresh
    const page = (at: number) => at / this.size + 1
    throw new PagingError(
      `Page ${page(offset)} of the list (records from ${offset + 1}), like page ${page(previous)} before it, held only records already read: the gateway repeats its pages, and the walk stops here`,
      'stuck',
    )
  }

  private found(): void {
    this.end = this.reach
    this.tell()
  }

  /** Whether the pages read and in flight are the most a walk reads: the next read stops it. */
  private full(): boolean {
    return this.pagesRead + this.waiting.length >= this.maxPages()
  }

  private maxPages(): number {
    return this.options.maxPages ?? Math.ceil(this.claim.generous() / Math.max(1, this.largest))
  }

  private endless(most: number): PagingError {
    const why =
      this.options.maxPages === undefined
        ? `${most.toLocaleString('en')} pages of up to ${this.largest} hold ${this.claim.generous().toLocaleString('en')} records, more than a list is taken to hold`
        : `${most.toLocaleString('en')} pages is the most it was to read`
    return new PagingError(`The list had not ended after ${most.toLocaleString('en')} pages, and the walk stops there: ${why}`, 'endless')
  }

  private tell(): void {
    const head = this.waiting[0]
    this.options.onState?.({
      pages: this.pagesRead,
      records: this.handed,
      size: this.size,
      total: this.end ?? this.claim.total(),
      waitingFor: head === undefined ? undefined : head / this.size + 1,
      order: this.reverses() ? this.options.order : this.paged,
    })
  }
}
