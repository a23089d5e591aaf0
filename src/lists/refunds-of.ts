import {journalTarget} from '../batch/journal.js'
import {journaledRefunds} from '../batch/journaled-refunds.js'
import type {Factory} from '../command/factory.js'
import {DEFAULT_CONCURRENCY} from '../flags.js'
import {InterruptedError, ModeMismatchError} from '../errors.js'
import {outcomeOf} from '../money/decide.js'
import type {Deps, GwRecord} from '../operations/deps.js'
import type {ListRequest} from '../operations/lists.js'
import {refundedState, refundsOfPurchase} from '../operations/refunds-of.js'
import {renderListing} from '../output/render.js'
import {showingProgress} from '../output/progress.js'
import {refundedText, refundsOfNote, refundsOfSummary} from '../output/refunds-of.js'
import {matchesFilters} from './filters.js'

/** Ids of the refunds gw's batch journals (in its data directory, for this gateway and merchant) say it made for the purchase. */
export async function refundsMadeFor(purchase: GwRecord, f: Pick<Factory, 'dataDir' | 'target'>): Promise<ReadonlySet<string>> {
  const {baseUrl, username} = await f.target()
  return journaledRefunds(f.dataDir, journalTarget(baseUrl, username), purchase)
}

/**
 * `refund list --purchase`: the refunds on the purchase's card since it, matched against it and
 * printed best fit first, each record with its `gw_match` after the gateway's fields; a note on
 * stderr says they are possible refunds, and how many are certain. The other filters and the
 * limit apply to what is shown, not to what is matched: a certain refund counts toward what is
 * left however the list is narrowed.
 */
export async function listRefundsOfPurchase(request: ListRequest, f: Factory, deps: Deps): Promise<undefined> {
  const {io, columns, render} = f
  const {purchase, ...others} = request.filters
  if (!purchase) return undefined
  const journaled = await refundsMadeFor(purchase, f)
  const {matched} = await showingProgress(f, deps.client, (progress) =>
    refundsOfPurchase(purchase, {window: request.window, order: request.order, concurrency: request.concurrency, maxPages: request.maxPages, journaled, onState: (state) => progress.state('refunds', state)}, deps),
  )
  const wanted = matched.filter(({refund}) => matchesFilters(others, refund))
  const shown = request.limit === undefined ? wanted : wanted.slice(0, request.limit)
  const narrowed = request.window.from !== undefined || request.window.to !== undefined || Object.keys(others).length > 0
  io.err(refundsOfNote(purchase, narrowed ? wanted : matched, {narrowed}))
  await renderListing(io, (async function* () {
    yield shown.map(({refund, match}) => ({...refund, gw_match: match}))
  })(), columns, render)
  if (io.chatty && !render.json && shown.length > 0) io.err(refundsOfSummary(shown.length, wanted.length))
  return undefined
}

/**
 * One purchase as a terminal shows it (`purchase get`): with what has been refunded of it and what
 * is left, in fields of gw's own that only its field/value list shows. A declined one took nothing.
 */
export async function withRefunded(purchase: GwRecord, f: Factory): Promise<GwRecord> {
  if (outcomeOf(purchase) === false) return purchase
  try {
    const journaled = await refundsMadeFor(purchase, f)
    const deps = await f.deps()
    const state = await showingProgress(f, deps.client, (progress) =>
      refundedState(purchase, {concurrency: DEFAULT_CONCURRENCY, journaled, onState: (walk) => progress.state('refunds', walk)}, deps),
    )
    const {refunded, left} = refundedText(purchase, state)
    return {...purchase, gw_refunded: refunded, gw_left_to_refund: left}
  } catch (err) {
    // The purchase was found, and is shown: what could not be learned of its refunds is said so.
    if (err instanceof InterruptedError || err instanceof ModeMismatchError) throw err
    return {...purchase, gw_refunded: `not known: ${err instanceof Error ? err.message : String(err)}`}
  }
}
