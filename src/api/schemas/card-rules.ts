/** Card rules with no zod in them, so local validation costs nothing at start-up. */

/**
 * An expiry as card forms take it: `MM/YY` or `MM/YYYY`, the month with or without its leading
 * zero, spaces around the slash allowed (`12 / 30`). A two-digit year is 20YY: a card's expiry is
 * at most a few years ahead. Written back as the gateway takes it, `MM/YYYY`; undefined when it is
 * not an expiry.
 */
export function expiryAsSent(input: string): string | undefined {
  const parts = expiryParts(input)
  if (!parts || parts.month < 1 || parts.month > 12) return undefined
  return `${String(parts.month).padStart(2, '0')}/${parts.year}`
}

/** An expiry's month and four-digit year as written, whatever the month: `13/2030` is the shape of one, with no such month. */
export function expiryParts(input: string): {month: number; year: string} | undefined {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.trim())
  if (!match) return undefined
  return {month: Number(match[1]), year: match[2]!.length === 2 ? `20${match[2]}` : match[2]!}
}

/** The Luhn checksum every card number carries; shared by gw's local checks and its local gateway. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}
