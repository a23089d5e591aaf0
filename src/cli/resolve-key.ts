import {NotFoundError} from '../errors.js'
import type {Deps} from '../operations/deps.js'
import {foundAfterMiss, missing, nounOf, type Resolvable, type Resolved, type Resolver, resolver} from '../operations/resolve.js'
import * as validate from './validate.js'
import type {Factory} from './factory.js'

/** What a look-up or a change finds records of: those gw resolves keys of, and stored cards (by token or alias). */
type Found = Resolvable | 'cards'

/** The list command that finds what a look-up missed, by the topic people type. */
const TOPIC: Record<Found, string> = {purchases: 'purchase', refunds: 'refund', customers: 'customer', paymentPlans: 'payment-plan', plans: 'plan', subscriptions: 'subscription', directDebits: 'direct-debit', cards: 'card'}

/** How to find a record that an id or reference missed: its list, and what that finds records by. */
async function findingHint(resource: Found): Promise<string> {
  const {LIST_FILTERS} = await import('./help/not-found.js')
  const topic = TOPIC[resource]
  const by = LIST_FILTERS[topic]
  return `gw ${topic} list finds ${nounOf(resource)}s, newest first${by ? `, by ${by}` : ''}.`
}

async function withHint(err: NotFoundError, resource: Found): Promise<NotFoundError> {
  return new NotFoundError(err.message, {status: err.status, requestId: err.requestId, messages: err.messages, hint: await findingHint(resource)})
}

/** What `step` returns; a miss it meets (a record not found) gets the hint of the list that finds `resource`. */
export async function hintedMiss<R>(resource: Found, step: () => Promise<R>): Promise<R> {
  try {
    return await step()
  } catch (err) {
    throw err instanceof NotFoundError ? await withHint(err, resource) : err
  }
}

/**
 * A `get`'s miss (the gateway's 404, in its words, which may name another record: a refund's says
 * "Purchase not found"), said as the resolver says one: which record, what the key was tried as
 * (`tried`: id or reference, token or alias), and the list that finds it.
 */
export async function missedLookUp(resource: string, key: string, tried: string, err: NotFoundError): Promise<NotFoundError> {
  if (!Object.hasOwn(TOPIC, resource)) return err
  // A stored card's token is named by its last four only: tokens are never echoed.
  const shown = resource === 'cards' ? (await import('../safety/redact.js')).maskCardToken(key) : key
  return withHint(missing(resource as Found, shown, err, tried), resource as Found)
}

/**
 * `act` on the record `key` names, an id or a reference (operations/resolve.ts: looked up once per
 * key). A miss says what was tried (the id, or the id and the reference at once) and how to find
 * the record. A key sent as an id on its shape alone that the gateway answers 404 for may be a
 * reference written as an id: it is looked up, and a record it names under another id is acted on.
 * That cannot do anything twice: a 404 is the gateway saying it acted on nothing.
 */
export async function onRecord<T>(resource: Resolvable, key: string, {resolve, lookUp}: Resolver, act: (resolved: Resolved) => Promise<T>): Promise<T> {
  const resolved = await hintedMiss(resource, () => resolve(key))
  try {
    return await act(resolved)
  } catch (err) {
    if (!(err instanceof NotFoundError) || resolved.record !== undefined) throw err
    return act(await hintedMiss(resource, () => foundAfterMiss(resource, key, err, lookUp)))
  }
}

/**
 * The resolver of a command's keys (operations/resolve.ts), for `f`. On a live profile with a
 * person to confirm, every key is looked up first, whatever its shape (one GET): the confirmation
 * then names the record the gateway holds, and is asked once, never again for a reference written
 * as an id. The key given for an id is kept (Factory.keysGiven), so the confirmation takes either.
 */
export async function keyResolver(f: Factory, resource: Resolvable, deps: Deps): Promise<Resolver> {
  const {resolve, lookUp} = resolver(resource, deps)
  const confirming = (await f.target()).environment === 'live' && !f.flags.yes && f.io.canPrompt()
  const kept = async <R extends Resolved>(found: Promise<R>): Promise<R> => {
    const resolved = await found
    if (resolved.id !== resolved.key) f.keysGiven.set(resolved.id, resolved.key)
    return resolved
  }
  return {resolve: (key) => kept(confirming ? lookUp(key) : resolve(key)), lookUp: (key) => kept(lookUp(key))}
}

/**
 * A change to the one record `key` names, an id or a reference: refused first on a read-only
 * profile (before the look-up, as every write is before its first request), then `act` on its id.
 */
export async function changeRecord<T>(f: Factory, resource: Resolvable, key: string, act: (id: string, deps: Deps) => Promise<T>): Promise<T> {
  const {refuseWhenReadOnly} = await import('./live-safety.js')
  refuseWhenReadOnly(await f.target(), f.commandName)
  const deps = await f.deps()
  return onRecord(resource, key, await keyResolver(f, resource, deps), ({id}) => act(id, deps))
}

/**
 * The id or reference a command acts on, left out: asked for at a terminal (the `what` it names,
 * such as "the authorization to capture"); without one, the usage error `otherwise`.
 */
export async function askKey(f: Factory, what: string, otherwise: Error): Promise<string> {
  if (f.flags['no-input'] || !f.io.canPrompt()) throw otherwise
  const {checkedBy} = await import('../output/prompter.js')
  const answer = await (await f.prompter()).text(`id or reference of ${what} (ID)`, {validate: checkedBy((_, input) => validate.notBlankArg('ID', input), 'ID')})
  return answer.trim()
}
