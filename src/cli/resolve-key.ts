import {NotFoundError} from '../errors.js'
import type {Deps} from '../operations/deps.js'
import {missing, nounOf, type Resolvable, type Resolved} from '../operations/resolve.js'
import * as validate from './validate.js'
import type {Factory} from './factory.js'

/** The list command that finds what a look-up missed, by the topic people type. */
const TOPIC: Record<Resolvable, string> = {purchases: 'purchase', refunds: 'refund', customers: 'customer', paymentPlans: 'payment-plan', plans: 'plan', subscriptions: 'subscription', directDebits: 'direct-debit'}

/** How to find a record that an id or reference missed: its list, and what that finds records by. */
async function findingHint(resource: Resolvable): Promise<string> {
  const {LIST_FILTERS} = await import('./help/not-found.js')
  const topic = TOPIC[resource]
  const by = LIST_FILTERS[topic]
  return `gw ${topic} list finds ${nounOf(resource)}s, newest first${by ? `, by ${by}` : ''}.`
}

async function withHint(err: NotFoundError, resource: Resolvable): Promise<NotFoundError> {
  return new NotFoundError(err.message, {status: err.status, requestId: err.requestId, messages: err.messages, hint: await findingHint(resource)})
}

/**
 * `act` on the record `key` names, an id or a reference, resolved by `resolve` (operations/resolve.ts:
 * once per key). A miss says what was tried (the id, or the id and the reference at once) and how
 * to find the record: the look-up's miss, or the request's own when the key was sent as an id.
 */
export async function onRecord<T>(resource: Resolvable, key: string, resolve: (key: string) => Promise<Resolved>, act: (resolved: Resolved) => Promise<T>): Promise<T> {
  let resolved: Resolved
  try {
    resolved = await resolve(key)
  } catch (err) {
    throw err instanceof NotFoundError ? await withHint(err, resource) : err
  }
  try {
    return await act(resolved)
  } catch (err) {
    if (err instanceof NotFoundError && resolved.record === undefined) throw await withHint(missing(resource, key, err, 'id'), resource)
    throw err
  }
}

/**
 * A change to the one record `key` names, an id or a reference: refused first on a read-only
 * profile (before the look-up, as every write is before its first request), then `act` on its id.
 */
export async function changeRecord<T>(f: Factory, resource: Resolvable, key: string, act: (id: string, deps: Deps) => Promise<T>): Promise<T> {
  const [{resolver}, {refuseWhenReadOnly}] = await Promise.all([import('../operations/resolve.js'), import('./live-safety.js')])
  refuseWhenReadOnly(await f.target(), f.commandName)
  const deps = await f.deps()
  return onRecord(resource, key, resolver(resource, deps), ({id}) => act(id, deps))
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
