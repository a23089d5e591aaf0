import {createHash, randomInt, randomUUID} from 'node:crypto'

const UPPER_ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
export const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** The record type codes of the gateway's ids: `071-P-52NRCGCF` is a purchase. */
export type RecordType = 'P' | 'R' | 'PL' | 'C' | 'S' | 'WH' | 'PP' | 'PT' | 'DD'

/** A merchant the local gateway answers as, with the token it authenticates with. */
export interface MerchantCredentials {
  username: string
  token: string
}

/** The vendor's demo merchant; its ids start with 071 in every published sample. */
export const TEST_MERCHANT = 'TEST'
const TEST_PREFIX = '071'

export function randomCode(length: number, alphabet: string): string {
  let code = ''
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)]
  return code
}

export function newRecordId(prefix: string, type: RecordType): string {
  return `${prefix}-${type}-${randomCode(8, UPPER_ALPHANUMERIC)}`
}

/**
 * A random id in a UUID's shape (request ids, delivery ids, the name of a run of the data) whose
 * groups each begin and end with a letter: no run of 13 digits can form across them, nor with
 * digits written after one (a run of the data is named `<run>.<changes>`), so gw's masking of card
 * numbers inside text, on screen and in every file, never takes one for a card number and changes it.
 */
export function newUuid(): string {
  const letter = () => 'abcdef'[randomInt(6)]!
  return randomUUID().replace(/(?<=^|-)[0-9a-f]|[0-9a-f](?=-|$)/g, letter)
}

/** Six digits, leading zeros kept: authorization numbers are strings in current responses. */
export function newAuthorization(): string {
  return String(randomInt(1_000_000)).padStart(6, '0')
}

/**
 * A three-digit id prefix per merchant: TEST keeps 071, every other username hashes into
 * 100–999, so a prefix never changes between runs. Usernames are taken in sorted order and a
 * clash moves to the next free prefix, which keeps the assignment stable for one set of merchants.
 */
export function merchantPrefixes(usernames: readonly string[]): Map<string, string> {
  const prefixes = new Map<string, string>()
  const taken = new Set<string>()
  for (const username of [...new Set(usernames)].sort()) {
    let prefix = username === TEST_MERCHANT ? TEST_PREFIX : hashedPrefix(username)
    while (taken.has(prefix)) prefix = String(((Number(prefix) - 99) % 900) + 100)
    prefixes.set(username, prefix)
    taken.add(prefix)
  }
  return prefixes
}

function hashedPrefix(username: string): string {
  const hash = createHash('sha256').update(username).digest().readUInt32BE(0)
  return String((hash % 900) + 100)
}

/** TEST/TEST is the vendor's public demo merchant (gateway-notes.md) and is always there. */
export function credentialsByUsername(merchants: MerchantCredentials[]): Map<string, string> {
  const tokens = new Map([[TEST_MERCHANT, TEST_MERCHANT]])
  for (const {username, token} of merchants) {
    if (tokens.has(username)) throw new Error(`Merchant ${username} is given twice (TEST/TEST is built in)`)
    tokens.set(username, token)
  }
  return tokens
}

export function prefixOf(prefixes: Map<string, string>, merchant: string): string {
  const prefix = prefixes.get(merchant)
  if (prefix === undefined) throw new Error(`No id prefix for merchant ${merchant}`)
  return prefix
}
