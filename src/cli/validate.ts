import * as rules from '../api/schemas/rules.js'
import type {Frequency} from '../api/schemas/recurring-rules.js'
import {UsageError} from '../errors.js'

/**
 * Local checks run before any request, so a typo costs nothing and never reaches the gateway.
 * Each holds a flag to the field's rule (api/schemas/rules.ts, which batch rows and request
 * bodies use too) and throws a UsageError that names the flag and says how to fix it.
 */
function checked<T>(flag: string, result: rules.Checked<T>, hints: Partial<Record<rules.Problem['kind'], string>> = {}): T {
  if ('problem' in result) throw new UsageError(`--${flag} ${result.problem}`, hints[result.kind])
  return result.value
}

/** The same hint whichever way the value is wrong, but blank. */
const whenWrong = (hint: string) => ({malformed: hint, 'out-of-range': hint})

export function amount(flag: string, input: string): number {
  return checked(flag, rules.amount(input), whenWrong(`For 10.00 AUD give --${flag} 1000.`))
}

/** Text the gateway refuses blank, and longer than it takes. */
export function notBlank(flag: string, input: string): string {
  return checked(flag, rules.text(input))
}

/** An argument, named as the usage line shows it (ID). */
export function notBlankArg(name: string, input: string): string {
  const result = rules.notBlank(input)
  if ('problem' in result) throw new UsageError(`${name} ${result.problem}`)
  return result.value
}

export function cardNumber(flag: string, input: string): string {
  return checked(flag, rules.cardNumber(input), {luhn: 'Check the number on the card; 4242424242424242 is a test card the local gateway approves.'})
}

/** A stored card's token or alias; a card number given in its place is refused, and shown only masked. */
export function cardToken(flag: string, input: string): string {
  const result = rules.cardKey(input)
  if ('problem' in result && result.kind === 'card-number') {
    throw new UsageError(
      `--${flag} ${result.problem}: nothing was sent`,
      `Give the token (or alias) gw card tokenize answered with, or the card itself with --card-number (on a live profile, --card - on stdin).`,
    )
  }
  return checked(flag, result)
}

/** MM/YY or MM/YYYY, as card forms take it; the value is MM/YYYY, as the gateway takes it. */
export function cardExpiry(flag: string, input: string, today: Date = new Date()): string {
  return checked(flag, rules.cardExpiry(input, today), {malformed: `For example --${flag} 08/31 (or 08/2031).`, 'out-of-range': `The month comes first, then the year: --${flag} 08/31 is August 2031.`})
}

export function cvv(flag: string, input: string): string {
  return checked(flag, rules.cvv(input))
}

export function currency(flag: string, input: string): string {
  return checked(flag, rules.currency(input))
}

export function frequency(flag: string, input: string): Frequency {
  return checked(flag, rules.frequency(input), whenWrong(`For example --${flag} monthly (any case).`))
}

/** A calendar date as YYYY-MM-DD that exists (no 31 April). */
export function date(flag: string, input: string): string {
  return checked(flag, rules.date(input), whenWrong(`For example --${flag} 2030-01-31.`))
}

export function email(flag: string, input: string): string {
  return checked(flag, rules.email(input), whenWrong(`For example --${flag} jane@example.com.`))
}

/** USER:SECRET as --merchant and --auth take it; undefined unless both parts are there. The secret is kept exactly as typed. */
export function credentialPair(input: string): {username: string; secret: string} | undefined {
  const separator = input.indexOf(':')
  const username = input.slice(0, separator).trim()
  const secret = input.slice(separator + 1)
  return separator < 0 || username === '' || secret === '' ? undefined : {username, secret}
}
