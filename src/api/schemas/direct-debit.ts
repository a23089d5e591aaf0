import * as z from 'zod'
import {lazily} from './lazy.js'
import {looseString, maybe} from './common.js'
import {requiredText} from './fields.js'

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

/**
 * A new debit (gateway-beyond.md §10): `amount` in dollars, as the gateway takes it (gw's
 * `--amount` is in cents, as everywhere in gw, and converted); `bsb` as `123-123`.
 */
export const DirectDebitCreate = lazily(() =>
  z.object({
    description: requiredText,
    amount: z.number().positive().refine((dollars) => Math.abs(Math.round(dollars * 100) - dollars * 100) < 1e-6, 'amount must be whole cents'),
    bsb: z.string().regex(/^\d{3}-\d{3}$/, 'bsb must be six digits as 123-456'),
    account_name: requiredText,
    account_number: z.string().regex(/^\d{1,20}$/, 'account_number must be digits only'),
    reference: requiredText.optional(),
  }),
)
export type DirectDebitCreate = z.infer<typeof DirectDebitCreate>
