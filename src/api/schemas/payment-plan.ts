import * as z from 'zod'
import {lazily} from './lazy.js'
import {looseInt, looseString, maybe} from './common.js'

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
