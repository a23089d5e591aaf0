import {maskCardNumbersIn} from '../safety/redact.js'

/** The samenesses decide.ts holds a record found to: of references, card numbers and text, as gateways write them. */

/**
 * Whether the reference found is the one sent: the same text, or the text with its card numbers
 * masked, as a gateway that never keeps one whole stores it (the local gateway after a restart,
 * docs/local-gateway.md). Found under the reference sent, and held to its amount and card too.
 */
export function sameReference(sent: unknown, found: unknown): boolean {
  return found === sent || (typeof sent === 'string' && found === maskCardNumbersIn(sent))
}

const MASKED = /[Xx*•]/g

/**
 * Whether two card numbers, either whole or masked as gateways mask them (`424242XXXXXX4242`),
 * can be the same card: the same length, and every digit both show the same; at least the last
 * four must show in both, or nothing was compared.
 */
export function sameCard(a: unknown, b: unknown): boolean {
  // Some gateways send a card number as a JSON number: its digits, while it holds them all.
  const digits = (value: unknown) => (Number.isSafeInteger(value) && (value as number) > 0 ? String(value) : value)
  const [p, q] = [digits(a), digits(b)]
  if (typeof p !== 'string' || typeof q !== 'string') return false
  const [x, y] = [p, q].map((number) => number.replace(/[\s-]/g, '').replace(MASKED, '_'))
  // Ending in four digits each, so never shorter than four.
  if (x!.length !== y!.length) return false
  if (!/\d{4}$/.test(x!) || !/\d{4}$/.test(y!)) return false
  return [...x!].every((char, index) => char === '_' || y![index] === '_' || char === y![index])
}

/** Currencies and names as gateways and people write them: in any case, spaces around aside. */
export function sameText(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.trim().toUpperCase() === b.trim().toUpperCase()
}
