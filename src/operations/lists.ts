import type {ListQuery} from '../api/client.js'
import type {ListOrder} from '../api/list-order.js'
import {type ListPage, walkList, type WalkState} from '../api/paging.js'
import {matchesFilters, type RecordFilters} from '../lists/filters.js'
import {gatewayDays, type Window, withinWindow} from '../lists/window.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'

/** The lists the gateway answers (gateway-notes.md: Listing; plans.json and web_hooks in the contract). */
export type ListResource = 'purchases' | 'refunds' | 'customers' | 'subscriptions' | 'cards' | 'plans' | 'webHooks' | 'paymentPlans' | 'directDebits'

/** Where each kind of record keeps its time, for --from/--to; a card carries none. */
export const TIME_FIELD: Record<ListResource, string | undefined> = {
  purchases: 'transaction_date',
  refunds: 'transaction_date',
  customers: 'created_at',
  subscriptions: 'created_at',
  cards: undefined,
  plans: 'created_at',
  webHooks: 'created_at',
  paymentPlans: 'created_at',
  // The day it goes to the bank: a debit's record carries no other.
  directDebits: 'date',
}

/**
 * The order a gateway is taken to page a list in whose records carry no dates, where nothing else
 * tells it (ListRequest.undatedOrder). Web hooks have no `created_at`: the recordings list them
 * oldest first in 2017 and 2019, newest first in 2018, so oldest first is the likelier.
 */
const ASSUMED_ORDER: Partial<Record<ListResource, ListOrder>> = {webHooks: 'oldest'}

/**
 * Lists read whole and held to the window here alone, the gateway asked for no days: a debit is
 * timed by the day it goes to the bank, which may be days after it was made (a later date asked
 * for, a weekend, the day's cut-off), and no gateway is known to narrow its list by that day.
 */
const WINDOW_HERE_ONLY: ReadonlySet<ListResource> = new Set(['directDebits'])

export interface ListRequest {
  resource: ListResource
  window: Window
  filters: RecordFilters
  /** The order to hand the records over in; none: as the gateway pages them (a report, a look-up that reads them all). */
  order?: ListOrder
  /** How many to hand over at most; none: every one. */
  limit?: number
  /** Pages asked for ahead of the one being handed over. */
  concurrency: number
  /** Pages read at most before the list is given up as one that does not end; by default, enough for a generous count. */
  maxPages?: number
  /** Told how the walk stands as pages come (progress on a terminal). */
  onState?: (state: WalkState) => void
  /** The order the gateway pages records without dates in, from what else tells it (web hooks gw made: webhooks/hook-order.ts); none: ASSUMED_ORDER. */
  undatedOrder?: (first: readonly GwRecord[]) => Promise<ListOrder | undefined>
}

/** What a listing came to, once its records are read: how many were handed over, and whether more would match. */
export interface ListSummary {
  shown: number
  /** Stopped at the limit with records left unread. */
  more: boolean
  /** How many records the gateway holds, when nothing narrowed the list. */
  total?: number
  /** The order they were handed over in; none where their dates could not tell it. */
  order?: ListOrder
  /** The gateway's order was taken on trust (ASSUMED_ORDER): its records carry no dates, and nothing else told it. */
  assumed?: boolean
}

/**
 * A list's records as they arrive, a page at a time (so a page is printed at once), in the order
 * asked for (paging.ts reads the gateway's from the records' dates), held to the window and filters here and stopped at the limit: constant
 * memory however long the list (only the pages in flight are held). `summary` says what came of
 * it once the pages are read.
 */
export function listRecords(request: ListRequest, {client}: Pick<Deps, 'client'>): {pages: AsyncGenerator<GwRecord[]>; summary: () => ListSummary} {
  const days = WINDOW_HERE_ONLY.has(request.resource) ? {} : gatewayDays(request.window)
  const summary: ListSummary = {shown: 0, more: false}
  const unnarrowed = !request.window.from && !request.window.to && Object.keys(request.filters).length === 0
  const fetch = async (at: ListQuery): Promise<ListPage<GwRecord>> => (await client[request.resource].list({...at, ...days})) as ListPage<GwRecord>
  const timeField = TIME_FIELD[request.resource]
  const wanted = (record: GwRecord) => (!timeField || withinWindow(request.window, record[timeField])) && matchesFilters(request.filters, record)
  const onState = (state: WalkState) => {
    if (unnarrowed) summary.total = state.total
    summary.order = state.order
    request.onState?.(state)
  }
  const undatedOrder = async (first: readonly GwRecord[]) => {
    const told = await request.undatedOrder?.(first)
    if (told !== undefined) return told
    summary.assumed = ASSUMED_ORDER[request.resource] !== undefined
    return ASSUMED_ORDER[request.resource]
  }
  // Every record is kept when nothing narrows the list: no page past the limit is asked for, not
  // even for one record more (`-L 10` over pages of 10 reads one page); whether there are more to
  // show is the count's to say, and where the gateway gives none, a full limit may have more.
  const want = unnarrowed && request.limit !== undefined ? request.limit : undefined
  async function* pages(): AsyncGenerator<GwRecord[]> {
    for await (const page of walkList(fetch, {order: request.order, undatedOrder, ahead: request.concurrency, want, maxPages: request.maxPages, onState})) {
      const kept = unnarrowed ? page : page.filter(wanted)
      const room = request.limit === undefined ? kept.length : request.limit - summary.shown
      if (kept.length > room) summary.more = true
      const shown = kept.slice(0, room)
      summary.shown += shown.length
      if (shown.length > 0) yield shown
      if (summary.more) return
    }
    if (want !== undefined && summary.shown === want && (summary.total === undefined || summary.total > want)) summary.more = true
  }
  return {pages: pages(), summary: () => summary}
}
