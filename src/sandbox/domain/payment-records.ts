/**
 * The records of payment plans and direct debits (gateway-beyond.md §9, §10), field for field in
 * the order the gateway's recorded answers have them.
 */

/** One attempt at a plan's payment: the purchase it made, as a few of its fields. */
export interface PaymentAttempt {
  id: string
  reference: string
  amount: number
  currency: string
  successful: boolean
  message: string
  response_code: string
  authorization: string | null
  transaction_date: string
}

export interface PlanPaymentRecord {
  id: string
  /** The plan's id. */
  payment_plan: string
  /** The plan's reference, `-`, and the payment's number from 0001. */
  reference: string
  amount: number
  /** As the plan was made: null when no currency was sent. */
  currency: string | null
  scheduled_date: string
  payment_method: string
  status: string
  /** The bank's words on the latest attempt; null until one is made. */
  result: string | null
  records: PaymentAttempt[]
}

export interface PaymentPlanRecord {
  id: string
  /** The customer's id. */
  customer: string
  amount: number
  currency: string | null
  setup_fee: number
  frequency: string
  anniversary: number
  start_date: string
  end_date: string | null
  total_count: number | null
  total_amount: number | null
  payment_method: string
  reference: string
  description: string | null
  status: string
  status_reason: string
  created_at: string
  failed_payment_fee: number
  retry_interval: number
  status_change_date: string | null
  /** The payments made, then those to come. */
  payments: PlanPaymentRecord[]
}

export interface DirectDebitRecord {
  id: string
  /** Dollars, as the gateway takes and answers them. */
  amount: number
  bsb: string
  account_number: string
  account_name: string
  description: string
  reference: string
  /** The day it goes to the bank. */
  date: string
  /** The day the bank processed it; null until then. */
  process_date: string | null
  status: string
  result: string | null
  /** When it was made: kept for lists (newest first, from and to), never part of an answer (directDebitView). */
  created_at: string
}
