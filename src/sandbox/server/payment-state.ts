import * as z from 'zod'
import {DirectDebit} from '../../api/schemas/direct-debit.js'
import {PaymentPlan, PlanPayment} from '../../api/schemas/payment-plan.js'
import {date, dateTime, integer, nullableText, text} from './state-fields.js'

/** Payment plans and direct debits as the state file holds them: every field the local gateway answers with, required. */

const PaymentAttempt = z.object({
  id: text,
  reference: text,
  amount: integer,
  currency: text,
  successful: z.boolean(),
  message: text,
  response_code: text,
  authorization: nullableText,
  transaction_date: dateTime,
})

export const PaymentPlanState = PaymentPlan.extend({
  id: text,
  customer: text,
  amount: integer,
  currency: nullableText,
  setup_fee: integer,
  frequency: text,
  anniversary: integer,
  start_date: date,
  end_date: date.nullable(),
  total_count: integer.nullable(),
  total_amount: integer.nullable(),
  payment_method: text,
  reference: text,
  description: nullableText,
  status: text,
  status_reason: text,
  created_at: dateTime,
  failed_payment_fee: integer,
  retry_interval: integer,
  status_change_date: nullableText,
  payments: z.array(
    PlanPayment.extend({
      id: text,
      payment_plan: text,
      reference: text,
      amount: integer,
      currency: nullableText,
      scheduled_date: date,
      payment_method: text,
      status: text,
      result: nullableText,
      records: z.array(PaymentAttempt),
    }),
  ),
})

export const DirectDebitState = DirectDebit.extend({
  id: text,
  amount: z.number(),
  bsb: text,
  account_number: text,
  account_name: text,
  description: text,
  reference: text,
  date,
  process_date: date.nullable(),
  status: text,
  result: nullableText,
  created_at: dateTime,
})
