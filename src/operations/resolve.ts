import {NotFoundError} from '../errors.js'
import type {Deps, GwRecord} from './deps.js'

/**
 * The records gw acts on through a request that names the id alone, and their ids' type code
 * (gateway-notes.md, Sandbox test outcomes; gateway-beyond.md §14.1): a capture, an increment, an
 * extension and a void take the purchase's id (gateway-beyond.md §2-6: a reference in their paths
 * was never seen), a payment plan's status changes its id (§9), the updates and deletes of
 * customers, plans, subscriptions and direct debits theirs (the interface, §10). Only their GETs
 * look a reference up (a subscription's looks up nothing else).
 */
const ID_CODES = {purchases: 'P', refunds: 'R', customers: 'C', paymentPlans: 'PP', plans: 'PL', subscriptions: 'S', directDebits: 'DD'} as const

export type Resolvable = keyof typeof ID_CODES

/** `071-P-52NRCGCF`: the merchant's prefix, the record's type code, 7 or 8 upper-case letters and digits. */
export function hasIdShape(resource: Resolvable, key: string): boolean {
  return new RegExp(`^\\d{3}-${ID_CODES[resource]}-[A-Z0-9]{7,8}$`).test(key)
}

/** A record as a request that takes its id names it: the key typed, the id, and the record when it was looked up. */
export interface Resolved {
  key: string
  id: string
  /** Looked up by the key (an id or a reference): the record the gateway holds. */
  record?: GwRecord
}

/**
 * The id of the record `key` names, an id or a reference. An id's shape is the evidence it is one
 * (a reference shaped as another record's id is not a thing people make): sent as it is, with no
 * look-up, so a request by id costs what it did. Anything else is looked up once, by the GET that
 * takes an id and a reference alike, and its record kept for what the command needs of it (the
 * amount to capture). A miss says both were tried.
 */
export async function resolveKey(resource: Resolvable, key: string, {client}: Pick<Deps, 'client'>): Promise<Resolved> {
  if (hasIdShape(resource, key)) return {key, id: key}
  let record: GwRecord
  try {
    record = await client[resource].get(key)
  } catch (err) {
    if (err instanceof NotFoundError) throw missing(resource, key, err, 'id or reference')
    throw err
  }
  if (typeof record.id !== 'string' || record.id === '') throw missing(resource, key, new NotFoundError(`the ${nounOf(resource)} found has no id`), 'id or reference')
  return {key, id: record.id, record}
}

/** The not-found error of a record sought by `tried` (`id`, or `id or reference`), in the gateway's words as well. */
export function missing(resource: Resolvable, key: string, err: NotFoundError, tried: 'id' | 'id or reference'): NotFoundError {
  return new NotFoundError(`No ${nounOf(resource)} has the ${tried} ${key}: ${err.message}`, {status: err.status, requestId: err.requestId, messages: err.messages})
}

export function nounOf(resource: Resolvable): string {
  return resource.replace(/s$/, '').replace(/[A-Z]/g, (capital) => ` ${capital.toLowerCase()}`)
}

/**
 * Each key resolved once, however often it comes (a file of ids may repeat one): the look-ups of
 * one command share their answers.
 */
export function resolver(resource: Resolvable, deps: Pick<Deps, 'client'>): (key: string) => Promise<Resolved> {
  const made = new Map<string, Promise<Resolved>>()
  return (key) => {
    let resolved = made.get(key)
    if (!resolved) made.set(key, (resolved = resolveKey(resource, key, deps)))
    return resolved
  }
}
