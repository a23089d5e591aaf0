import type {SandboxContext} from '../context.js'
import {chargeCard} from '../domain/charges.js'
import {PAYMENT_STATUS, PLAN_STATUS} from '../domain/choices.js'
import {DEFAULT_CURRENCY} from '../domain/currency.js'
import {LOWER_ALPHANUMERIC, randomCode} from '../domain/ids.js'
import {addPaymentPlan} from '../domain/payment-plan.js'
import type {PaymentPlanRecord, PlanPaymentRecord} from '../domain/payment-records.js'
import {afterAttempt, planPaymentPayload} from '../domain/plan-billing.js'
import type {PaymentPlanEvent} from '../../api/schemas/recurring-rules.js'
import {outcomeForCode} from '../../api/schemas/test-outcomes.js'
import {SAMPLE_METADATA, sampleCustomerId} from './samples.js'

/** The bank's answer in each event's sample: approved, and declined for insufficient funds. */
const SAMPLE_CODES = {'payment_plan_payment:completed': '00', 'payment_plan_payment:declined': '51'} as const

const isScheduled = (payment: PlanPaymentRecord) => payment.status === PAYMENT_STATUS.scheduled

/** The merchant's first Active plan with a payment to come whose customer it holds, else a new weekly plan of a sample customer. */
function samplePlan(ctx: SandboxContext, merchant: string): PaymentPlanRecord {
  const plans = ctx.store.ordered('payment_plans', merchant)
  for (let index = 0; index < plans.length; index++) {
    const plan = plans.at(index)!
    if (plan.status === PLAN_STATUS.active && plan.payments.some(isScheduled) && ctx.store.find('customers', merchant, plan.customer).found === 'own') return plan
  }
  const suffix = randomCode(6, LOWER_ALPHANUMERIC)
  return addPaymentPlan(ctx, merchant, {
    customer: sampleCustomerId(ctx, merchant, suffix),
    reference: `sample-payment-plan-${suffix}`,
    amount: 1000,
    start_date: ctx.clock.today(),
    frequency: 'Weekly',
    anniversary: 5,
    total_count: 4,
    description: 'Made by gw sandbox trigger',
  })
}

/**
 * A sample of a payment plan event: the plan's next payment as the event would find it. The
 * completed and declined samples charge its customer's card (a real, fetchable purchase); the
 * plan itself is left as it is.
 */
export function samplePlanPayload(ctx: SandboxContext, merchant: string, event: PaymentPlanEvent): unknown[] {
  const plan = samplePlan(ctx, merchant)
  const payment = plan.payments.find(isScheduled)!
  if (event === 'payment_plan_payment:error') {
    return [planPaymentPayload(plan, {...payment, status: PAYMENT_STATUS.error, result: `Customer ${plan.customer} could not be found`}, undefined, ctx.mode)]
  }
  const customer = ctx.store.get('customers', merchant, plan.customer, 'Record not found')
  const purchase = chargeCard(ctx, merchant, {
    card: ctx.store.get('cards', merchant, customer.card_token, 'Record not found'),
    amount: payment.amount,
    reference: `${payment.reference}-sample-${randomCode(6, LOWER_ALPHANUMERIC)}`,
    currency: payment.currency ?? DEFAULT_CURRENCY,
    source: 'Recurring',
    outcome: outcomeForCode(SAMPLE_CODES[event]),
    metadata: SAMPLE_METADATA,
  })
  return [planPaymentPayload(plan, afterAttempt(payment, purchase), purchase, ctx.mode)]
}
