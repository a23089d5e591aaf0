import {favourMemory} from '../lib/favour-memory.js'
import {pauseOptimising, walkCollector} from '../lib/memory.js'
import {HeldTexts} from './held-text.js'
import {LengthClaim} from './length-claim.js'
import {type FetchPage, readPage} from './list-page.js'
import {type ListOrder, orderAcross, orderOf, pagedOrder} from './list-order.js'
import {PageReader, type Read} from './page-reader.js'
import {walkBackward} from './walk-backward.js'
import {walkForward} from './walk-forward.js'

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
  /** The order the gateway pages in where the records carry no dates to tell it (web hooks), from what else tells it: asked with the first page's records. */
  undatedOrder?: (first: readonly Record<string, unknown>[]) => Promise<ListOrder | undefined>
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
 * its length (a total is a claim, design.md §3) and whichever order it pages in (never assumed,
 * design.md §3). The order is read from the records' dates (list-order.ts): on the first page, or
 * across the first and the claimed last page where the first cannot tell.
 * In the gateway's order the pages are read forward (walk-forward.ts). Against it, the walk reads
 * the first page for the count, checks it on the last page, and reads back from there; a count the
 * pages contradict (or none at all) is found by reading forward to the end, holding only the last
 * pages (walk-backward.ts). Records without dates are taken to be paged in the order `undatedOrder`
 * tells, where it tells one; else they are handed over as the gateway pages them, claiming no order (WalkState.order). The rules (page-reader.ts, length-claim.ts):
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
    const paged = pagedOrder(orderOf(first.records)) ?? (await options.undatedOrder?.(first.records))
    const reverse = options.order !== undefined && paged !== undefined && options.order !== paged
    // One answer far longer than a page: its records as they are read, or held as text to be handed over the other way round.
    if (first.more) return yield* reverse ? reversedAsText(first.records, first.more, options) : unpagedAsRead(first.records, first.more, paged, options)
    const all = first.records
    options.onState?.({pages: 1, records: all.length, size: all.length, total: all.length, order: reverse ? options.order : paged})
    return yield reverse ? [...all].reverse() : all
  }
  // A gateway that hands out fewer a page than asked for (with more to come) is paged in its own size.
  const more = (total ?? 0) > first.records.length || (pages ?? 0) > 1
  const size = more && first.records.length > 0 && first.records.length < PAGE_SIZE ? first.records.length : PAGE_SIZE
  const claim = new LengthClaim({total, pages}, size)
  // What a person watching is told is read off the walk (its reader, its claim) and off what it handed over here.
  const handed: {records: number; end?: number; order?: ListOrder} = {records: 0}
  const tell = () => options.onState?.({...reader.progress(), records: handed.records, size, total: handed.end ?? claim.total(), order: handed.order})
  const reader: PageReader<T> = new PageReader(fetch, claim, first.records, {base: page ?? 1, ahead: options.ahead, maxPages: options.maxPages, onAsk: tell})
  tell()
  const learned = await learnOrder(reader, first.records)
  const {last} = learned
  const paged = learned.paged ?? (await options.undatedOrder?.(first.records))
  const reverses = options.order !== undefined && paged !== undefined && options.order !== paged
  handed.order = reverses ? options.order : paged
  tell()
  const steps = reverses ? walkBackward(reader, first.records, {want: options.want, last}) : walkForward(reader, first.records, options.want)
  for await (const step of steps) {
    if ('end' in step) {
      handed.end = step.end
      tell()
      continue
    }
    handed.records += step.records.length
    tell()
    if (step.records.length > 0) yield step.records
  }
}

/** An answer that is the whole list, handed over as its records are read from the body; its order is its first records'. */
async function* unpagedAsRead<T>(first: T[], more: AsyncIterable<T[]>, order: ListOrder | undefined, options: WalkOptions): AsyncGenerator<T[]> {
  let records = first.length
  options.onState?.({pages: 1, records, size: records, order})
  yield first
  for await (const batch of more) {
    records += batch.length
    options.onState?.({pages: 1, records, size: records, order})
    yield batch
  }
  options.onState?.({pages: 1, records, size: records, total: records, order})
}

/**
 * An answer that is the whole list, handed over the other way round: every record is read before
 * the first goes out, so each is held as its text meanwhile, only the `want`ed ones where the
 * reader takes no more (held-text.ts), then handed over last first, a batch at a time.
 */
async function* reversedAsText<T>(first: T[], more: AsyncIterable<T[]>, options: WalkOptions): AsyncGenerator<T[]> {
  const held = new HeldTexts(options.want)
  held.add(first as object[])
  // Nothing is printed while the body is read, so what keeps a walk's memory small is started here (lib/favour-memory.ts, lib/memory.ts).
  favourMemory()
  const read = walkCollector()
  const optimising = pauseOptimising()
  try {
    for await (const batch of more) {
      held.add(batch as object[])
      read()
      options.onState?.({pages: 1, records: 0, size: held.count, order: options.order})
    }
  } finally {
    optimising.resume()
  }
  const total = held.count
  let records = 0
  for (const batch of held.lastFirst()) {
    records += batch.length
    options.onState?.({pages: 1, records, size: total, total, order: options.order})
    yield batch as T[]
  }
}

/**
 * The order the gateway pages in, from the first page's dates; where they are all equal and the
 * gateway claims more pages, from the first page's first record and the claimed last page's last
 * (that page handed back, for a walk against the order not to read it twice). None: the records
 * carry no dates.
 */
async function learnOrder<T extends Record<string, unknown>>(reader: PageReader<T>, first: T[]): Promise<{paged?: ListOrder; last?: Read<T>}> {
  const {claim} = reader
  const seen = orderOf(first)
  if (seen !== 'tied' || !claim.stands() || claim.endsAt(0, first.length)) return {paged: pagedOrder(seen)}
  const last = await reader.read(claim.lastOffset())
  if (last.records.length === 0) return {paged: pagedOrder(seen)}
  return {paged: pagedOrder(orderAcross(first, last.records)), last}
}
