import {isMaskedAtRest, jsonAtRest} from '../../safety/at-rest.js'
import {maskCardNumbersIn} from '../../safety/redact.js'

// The keyed hash a name holding a card number is found by is the one gw's journals use too.
export {keyedName, newNameSecret} from '../../safety/at-rest.js'

/**
 * Fields kept whole on disk: what the gateway must give back exactly to work after a restart (a
 * merchant's name, a card's token, a web hook's credentials, a removed record's key). None is text
 * a merchant writes about a payment.
 */
const KEPT_WHOLE = new Set(['merchant', 'key', 'token', 'card_token', 'authentication_username', 'authentication_password', 'username', 'password'])

/**
 * `value` as the state file holds it (JSON), by the rules of gw's output (safety/at-rest.ts): every
 * card number masked, inside a string or a field of its own, however its digits are grouped
 * (design.md §3: never stored whole, a merchant's reference, a holder's name or a description
 * included), and every CVV left out (a merchant's `metadata.cvv` too).
 */
export function storableJson(value: unknown): string {
  return jsonAtRest(value, KEPT_WHOLE)
}

/**
 * The store's fields whose keys are names and ids, not fields, and how many levels deep: a
 * merchant's username, then a collection, then a record's id (`merchants`, `nameHashes`); a card's
 * token and expiry (`cardNotices`).
 */
const KEYED_BY_DATA: Readonly<Record<string, number>> = {merchants: 3, nameHashes: 3, cardNotices: 1}

/**
 * The store's snapshot (Store.snapshot) as the state file holds it: as storableJson, but for the
 * keys that are names and ids (KEYED_BY_DATA), which are kept as they are, only what they hold
 * judged. Judged as fields, an id holding `cvv` or `cvc` (`071-P-CVV76MMD`, a card's token
 * `...9cvc2...`) read as a CVV's key, and its record was left out of the file.
 */
export function storableSnapshot(snapshot: object): string {
  return keyedByData(snapshot, 1, (field) => KEYED_BY_DATA[field] ?? 0)
}

/**
 * `value` as JSON with its keys, `levels` deep, kept as they are, and what they hold judged by
 * storableJson, each `deeper(key)` levels further down; a key whose value JSON leaves out (none
 * there) is left out too.
 */
function keyedByData(value: unknown, levels: number, deeper: (key: string) => number = () => levels - 1): string {
  if (levels === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) return storableJson(value)
  const kept = Object.entries(value).filter(([, held]) => held !== undefined)
  return `{${kept.map(([key, held]) => `${JSON.stringify(key)}:${keyedByData(held, deeper(key))}`).join(',')}}`
}

/** A merchant's name for a record (a reference, an alias) masked as the state file keeps it: what a record without a keyed hash is looked up by. */
export function nameKey(name: string): string {
  return maskCardNumbersIn(name)
}

/** Whether the state file cannot keep a name whole: it holds a card number, which is masked there, and two such names may mask alike. */
export function isMaskedInFile(name: string): boolean {
  return isMaskedAtRest(name)
}
