import {luhnValid, MM_YYYY} from './api/schemas/card-rules.js'
import {FREQUENCIES, type Frequency, frequencyNamed} from './api/schemas/recurring-rules.js'
import {UsageError} from './errors.js'
import {looksLikeCardNumber, maskCardNumber} from './redact.js'

/**
 * Local checks run before any request, so a typo costs nothing and never reaches the gateway.
 * Each throws a UsageError that names the flag and says how to fix it.
 */
export function amount(flag: string, input: string): number {
  if (!/^\d+$/.test(input.trim())) {
    throw new UsageError(`--${flag} must be a positive whole number in the currency's minor unit, got "${input}"`, `For 10.00 AUD give --${flag} 1000.`)
  }
  const value = Number(input.trim())
  if (value <= 0 || !Number.isSafeInteger(value)) throw new UsageError(`--${flag} must be greater than 0, got ${input}`, `For 10.00 AUD give --${flag} 1000.`)
  return value
}

export function notBlank(flag: string, input: string): string {
  const value = input.trim()
  if (value === '') throw new UsageError(`--${flag} must not be blank`)
  return value
}

/** An argument, named as the usage line shows it (ID). */
export function notBlankArg(name: string, input: string): string {
  const value = input.trim()
  if (value === '') throw new UsageError(`${name} must not be blank`)
  return value
}

export function cardNumber(flag: string, input: string): string {
  const digits = input.replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(digits)) throw new UsageError(`--${flag} must be 12 to 19 digits (spaces and dashes are ignored)`)
  if (!luhnValid(digits)) throw new UsageError(`--${flag} fails the Luhn check: a digit is wrong or missing`, 'Check the number on the card; 4242424242424242 is a test card the local gateway approves.')
  return digits
}

/** A stored card's token or alias; a card number given in its place is refused, and shown only masked. */
export function cardToken(flag: string, input: string): string {
  const value = notBlank(flag, input)
  if (looksLikeCardNumber(value)) {
    throw new UsageError(
      `--${flag} ${maskCardNumber(value)} is a card number, not a token or alias: nothing was sent`,
      `Give the token (or alias) gw card tokenize answered with, or the card itself with --card-number (on a live profile, --card - on stdin).`,
    )
  }
  return value
}

export function cardExpiry(flag: string, input: string, today: Date = new Date()): string {
  const value = input.trim()
  if (!MM_YYYY.test(value)) throw new UsageError(`--${flag} must be MM/YYYY, got "${input}"`, `For example --${flag} 08/2031.`)
  const [month, year] = value.split('/').map(Number) as [number, number]
  const thisMonth = today.getFullYear() * 12 + today.getMonth()
  if (year * 12 + (month - 1) < thisMonth) throw new UsageError(`--${flag} ${value} is in the past: the card has expired`)
  return value
}

export function cvv(flag: string, input: string): string {
  if (!/^\d{3,4}$/.test(input.trim())) throw new UsageError(`--${flag} must be 3 or 4 digits`)
  return input.trim()
}

export function currency(flag: string, input: string): string {
  const value = input.trim().toUpperCase()
  if (!/^[A-Z]{3}$/.test(value)) throw new UsageError(`--${flag} must be a three-letter ISO 4217 code such as AUD, got "${input}"`)
  return value
}

export function frequency(flag: string, input: string): Frequency {
  const named = frequencyNamed(input)
  if (!named) throw new UsageError(`--${flag} must be one of ${FREQUENCIES.join(', ')}, got "${input}"`, `For example --${flag} monthly (any case).`)
  return named
}

/** A calendar date as YYYY-MM-DD that exists (no 31 April). */
export function date(flag: string, input: string): string {
  const value = input.trim()
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  const [year, month, day] = match ? match.slice(1).map(Number) as [number, number, number] : [0, 0, 0]
  const parsed = new Date(Date.UTC(year, month - 1, day))
  if (!match || parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day) {
    throw new UsageError(`--${flag} must be a date as YYYY-MM-DD, got "${input}"`, `For example --${flag} 2030-01-31.`)
  }
  return value
}

/** Only the shape: one @, something either side, a dot in the domain. The gateway has the last word. */
export function email(flag: string, input: string): string {
  const value = input.trim()
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new UsageError(`--${flag} must be an email address, got "${input}"`, `For example --${flag} jane@example.com.`)
  return value
}

/** USER:SECRET as --merchant and --auth take it; undefined unless both parts are there. The secret is kept exactly as typed. */
export function credentialPair(input: string): {username: string; secret: string} | undefined {
  const separator = input.indexOf(':')
  const username = input.slice(0, separator).trim()
  const secret = input.slice(separator + 1)
  return separator < 0 || username === '' || secret === '' ? undefined : {username, secret}
}
