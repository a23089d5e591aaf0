import {instanceHolder} from '../batch/instance.js'
import {journalTarget} from '../batch/journal-identity.js'
import {recordRefundMade, refundsMade} from '../batch/refunds-made.js'
import type {Target} from '../auth/resolve.js'
import {InterruptedError, ModeMismatchError} from '../errors.js'
import {outcomeOf} from '../money/decide.js'
import {isVoided} from '../money/follow-up.js'
import {DEFAULT_CONCURRENCY, type Deps} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {Sent} from '../operations/money.js'
import {sanitizeLine} from '../safety/sanitize.js'
import type {MadeFor} from './refund-match.js'
import type {ListRequest} from '../operations/lists.js'
import {refundedState, refundsOfPurchase} from '../operations/purchase-refunds.js'
import {RefundBook} from './refund-book.js'
import type {Column} from '../output/columns.js'
import {shellQuote} from '../output/hints.js'
import type {Io} from '../output/io.js'
import {renderListing, type RenderOptions} from '../output/render.js'
import {showingProgress} from '../output/progress.js'
import {renderWarning} from '../output/warning.js'
import {refundedText, refundsOfNote, refundsOfSummary} from '../output/refund-match-text.js'
import {matchesFilters} from './filters.js'

/**
 * Where gw keeps its records of the refunds it made, and for which gateway and merchant: the
 * command's data directory and target (the Factory hands in its own, cli/factory.ts).
 */
export interface MadeRecordsPlace {
  readonly dataDir: string
  target(): Promise<Pick<Target, 'baseUrl' | 'username'>>
}

/** What a purchase's refunds are found and printed with: gw's records of them, the command's Io and how its records render. */
export interface RefundsOfContext extends MadeRecordsPlace {
  readonly io: Io
  readonly columns: Column[]
  readonly render: RenderOptions
}

/**
 * Which purchase gw recorded making refunds for (its batch journals and single refund creates, in
 * its data directory, for this gateway and merchant), asked once the refunds are read: by then the
 * client knows which run of a local gateway's data answered.
 */
export async function madeRecords(f: MadeRecordsPlace, client: Deps['client']): Promise<(refundIds: ReadonlySet<string>) => Promise<Map<string, MadeFor>>> {
  const {baseUrl, username} = await f.target()
  const target = journalTarget(baseUrl, username)
  // A local gateway names its data: a record made against data it no longer holds (reset, restarted without its state) is of other refunds.
  return async (refundIds) => refundsMade(f.dataDir, target, refundIds, client.gatewayInstance === undefined ? undefined : (await instanceHolder(client)).held)
}

/** The books of the commands running here, each its own (its Factory, or a batch's place). */
const commandBooks = new WeakMap<object, RefundBook>()

/**
 * The command's view of the merchant's refunds (lists/refund-book.ts), one a command: every purchase
 * it asks about reads the same index, brought up to date once. A warning of an index that cannot be
 * used goes to stderr.
 */
export function refundBook(f: MadeRecordsPlace & {readonly io?: Io}, client: Deps['client']): RefundBook {
  let book = commandBooks.get(f)
  if (!book) commandBooks.set(f, (book = new RefundBook({dataDir: f.dataDir, target: () => f.target(), warn: (message) => f.io && renderWarning(f.io, message)}, {client})))
  return book
}

/**
 * Records a refund gw sent and had answered (approved or declined, or found after a lost answer),
 * whichever command sent it (`refund create`, `gw api`, `gw sandbox seed`), so that it is certain
 * for its purchase; `transactionId` blank: an unmatched refund, of no purchase. The refund is done
 * whatever the disk says: a record that cannot be written is a warning saying what the refund
 * shows as instead, never a failure. Resolves false then, so that nothing after it says it is certain.
 */
export async function recordMade(sent: Pick<Sent, 'body' | 'decided'> & {purchase?: GwRecord; derived?: boolean}, transactionId: string, f: MadeRecordsPlace & {readonly io: Io}, client: {readonly gatewayInstance?: string}): Promise<boolean> {
  const {decided, purchase} = sent
  if ((decided.outcome !== 'approved' && decided.outcome !== 'declined') || decided.source === 'earlier') return true
  try {
    const {baseUrl, username} = await f.target()
    recordRefundMade(f.dataDir, journalTarget(baseUrl, username), {refund: decided.record, transactionId, purchase, gatewayInstance: client.gatewayInstance})
    return true
  } catch (err) {
    const why = sanitizeLine(err instanceof Error ? err.message : String(err))
    renderWarning(f.io, `gw could not record making this refund (${why}): ${unrecordedShows(sent, transactionId)}.`)
    return false
  }
}

/** What the matcher shows a refund gw has no record of as, said when the record could not be written. */
function unrecordedShows(sent: Pick<Sent, 'body'> & {purchase?: GwRecord; derived?: boolean}, transactionId: string): string {
  if (transactionId === '') return "gw refund list --purchase and purchase get will show it as of no purchase only where the gateway's record says so (standalone), else as its card, date and reference suggest"
  const {purchase} = sent
  const lists = `gw refund list --purchase ${shellQuote(String(purchase?.reference ?? purchase?.id ?? transactionId))} and purchase get`
  // The matcher's word for a refund gw has no record of: likely by a reference derived from the purchase's, else what its card, date and reference say.
  if (sent.derived) return `${lists} will show it as likely (its reference ${sanitizeLine(sent.body.reference)} derives from the purchase's), not certain`
  return `${lists} will not show it as certain, only as its card, date and reference suggest`
}

/**
 * A refund sent with a body written by hand (`gw api POST /v1.0/refunds`), recorded as gw records
 * its own: for the purchase its transaction_id names (an id or a reference), or, with none, as an
 * unmatched refund (a card alone).
 */
export function recordRefundSent(body: unknown, decided: Sent['decided'], f: MadeRecordsPlace & {readonly io: Io}, client: {readonly gatewayInstance?: string}): Promise<boolean> {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as GwRecord
  const named = typeof fields.transaction_id === 'string' || typeof fields.transaction_id === 'number' ? String(fields.transaction_id) : ''
  return recordMade({body: {...fields, reference: String(fields.reference ?? '')}, decided}, named.trim() === '' ? '' : named, f, client)
}

/**
 * `refund list --purchase`: the refunds on the purchase's card since it, matched against it and
 * printed best fit first, each record with its `gw_match` after the gateway's fields; a note on
 * stderr says how many are certain, likely, possible or another purchase's. The other filters and the
 * limit apply to what is shown, not to what is matched: a certain refund counts toward what is
 * left however the list is narrowed.
 */
export async function listRefundsOfPurchase(request: ListRequest, f: RefundsOfContext, deps: Deps): Promise<undefined> {
  const {io, columns, render} = f
  const {purchase, ...others} = request.filters
  if (!purchase) return undefined
  const made = await madeRecords(f, deps.client)
  const {matched} = await showingProgress(f, deps.client, (progress) =>
    refundsOfPurchase(purchase, {window: request.window, order: request.order, concurrency: request.concurrency, maxPages: request.maxPages, made, book: refundBook(f, deps.client), onState: (state) => progress.state('refunds', state)}),
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
 * A purchase with what has been refunded of it and what is left, as fields of gw's own after the
 * gateway's (`purchase get`): each an amount or a range (`at_least`, `at_most`, in minor units),
 * and gw_refunded says in words what gw knows and why. A declined one took nothing, and has nothing to refund.
 */
export async function withRefunded(purchase: GwRecord, f: Omit<RefundsOfContext, 'columns'> & {deps(): Promise<Deps>}): Promise<GwRecord> {
  // A voided purchase of a 2017-2018 build says successful false too: it is told as voided (refund-match.ts).
  if (outcomeOf(purchase) === false && !isVoided(purchase)) {
    const none = {at_least: 0, at_most: 0, ...(typeof purchase.currency === 'string' ? {currency: purchase.currency} : {})}
    return {...purchase, gw_refunded: {...none, says: 'nothing: it was declined, and took nothing'}, gw_left_to_refund: none}
  }
  try {
    const deps = await f.deps()
    const made = await madeRecords(f, deps.client)
    const state = await showingProgress(f, deps.client, (progress) =>
      refundedState(purchase, {concurrency: DEFAULT_CONCURRENCY, made, book: refundBook(f, deps.client), onState: (walk) => progress.state('refunds', walk)}),
    )
    const {refunded} = refundedText(purchase, state)
    const currency = state.currency === undefined ? {} : {currency: state.currency}
    return {
      ...purchase,
      gw_refunded: {at_least: state.refunded, at_most: state.refunded + state.possibleAmount, ...currency, says: refunded},
      gw_left_to_refund: {at_least: state.leftAtLeast, at_most: state.left, ...currency},
    }
  } catch (err) {
    // The purchase was found, and is shown: what could not be learned of its refunds is said so.
    if (err instanceof InterruptedError || err instanceof ModeMismatchError) throw err
    return {...purchase, gw_refunded: {says: `not known: ${err instanceof Error ? err.message : String(err)}`}}
  }
}
