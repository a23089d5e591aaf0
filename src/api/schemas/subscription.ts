import * as z from 'zod'
import {lazily} from './lazy.js'
import {dateField, requiredText} from './fields.js'
import {looseBoolean, looseString, maybe} from './common.js'
import {FREQUENCIES} from './recurring-rules.js'

/** `customer` is an id in the contract; event payloads nest the customer object in its place. */
export const Subscription = lazily(() =>
  z.looseObject({
    id: looseString,
    customer: maybe(z.union([z.string(), z.looseObject({})])),
    plan: looseString,
    frequency: looseString,
    start_date: looseString,
    end_date: looseString,
    next_billing_date: looseString,
    reference: looseString,
    last_status: looseString,
    is_active: looseBoolean,
  }),
)
export type Subscription = z.infer<typeof Subscription>

export const SubscriptionCreate = lazily(() =>
  z.object({
    customer: requiredText,
    plan: requiredText,
    frequency: z.enum(FREQUENCIES),
    start_date: dateField,
    reference: requiredText,
    is_active: z.boolean(),
  }),
)
export type SubscriptionCreate = z.infer<typeof SubscriptionCreate>

export const SubscriptionUpdate = lazily(() => z.object({is_active: z.boolean()}))
export type SubscriptionUpdate = z.infer<typeof SubscriptionUpdate>
