import * as z from 'zod'
import {lazily} from './lazy.js'
import {looseString, maybe} from './common.js'

/**
 * A debit from a bank account (gateway-beyond.md §10). `amount` is in dollars, a float (`42.0`,
 * `42.42`), not cents. `metadata` was `{}` until May 2018 and null since; `result` stays null in
 * every recorded answer, so any value passes.
 */
export const DirectDebit = lazily(() =>
  z.looseObject({
    id: looseString,
    amount: maybe(z.number()),
    bsb: looseString,
    account_number: looseString,
    account_name: looseString,
    description: looseString,
    reference: looseString,
    date: looseString,
    process_date: looseString,
    status: looseString,
    result: z.unknown().optional(),
    metadata: z.unknown().optional(),
  }),
)
export type DirectDebit = z.infer<typeof DirectDebit>
