import {PagingError} from '../errors.js'
import {inOrder} from '../lib/in-order.js'
import type {LengthClaim} from './length-claim.js'
import {type FetchPage, readPage} from './list-page.js'
import {keyOf, RecentKeys} from './recent-keys.js'

/** A page after the first, and where it sits. */
export interface Read<T> {
  offset: number
  records: T[]
}

/** What a walk's strategy hands back as it goes: records to hand over (the new ones, in the order asked), or where it found the list to end. */
export type Step<T> = {records: T[]} | {end: number}

export interface ReaderOptions {
  /** The first page's number as the gateway counts pages (from 0 or 1). */
  base: number
  /** Pages asked for at once. */
  ahead: number
  /** Pages read at most; by default the claim's generous count of records over the largest page seen. */
  maxPages?: number
  /** Told each time a page is asked for. */
  onAsk: () => void
}

/**
 * Reads a list's pages after the first for a walk (paging.ts): up to `ahead` at once, handed back
 * in order, each checked to be the page asked for and against the gateway's claim of the list's
 * length. It tracks what it met: the records of the first page and of the recent ones (a page that
 * adds nothing new, twice in a row, stops the walk), and the pages read (a walk past the most it
 * may read stops as one that would not end).
 */
export class PageReader<T extends Record<string, unknown>> {
  /** Pages read, the first too. */
  private pagesRead = 1
  /** The most records a page held: the most pages a walk reads is a count of records over it. */
  private largest: number
  /** Offsets asked for and not read yet, oldest first: the first is the page the walk waits for. */
  private readonly inFlight: number[] = []
  private readonly firstKeys: Set<unknown>
  private recent: RecentKeys
  /** Offsets of the pages just read, in a row, that held no record not met before. */
  private stale: number[] = []

  /** `first`: the list's first page, read to learn how it pages, and met as any other. */
  constructor(
    private readonly fetch: FetchPage<T>,
    readonly claim: LengthClaim,
    first: T[],
    private readonly options: ReaderOptions,
  ) {
    this.largest = first.length
    this.firstKeys = new Set(first.map(keyOf).filter((key) => key !== undefined))
    this.recent = new RecentKeys(this.firstKeys)
    claim.check(0, first.length)
  }

  /** Records a page holds. */
  get size(): number {
    return this.claim.size
  }

  /** Pages read so far, and the page (counted from 1) the walk waits for, while it waits for one. */
  progress(): {pages: number; waitingFor?: number} {
    const head = this.inFlight[0]
    return {pages: this.pagesRead, waitingFor: head === undefined ? undefined : head / this.size + 1}
  }

  /**
   * The pages from `start`, `direction` +1 forward (while the claim stands, not past its last
   * page) or -1 back to the second page, up to `ahead` at once, in order. With `want`: none past
   * the records wanted, counting those `handed` over already and those each page asked for should
   * bring (corrected by what it brought, once it came).
   */
  readFrom(start: number, direction: 1 | -1, {want, handed = 0}: {want?: number; handed?: number} = {}): AsyncGenerator<Read<T>> {
    const {claim, size} = this
    let next = start
    let expected = handed
    // Set once the page asked for is one past the most a walk reads: its read fails, and nothing after it is asked
    // for. A later pass asks again and fails in its turn: a failure read ahead and never heard must not end it quietly.
    let full = false
    const places: Iterator<{offset: number; guess: number}> = {
      next: () => {
        const past = direction < 0 ? next < size : claim.stands() && next > claim.lastOffset()
        if (full || past || (want !== undefined && expected >= want)) return {done: true, value: undefined}
        const place = {offset: next, guess: claim.expectedAt(next)}
        next += direction * size
        expected += place.guess
        full = this.full()
        return {done: false, value: place}
      },
    }
    return inOrder(places, Math.max(1, this.options.ahead), async ({offset, guess}) => {
      const read = await this.read(offset)
      expected += read.records.length - guess
      return read
    })
  }

  /**
   * The page at `offset`, checked to be the one asked for and against the claim; once the pages
   * read and in flight are the most a walk reads, not asked for: the walk stops (PagingError).
   */
  async read(offset: number): Promise<Read<T>> {
    const {claim, size} = this
    const asked = this.options.base + offset / size
    if (this.full()) throw this.endless(this.mostPages())
    this.inFlight.push(offset)
    this.options.onAsk()
    try {
      const answer = await readPage(this.fetch, {offset, size, total: claim.total(), page: asked})
      if (answer.paging.page !== undefined && answer.paging.page !== asked) {
        throw new PagingError(`Asked the gateway for page ${asked} of the list (records from ${offset + 1}) and it answered with page ${answer.paging.page}: it does not page by offset or page number`)
      }
      const count = answer.records.length
      this.pagesRead++
      this.largest = Math.max(this.largest, count)
      claim.check(offset, count)
      return {offset, records: answer.records}
    } finally {
      this.inFlight.splice(this.inFlight.indexOf(offset), 1)
    }
  }

  /**
   * The records of a page not met on the pages just before it, nor on the first. A page with none,
   * twice in a row, stops the walk (PagingError); an empty page counts as one where `emptyIsStale`
   * (the end was seen past it), and otherwise ends the run.
   */
  fresh({offset, records}: Read<T>, {emptyIsStale = false} = {}): T[] {
    const keys = records.map(keyOf)
    const fresh = records.filter((_, index) => keys[index] === undefined || !this.recent.has(keys[index]))
    this.recent.add(keys)
    if (fresh.length > 0 || (records.length === 0 && !emptyIsStale)) {
      this.stale = []
      return fresh
    }
    this.stale.push(offset)
    if (this.stale.length < 2) return fresh
    const page = (at: number) => at / this.size + 1
    throw new PagingError(
      `Page ${page(offset)} of the list (records from ${offset + 1}), like page ${page(this.stale[0]!)} before it, held only records already read: the gateway repeats its pages, and the walk stops here`,
      'stuck',
    )
  }

  /** Forgets every record met but the first page's: for a walk that meets the last pages again, reading back from the end. */
  startOver(): void {
    this.recent = new RecentKeys(this.firstKeys)
    this.stale = []
  }

  /** Whether the pages read and in flight are the most a walk reads: the next read stops it. */
  private full(): boolean {
    return this.pagesRead + this.inFlight.length >= this.mostPages()
  }

  private mostPages(): number {
    return this.options.maxPages ?? Math.ceil(this.claim.generous() / Math.max(1, this.largest))
  }

  private endless(most: number): PagingError {
    const why =
      this.options.maxPages === undefined
        ? `${most.toLocaleString('en')} pages of up to ${this.largest} hold ${this.claim.generous().toLocaleString('en')} records, more than a list is taken to hold`
        : `${most.toLocaleString('en')} pages is the most it was to read`
    return new PagingError(`The list had not ended after ${most.toLocaleString('en')} pages, and the walk stops there: ${why}`, 'endless')
  }
}
