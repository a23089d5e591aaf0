import {createHmac, randomBytes} from 'node:crypto'
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

/** A merchant's name for a record (a reference, an alias) masked as the state file keeps it: what a record without a keyed hash is looked up by. */
export function nameKey(name: string): string {
  return maskCardNumbersIn(name)
}

/** Whether the state file cannot keep a name whole: it holds a card number, which is masked there, and two such names may mask alike. */
export function isMaskedInFile(name: string): boolean {
  return nameKey(name) !== name
}

/** Hex with its digits as letters (0-9 as g-p): a key or hash the state file holds never reads as a card number, so it is kept as it is. */
const lettered = (bytes: Buffer) => bytes.toString('hex').replace(/\d/g, (digit) => 'ghijklmnop'[Number(digit)]!)

/** A gateway's own random key for keyedName: 32 bytes, kept in its state. */
export const newNameSecret = (): string => lettered(randomBytes(32))

/**
 * What a record whose name holds a card number is found by: a keyed hash (HMAC-SHA256) of the name
 * as sent, under the gateway's own key. The state file holds it and the name masked, never the name
 * whole; two names that mask alike (`ref-4111111000071111`, `ref-4111111111111111`) stay two.
 */
export function keyedName(secret: string, name: string): string {
  return lettered(createHmac('sha256', secret).update(name).digest())
}
