import * as z from 'zod'
import {lazily} from './lazy.js'
import {looseInt, looseString, maybe} from './common.js'
import {amountField, currencyField, dateField, requiredText} from './fields.js'
import {FREQUENCIES} from './recurring-rules.js'

/**
 * Payment plans, the gateway's newer recurring system (gateway-beyond.md §9), as its recorded
 * answers show them. What happens to a payment once it falls due is unknown there: `result` and
 * the elements of `records` take any value.
 */
export const PlanPayment = lazily(() =>
  z.looseObject({
    id: looseString,
    payment_plan: looseString,
    reference: looseString,
    amount: looseInt,
    /** null when the plan was made without one (2017-2019 builds), `AUD` then (2022). */
    currency: looseString,
    scheduled_date: looseString,
    payment_method: looseString,
    status: looseString,
    result: z.unknown().optional(),
    records: maybe(z.array(z.unknown())),
  }),
)
export type PlanPayment = z.infer<typeof PlanPayment>

export const PaymentPlan = lazily(() =>
  z.looseObject({
    id: looseString,
    customer: looseString,
    amount: looseInt,
    currency: looseString,
    setup_fee: looseInt,
    frequency: looseString,
    anniversary: looseInt,
    start_date: looseString,
    end_date: looseString,
    total_count: looseInt,
    total_amount: looseInt,
    payment_method: looseString,
    reference: looseString,
    description: looseString,
    status: looseString,
    /** A word, `None` or `Other` in every recorded answer. */
    status_reason: looseString,
    created_at: looseString,
    failed_payment_fee: looseInt,
    retry_interval: looseInt,
    status_change_date: looseString,
    payments: maybe(z.array(PlanPayment)),
  }),
)
export type PaymentPlan = z.infer<typeof PaymentPlan>

/**
 * A new plan, as the Ruby library sends it (gateway-beyond.md §9): a count of payments (with
 * their total) or an end date, or both. `payment_method` is the one method recorded.
 */
export const PaymentPlanCreate = lazily(() =>
  z.object({
    customer: requiredText,
    payment_method: z.literal('Credit Card'),
    reference: requiredText,
    amount: amountField,
    currency: currencyField.optional(),
    setup_fee: z.number().int().nonnegative(),
    start_date: dateField,
    frequency: z.enum(FREQUENCIES),
    anniversary: z.number().int().min(0).max(31),
    total_count: z.number().int().positive().optional(),
    total_amount: z.number().int().positive().optional(),
    end_date: dateField.optional(),
    description: requiredText.optional(),
  }),
)
export type PaymentPlanCreate = z.infer<typeof PaymentPlanCreate>

/** Suspend or activate: the gateway reads `new_status` and ignores the rest (gateway-beyond.md §9). */
export const PaymentPlanStatus = lazily(() => z.object({new_status: z.enum(['Active', 'Suspended'])}))
export type PaymentPlanStatus = z.infer<typeof PaymentPlanStatus>
