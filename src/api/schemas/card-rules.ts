/** Card rules with no zod in them, so local validation costs nothing at start-up. */

export const MM_YYYY = /^(0[1-9]|1[0-2])\/\d{4}$/

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
