import {DEFAULT_CONCURRENCY, type Deps} from '../operations/deps.js'
import {type ListRequest, type ListResource, listRecords} from '../operations/lists.js'
import {renderListing, renderListSummary} from '../output/render.js'
import {NotFoundError} from '../errors.js'
import {lookUp} from '../operations/look-up.js'
import {parseCard, type RecordFilters, type RecordStatus} from '../lists/filters.js'
import {parseWindow, type Window} from '../lists/window.js'
import type {Factory} from './factory.js'
import {DEFAULT_LIST_LIMIT} from './flags.js'
import type {ListFlags} from './list-flags.js'


/**
 * A list command's run: its flags as a request, the records streamed through the
 * operation and printed as they come, and a line on a terminal saying how many were shown and how
 * to see more. What a filter names by reference or alias (a refund's purchase, a subscription's
 * customer and plan, a stored card) is looked up first.
 */
export async function runList(resource: ListResource, flags: ListFlags, f: Factory, noun: string): Promise<undefined> {
  // Likely duplicate charges: groups, not a list (cli/run-duplicates.ts).
  if (flags.duplicates || flags.within !== undefined) return (await import('./run-duplicates.js')).runDuplicates(flags, f, (deps) => filtersOf(flags, deps))
  const {io, columns, render} = f
  const deps = await f.deps()
  const filters = await filtersOf(flags, deps)
  const request: ListRequest = {
    resource,
    window: await windowOf(flags, f),
    filters,
    order: flags['oldest-first'] ? 'oldest' : 'newest',
    limit: flags.all ? undefined : (flags.limit ?? DEFAULT_LIST_LIMIT),
    concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
    maxPages: flags['max-pages'],
    // Web hooks carry no dates: the hooks gw made tell the gateway's order (webhooks/hook-order.ts).
    ...(resource === 'webHooks' ? {undatedOrder: (await import('../webhooks/hook-order.js')).hookOrderReader(f, deps.client)} : {}),
  }
  // Refunds name no purchase: those of one are matched against it, best fit first (lists/refunds-of-purchase.ts).
  if (filters.purchase) return (await import('../lists/refunds-of-purchase.js')).listRefundsOfPurchase(request, f, deps)
  const {showingProgress} = await import('../output/progress.js')
  await showingProgress(f, deps.client, async (progress) => {
    const listing = listRecords({...request, onState: (state) => progress.state(`${noun}s`, state)}, deps)
    await renderListing(io, listing.pages, columns, render, {paged: progress.done}).catch((err: unknown) => {
      throw listing.summary().shown === 0 ? unlisted(resource, noun, err) : err
    })
    // A reader gone (`| head -1`): what was shown is not what was read, and the exit (141) says so.
    if (io.chatty && !render.json && !io.outFailure()) renderListSummary(io, listing.summary(), {noun})
  })
  return undefined
}

/** --reference, --status, --card and the other filters as a list applies them, what they name by reference or alias looked up first. */
async function filtersOf(flags: ListFlags, deps: Deps): Promise<RecordFilters> {
  const card = flags.card === undefined ? undefined : parseCard(flags.card)
  return {
    ...(flags.reference === undefined ? {} : {reference: flags.reference}),
    ...(flags.status === undefined ? {} : {status: flags.status as RecordStatus}),
    ...(card === undefined ? {} : {card: 'token' in card ? {token: await namesOf('cards', card.token, deps, 'token')} : card}),
    ...(flags.amount === undefined ? {} : {amount: flags.amount}),
    ...(flags.currency === undefined ? {} : {currency: flags.currency}),
    ...(flags.holder === undefined ? {} : {holder: flags.holder}),
    ...(flags.email === undefined ? {} : {email: flags.email}),
    ...(flags.active ? {active: true} : flags.inactive ? {active: false} : {}),
    ...(flags.purchase === undefined ? {} : {purchase: await lookUp('purchases', flags.purchase, deps)}),
    ...(flags.customer === undefined ? {} : {customer: await namesOf('customers', flags.customer, deps, 'id')}),
    ...(flags.plan === undefined ? {} : {plan: await namesOf('plans', flags.plan, deps, 'id')}),
  }
}

/**
 * The window the flags name, its days and ages read in the gateway's time (a local gateway's clock
 * may have moved on, and it dates its records by its today in its time zone), asked only when the
 * flags name one.
 */
async function windowOf(flags: ListFlags, f: Factory): Promise<Window> {
  if (flags.from === undefined && flags.to === undefined && flags.on === undefined) return {}
  const {now, calendar} = await f.gatewayTime()
  return parseWindow(flags, now, calendar)
}

/**
 * A record named as given and as the gateway names it elsewhere (a subscription names its customer
 * and plan by id, a purchase its stored card by token): both, so either matches. One that cannot
 * be found is matched as given.
 */
async function namesOf(resource: 'customers' | 'plans' | 'cards', given: string, deps: Deps, field: 'id' | 'token'): Promise<string[]> {
  try {
    const record = await lookUp(resource, given, deps)
    return typeof record[field] === 'string' ? [given, record[field]] : [given]
  } catch (err) {
    if (err instanceof NotFoundError) return [given]
    throw err
  }
}

/** Lists no recorded gateway is known to have (gateway-beyond.md §9), and what to do instead. */
const NOT_EVERY_GATEWAY: Partial<Record<ListResource, string>> = {
  paymentPlans: 'Look a plan up by its reference instead: gw payment-plan get REFERENCE.',
}

/** A 404 for the list itself, from a gateway without one: said so, instead of "not found". */
function unlisted(resource: ListResource, noun: string, err: unknown): unknown {
  const instead = NOT_EVERY_GATEWAY[resource]
  if (instead === undefined || !(err instanceof NotFoundError)) return err
  return new NotFoundError(`This gateway has no list of ${noun}s: it answered the list with "not found"`, {status: err.status, requestId: err.requestId, hint: instead})
}
