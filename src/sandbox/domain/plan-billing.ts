import type {PaymentPlanEvent} from '../../api/schemas/recurring-rules.js'
import type {SandboxContext} from '../context.js'
import {chargeCard} from './charges.js'
import {PAYMENT_RETRIES, PAYMENT_STATUS, PLAN_STATUS} from './choices.js'
import {DEFAULT_CURRENCY} from './currency.js'
import {envelope} from './envelope.js'
import type {Mode} from './mode.js'
import type {PaymentAttempt, PaymentPlanRecord, PlanPaymentRecord} from './payment-records.js'
import {toppedUp} from './payment-plan.js'
import type {PurchaseRecord} from './records.js'
import {shiftDays} from './schedule.js'

/**
 * Payment plans on the billing clock (billing.ts runs this at the end of each day, after the
 * subscriptions): each payment that falls due charges the customer's card, the card's test rules
 * deciding, and a web hook event reports it.
 */

/** What a day's payments add to the clock's tally: card charges, as subscriptions' count, and events. */
interface Tally {
  events: number
  charges_approved: number
  charges_declined: number
}

/** A scheduled payment on its day; a declined one `retry_interval` days after each attempt. */
export function isDue(payment: PlanPaymentRecord, retryInterval: number, day: string): boolean {
  if (payment.status === PAYMENT_STATUS.scheduled) return payment.scheduled_date <= day
  if (payment.status === PAYMENT_STATUS.retrying) return shiftDays(payment.scheduled_date, retryInterval * payment.records.length) <= day
  return false
}

const attemptOf = (purchase: PurchaseRecord): PaymentAttempt => ({
  id: purchase.id,
  reference: purchase.reference,
  amount: purchase.amount,
  currency: purchase.currency,
  successful: purchase.successful,
  message: purchase.message,
  response_code: purchase.response_code,
  authorization: purchase.authorization,
  transaction_date: purchase.transaction_date,
})

/** The payment after its status, result and attempts changed by a purchase's outcome. */
export function afterAttempt(payment: PlanPaymentRecord, purchase: PurchaseRecord): PlanPaymentRecord {
  const records = [...payment.records, attemptOf(purchase)]
  const status = purchase.successful ? PAYMENT_STATUS.completed : records.length > PAYMENT_RETRIES ? PAYMENT_STATUS.declined : PAYMENT_STATUS.retrying
  return {...payment, status, result: purchase.message, records}
}

interface Made {
  payment: PlanPaymentRecord
  event: PaymentPlanEvent
  purchase?: PurchaseRecord
}

/** One attempt: a charge of the customer's card, or an error when the customer (deleted) or its card is gone. */
function attempt(ctx: SandboxContext, merchant: string, plan: PaymentPlanRecord, payment: PlanPaymentRecord): Made {
  const customer = ctx.store.find('customers', merchant, plan.customer)
  const card = customer.found === 'own' ? ctx.store.find('cards', merchant, customer.record.card_token) : undefined
  if (customer.found !== 'own' || card?.found !== 'own') {
    const result = customer.found === 'own' ? `Card of customer ${customer.record.reference} could not be found` : `Customer ${plan.customer} could not be found`
    return {payment: {...payment, status: PAYMENT_STATUS.error, result}, event: 'payment_plan_payment:error'}
  }
  const purchase = chargeCard(ctx, merchant, {
    card: card.record,
    amount: payment.amount,
    reference: payment.reference,
    currency: payment.currency ?? DEFAULT_CURRENCY,
    source: 'Recurring',
  })
  return {payment: afterAttempt(payment, purchase), event: purchase.successful ? 'payment_plan_payment:completed' : 'payment_plan_payment:declined', purchase}
}

/** The plan as an event names it: without its payments, the one the event is about beside it. */
export function planSummary(plan: PaymentPlanRecord): Omit<PaymentPlanRecord, 'payments'> {
  const {payments: _payments, ...summary} = plan
  return summary
}

/** A `payment_plan_payment:*` element: the plan, the payment after the attempt, and the purchase answer (null when none was made). */
export const planPaymentPayload = (plan: PaymentPlanRecord, payment: PlanPaymentRecord, purchase: PurchaseRecord | undefined, mode: Mode) => ({
  payment_plan: planSummary(plan),
  payment,
  response: purchase === undefined ? null : envelope(mode, true, purchase, []),
})

/** One merchant's plans at the end of `day`: each Active plan's due payments, in order, then its schedule filled again. */
export function runPlanPayments(ctx: SandboxContext, merchant: string, day: string, tally: Tally): void {
  for (const plan of ctx.store.list('payment_plans', merchant)) {
    if (plan.status !== PLAN_STATUS.active || !plan.payments.some((payment) => isDue(payment, plan.retry_interval, day))) continue
    const made: Made[] = []
    const payments = plan.payments.map((payment) => {
      if (!isDue(payment, plan.retry_interval, day)) return payment
      const outcome = attempt(ctx, merchant, plan, payment)
      made.push(outcome)
      return outcome.payment
    })
    const saved = toppedUp(ctx, merchant, {...plan, payments})
    ctx.store.save('payment_plans', merchant, saved)
    for (const {payment, event, purchase} of made) {
      ctx.deliveries.publish(merchant, event, [planPaymentPayload(saved, payment, purchase, ctx.mode)])
      tally.events++
      if (purchase?.successful === true) tally.charges_approved++
      else if (purchase) tally.charges_declined++
    }
  }
}
