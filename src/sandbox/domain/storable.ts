import {holdsCardNumber, maskCardNumbersIn} from '../../safety/redact.js'

/**
 * Fields kept whole on disk: what the gateway must give back exactly to work after a restart (a
 * merchant's name, a card's token, a web hook's credentials, a removed record's key). None is text
 * a merchant writes about a payment.
 */
const KEPT_WHOLE = new Set(['merchant', 'key', 'token', 'card_token', 'authentication_username', 'authentication_password', 'username', 'password'])

/**
 * `value` as the state file holds it (JSON): every card number inside a string masked as gw shows
 * one (design.md §3: never stored whole, a merchant's reference, a holder's name or a description
 * included). Only a text that holds one is looked at twice: JSON keeps a string's digits, spaces
 * and dashes as they are, so the line holds a card number wherever one of its strings does.
 */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value)
  return holdsCardNumber(json) ? JSON.stringify(masked(value)) : json
}

function masked(value: unknown): unknown {
  if (typeof value === 'string') return maskCardNumbersIn(value)
  if (Array.isArray(value)) return value.map(masked)
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) copy[key] = KEPT_WHOLE.has(key) ? field : masked(field)
  return copy
}

/** A merchant's name for a record (a reference, an alias) as looked up: masked as the state file keeps it, so a look-up finds its record before a restart and after. */
export function nameKey(name: string): string {
  return maskCardNumbersIn(name)
}

/** Whether two names for a record (references, aliases) are the same one: as the state file keeps them. */
export function sameName(one: string, other: string): boolean {
  return one === other || nameKey(one) === nameKey(other)
}
