import {createHmac, randomBytes} from 'node:crypto'
import {printsAsSent} from './prints-as-sent.js'
import {kindOf, maskCardNumber, maskCardNumbersIn} from './redact.js'

/**
 * What gw and its local gateway keep on disk (journals, the state file) by the rules of gw's output
 * (design.md §3): every card number masked, whole fields and numbers inside a text alike, and every
 * CVV left out, under any key that holds one (`cvv`, `card[cvv]`, a merchant's `metadata.cvv`).
 * Unlike what gw shows, a secret is kept (a web hook's password the gateway must give back), and
 * so is what `keptWhole` names, whole: what the file must give back exactly to work after a
 * restart. A JSON number stays a number: what a file keeps in one (an amount, a count) it computed.
 */
export function jsonAtRest(value: unknown, keptWhole: ReadonlySet<string> = NOTHING): string {
  const json = JSON.stringify(value)
  // Most of what is kept holds no card data, which the JSON text shows in one pass (prints-as-sent.ts).
  // Stryker disable next-line ConditionalExpression: a shortcut; without it atRest copies the value, to the same JSON.
  return printsAsSent(json) ? json : JSON.stringify(atRest(value, keptWhole))
}

const NOTHING: ReadonlySet<string> = new Set()

/** A copy of `value` as jsonAtRest keeps it; what needs no change handed back as it is. */
export function atRest<T>(value: T, keptWhole: ReadonlySet<string> = NOTHING): T {
  if (typeof value === 'string') return maskCardNumbersIn(value) as T
  if (Array.isArray(value)) return value.map((item: unknown) => atRest(item, keptWhole)) as T
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (keptWhole.has(key)) copy[key] = field
    else {
      const kind = kindOf(key)
      if (kind === 'cvv') continue
      copy[key] = kind === 'card' && typeof field === 'string' ? maskCardNumber(field) : atRest(field, keptWhole)
    }
  }
  return copy as T
}

/** Whether a file cannot keep a name (a reference, an alias) whole: it holds a card number, which is masked there, and two such names may mask alike. */
export function isMaskedAtRest(name: string): boolean {
  return maskCardNumbersIn(name) !== name
}

/** What hex's digits 0-9 are written as by letteredHex: letters no hex holds. */
const DIGIT_LETTERS = 'ghijklmnop'

/** Hex with its digits as letters (0-9 as g-p): a key or hash a file or a path holds never reads as a card number, so it is kept as it is. */
export const letteredHex = (hex: string): string => hex.replace(/\d/g, (digit) => DIGIT_LETTERS[Number(digit)]!)

/** The hex a letteredHex text was made of; hex itself comes back as it is. */
export const hexOfLettered = (text: string): string => text.replace(/[g-p]/g, (letter) => String(DIGIT_LETTERS.indexOf(letter)))

const lettered = (bytes: Buffer) => letteredHex(bytes.toString('hex'))

/** A file's own random key for keyedName: 32 bytes, kept in the file. */
export const newNameSecret = (): string => lettered(randomBytes(32))

/**
 * What a record whose name holds a card number is found by: a keyed hash (HMAC-SHA256) of the name
 * as sent, under the file's own key. The file holds it and the name masked, never the name whole;
 * two names that mask alike (`ref-4111111000071111`, `ref-4111111111111111`) stay two.
 */
export function keyedName(secret: string, name: string): string {
  return lettered(createHmac('sha256', secret).update(name).digest())
}
