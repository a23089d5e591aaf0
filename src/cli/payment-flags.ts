import {Flags} from '@oclif/core'
import * as bankRules from '../api/schemas/bank-rules.js'
import type {Checked} from '../api/schemas/rules.js'
import {UsageError} from '../errors.js'

/** Flags of payment plans and direct debits (gateway-beyond.md §9-10), checked by their rules (api/schemas/bank-rules.ts). */
function checked<T>(flag: string, result: Checked<T>, hint?: string): T {
  if ('problem' in result) throw new UsageError(`--${flag} ${result.problem}`, hint)
  return result.value
}

export const bsb = Flags.custom<string>({
  description: 'the bank-state-branch number, as 123-456',
  parse: async (input) => checked('bsb', bankRules.bsb(input), 'For example --bsb 123-456.'),
})

export const accountNumber = Flags.custom<string>({
  description: 'the bank account number, digits only',
  parse: async (input) => checked('account-number', bankRules.accountNumber(input)),
})

export const anniversary = Flags.custom<number>({
  description: 'which day payments fall on: for Weekly and Fortnightly the day of the week (1 Monday to 7 Sunday, 0 Sunday too), for Monthly and longer the day of the month',
  parse: async (input) => checked('anniversary', bankRules.anniversary(input), 'For example --anniversary 5: Fridays for a Weekly plan.'),
})

export const setupFee = Flags.custom<number>({
  description: 'a fee charged once, in the minor unit; default 0',
  parse: async (input) => checked('setup-fee', bankRules.fee(input)),
})

export const totalCount = Flags.custom<number>({
  description: 'how many payments in all (or --end-date)',
  parse: async (input) => checked('total-count', bankRules.count(input)),
})
