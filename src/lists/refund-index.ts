import type {WalkState} from '../api/paging.js'
import type {Deps} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {listRecords} from '../operations/lists.js'
import type {Walked} from './refund-index-file.js'
import type {RefundIndexStore} from './refund-index-memory.js'
import {recordInstant} from './window.js'

/** How a walk that fills the index is read: pages asked for at once, and who hears how it stands. */
export interface FillOptions {
  concurrency: number
  /** Read the pages newer than what the index holds (once a command: what it makes itself it adds as it goes). */
  topUp: boolean
  maxPages?: number
  onState?: (state: WalkState) => void
}

/**
 * Makes the index hold every refund made since `since` (epoch ms, the records' own dates), asking
 * the gateway only for what it does not hold (design.md §5: costs that do not grow with history):
 * - none held yet: one walk, newest first, back to `since`;
 * - else the pages newer than what it holds (topUp), then, where `since` is before what it holds,
 *   the span between, newest first.
 * A walk newest first keeps each page with the span it proves held whole: one stopped midway (Ctrl-C, a
 * failure) keeps what it read, and the next goes on from there. `windowMs`: how long the gateway may
 * take to list a refund it made (design.md §5, the processing window), asked only for a top-up, which
 * reads that far below the newest refund held, for one made before it and listed after.
 */
export async function fillIndex(index: RefundIndexStore, since: number, windowMs: () => Promise<number>, options: FillOptions, deps: Pick<Deps, 'client'>): Promise<void> {
  const walked = index.walked()
  if (!walked) return walkBack(index, {from: since}, undefined, options, deps)
  const topped = options.topUp ? await topUp(index, walked, await windowMs(), options, deps) : walked
  if (since < topped.coveredFrom) await walkBack(index, {from: since, to: topped.coveredFrom}, topped, options, deps)
}

/**
 * Reads the list newest first from its top until a page reaches below the newest refund held (less
 * the window): one page when nothing is new. The newest held moves up only once the pages read
 * reach it, so that a top-up stopped midway leaves no gap the index claims to hold.
 */
async function topUp(index: RefundIndexStore, walked: Walked, windowMs: number, options: FillOptions, deps: Pick<Deps, 'client'>): Promise<Walked> {
  const floor = walked.newest - windowMs
  let newest = walked.newest
  // Ranked above every refund held: those of one second with them were listed before them.
  let rank = (index.ranks()?.top ?? 0) + RANKS_A_WALK
  // One page at a time: a page read ahead is a request spent where one page is all that is new.
  const listing = listRecords({resource: 'refunds', window: {}, filters: {}, order: 'newest', concurrency: 1, maxPages: options.maxPages, onState: options.onState}, deps)
  for await (const page of listing.pages) {
    const times = datesOf(page)
    newest = Math.max(newest, ...times)
    const reached = times.some((time) => time < floor)
    index.keep(page, reached ? {coveredFrom: walked.coveredFrom, newest} : undefined, rank)
    rank -= page.length
    if (reached) return {coveredFrom: walked.coveredFrom, newest}
  }
  // The list ended above the floor: every refund it holds was read.
  const whole = {coveredFrom: Math.min(walked.coveredFrom, floor), newest}
  index.cover(whole)
  return whole
}

/**
 * Reads the window's refunds newest first, keeping each page with what it proves: every refund
 * from just after the oldest one read up to the top of the span is held. `above`: the span held
 * already, which the window ends at; none for the first walk, whose top is the newest it reads.
 */
async function walkBack(index: RefundIndexStore, window: {from: number; to?: number}, above: Walked | undefined, options: FillOptions, deps: Pick<Deps, 'client'>): Promise<void> {
  const span = {...(window.from === EARLIEST ? {} : {from: new Date(window.from)}), ...(window.to === undefined ? {} : {to: new Date(window.to)})}
  const listing = listRecords({resource: 'refunds', window: span, filters: {}, order: 'newest', concurrency: options.concurrency, maxPages: options.maxPages, onState: options.onState}, deps)
  let held = above
  // Ranked below every refund held (an older span), or from 0 (the first walk).
  let rank = above ? (index.ranks()?.bottom ?? 0) - 1 : 0
  for await (const page of listing.pages) {
    const times = datesOf(page)
    if (times.length === 0) continue
    // Refunds of the same second may run on into the next page: only those after it are held whole yet.
    const oldest = Math.min(...times) + 1
    held = {coveredFrom: Math.min(held?.coveredFrom ?? oldest, oldest), newest: Math.max(held?.newest ?? -Infinity, ...times)}
    index.keep(page, held, rank)
    rank -= page.length
  }
  // The list ended: everything since the window's start was read.
  index.cover({coveredFrom: window.from, newest: held?.newest ?? window.from})
}

/** Room for the refunds of one walk between the ranks of those held and those it adds above them. */
const RANKS_A_WALK = 1_000_000_000

/** Since the first refund there could be: a purchase without a date has every refund on its card as maybe its own. */
export const EARLIEST = -8.64e15

function datesOf(records: readonly GwRecord[]): number[] {
  return records.map((record) => recordInstant(record.transaction_date)).filter((time): time is number => time !== undefined)
}
