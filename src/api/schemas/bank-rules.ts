import type {Checked} from './rules.js'

/**
 * The rules of payment plans' and direct debits' own fields (gateway-beyond.md §9-10), worded as
 * rules.ts words the others: to follow the name of what holds the value. No zod here, so a flag is
 * checked at start-up without loading it.
 */

const ok = <T>(value: T): Checked<T> => ({value})

/** A BSB as the gateway takes it, `123-456`; six digits without the dash are taken too. */
export function bsb(input: string): Checked<string> {
  const match = /^(\d{3})-?(\d{3})$/.exec(input.trim())
  return match ? ok(`${match[1]}-${match[2]}`) : {problem: `must be six digits as 123-456, got "${input}"`, kind: 'malformed'}
}

/** An account number: digits only, as the gateway refuses anything else. */
export function accountNumber(input: string): Checked<string> {
  const value = input.trim()
  return /^\d{1,20}$/.test(value) ? ok(value) : {problem: `must be digits only (at most 20), got "${input}"`, kind: 'malformed'}
}

/** A plan's anniversary: the day of the week (0 to 7) or of the month (1 to 31), by its frequency; the gateway judges which. */
export function anniversary(input: string): Checked<number> {
  const value = /^\s*\d+\s*$/.test(input) ? Number(input) : Number.NaN
  return Number.isInteger(value) && value <= 31 ? ok(value) : {problem: `must be a whole number from 0 to 31 (a day of the week, 1 Monday, or of the month), got "${input}"`, kind: 'malformed'}
}

/** A fee in the minor unit that may be nothing: 0 or more. */
export function fee(input: string): Checked<number> {
  const value = /^\s*\d+\s*$/.test(input) ? Number(input) : Number.NaN
  return Number.isSafeInteger(value) ? ok(value) : {problem: `must be a whole number of the minor unit, 0 or more, got "${input}"`, kind: 'malformed'}
}

/** A count of payments: 1 or more. */
export function count(input: string): Checked<number> {
  const value = /^\s*\d+\s*$/.test(input) ? Number(input) : Number.NaN
  return Number.isSafeInteger(value) && value >= 1 ? ok(value) : {problem: `must be a whole number, 1 or more, got "${input}"`, kind: 'malformed'}
}

/**
 * gw takes every amount in the minor unit (1000 is 10.00), a direct debit's too; the gateway takes
 * a debit's in dollars (`42.42`): converted here, in one place, and back for the table and report.
 */
export const dollarsOf = (cents: number): number => Math.round(cents) / 100
export const centsOf = (dollars: number): number => Math.round(dollars * 100)
