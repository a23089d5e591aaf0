import * as z from 'zod'
import {lazily} from './lazy.js'
import {amountField, requiredText} from './fields.js'
import {looseInt, looseString} from './common.js'

export const Plan = lazily(() =>
  z.looseObject({
    id: looseString,
    name: looseString,
    reference: looseString,
    description: looseString,
    amount: looseInt,
    currency: looseString,
    subscription_count: looseInt,
  }),
)
export type Plan = z.infer<typeof Plan>

export const PlanCreate = lazily(() =>
  z.object({
    name: requiredText,
    amount: amountField,
    reference: requiredText,
    description: requiredText,
  }),
)
export type PlanCreate = z.infer<typeof PlanCreate>

/** Only name and description can change (contract §4 row 9). */
export const PlanUpdate = lazily(() =>
  z
    .object({
      name: requiredText.optional(),
      description: requiredText.optional(),
    })
    .refine((body) => body.name !== undefined || body.description !== undefined, 'give name or description'),
)
export type PlanUpdate = z.infer<typeof PlanUpdate>
