import {NotFoundError} from '../errors.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'

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
 * The id of the record `key` names, an id or a reference. An id's shape is evidence it is one,
 * not proof (a reference may be written as one): sent as it is, with no look-up, so a request by
 * id costs what it did, and looked up only when the gateway answers that no record has that id
 * (onRecord). Anything else is looked up once (lookUpKey).
 */
export async function resolveKey(resource: Resolvable, key: string, deps: Pick<Deps, 'client'>): Promise<Resolved> {
  return hasIdShape(resource, key) ? {key, id: key} : lookUpKey(resource, key, deps)
}

/**
 * The record `key` names, by the GET that takes an id and a reference alike, and its id; its
 * record kept for what the command needs of it (the amount to capture). A miss says both were tried.
 */
export async function lookUpKey(resource: Resolvable, key: string, deps: Pick<Deps, 'client'>): Promise<Resolved & {record: GwRecord}> {
  const record = await recordOf(resource, key, deps)
  if (typeof record.id !== 'string' || record.id === '') throw missing(resource, key, new NotFoundError(`the ${nounOf(resource)} found has no id`), 'id or reference')
  return {key, id: record.id, record}
}

/** The record `key` names, by the GET that takes an id and a reference alike; a miss says both were tried. */
export async function recordOf(resource: Resolvable, key: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  try {
    return await client[resource].get(key)
  } catch (err) {
    throw err instanceof NotFoundError ? missing(resource, key, err, 'id or reference') : err
  }
}

/**
 * The not-found error of a record sought by `tried` (`id`, `id or reference`, `token or alias`), in
 * the gateway's words as well: as its own where they name another kind of record (a refund's 404
 * says `Purchase not found`), so that gw's words are not read as saying it.
 */
export function missing(resource: Resolvable | 'cards', key: string, err: NotFoundError, tried: string): NotFoundError {
  const noun = nounOf(resource)
  const said = err.message.toLowerCase()
  const another = !said.includes(noun) && [...Object.keys(ID_CODES), 'cards'].some((other) => said.includes(nounOf(other as Resolvable)))
  const words = another ? ` (the gateway answered: ${err.message})` : `: ${err.message}`
  return new NotFoundError(`No ${noun} has the ${tried} ${key}${words}`, {status: err.status, requestId: err.requestId, messages: err.messages})
}

/**
 * After the gateway answered 404 (`err`) to a request that named `key` as an id on its shape
 * alone: the record `lookUp` finds under another id (a reference written as an id), to act on
 * instead. Missed both ways, said in the words of the gateway's answer to the request asked for;
 * a record whose id is `key`, said as missed by that id. A command and a batch row say one miss alike.
 */
export async function foundAfterMiss(resource: Resolvable, key: string, err: NotFoundError, lookUp: (key: string) => Promise<Resolved>): Promise<Resolved> {
  let found: Resolved
  try {
    found = await lookUp(key)
  } catch (lookErr) {
    throw lookErr instanceof NotFoundError ? missing(resource, key, err, 'id or reference') : lookErr
  }
  if (found.id === key) throw missing(resource, key, err, 'id')
  return found
}

export function nounOf(resource: Resolvable | 'cards'): string {
  return resource.replace(/s$/, '').replace(/[A-Z]/g, (capital) => ` ${capital.toLowerCase()}`)
}

/** Each key resolved once (`resolve`), or looked up once (`lookUp`), however often it comes. */
export interface Resolver {
  resolve(key: string): Promise<Resolved>
  lookUp(key: string): Promise<Resolved & {record: GwRecord}>
}

/**
 * The look-ups of one command, sharing their answers (a file of ids may repeat one): a key looked
 * up for any reason (a capture's amount, a 404 on an id's shape) is not looked up again.
 */
export function resolver(resource: Resolvable, deps: Pick<Deps, 'client'>): Resolver {
  const found = new Map<string, Promise<Resolved & {record: GwRecord}>>()
  const lookUp = (key: string) => {
    let record = found.get(key)
    if (!record) found.set(key, (record = lookUpKey(resource, key, deps)))
    return record
  }
  return {lookUp, resolve: (key) => (hasIdShape(resource, key) ? Promise.resolve({key, id: key}) : lookUp(key))}
}
