import {FREQUENCIES, type Frequency, frequencyNamed} from '../../api/schemas/recurring-rules.js'
import type {SandboxContext} from '../context.js'
import {CREDIT_CARD, DEFAULT_FAILED_PAYMENT_FEE, DEFAULT_RETRY_INTERVAL, MAX_PAYMENTS, PAYMENT_STATUS, PLAN_STATUS, SCHEDULE_WINDOW, STATUS_REASON, paymentNumber} from './choices.js'
import {formatDateTime} from './clock.js'
import {currencyNotPermitted, isPermittedCurrency} from './currency.js'
import {SandboxError} from './errors.js'
import {blankMessage, isBlank, readFields} from './input.js'
import type {PaymentPlanRecord, PlanPaymentRecord} from './payment-records.js'
import {anniversaryProblem, nextPaymentDate, paymentDates} from './plan-schedule.js'
import {isCalendarDate} from '../../lib/days.js'

const PLAN_INPUT = {
  customer: 'string',
  payment_method: 'string',
  reference: 'string',
  setup_fee: 'integer',
  amount: 'integer',
  currency: 'string',
  start_date: 'string',
  end_date: 'string',
  frequency: 'string',
  anniversary: 'integer',
  total_count: 'integer',
  total_amount: 'integer',
  description: 'string',
  failed_payment_fee: 'integer',
  retry_interval: 'integer',
} as const

/** Refusals of a plan's fields: 422 with an empty record, as the gateway refuses a direct debit's (the plans' own are unrecorded). */
const unprocessable = (errors: string[]) => new SandboxError(422, errors, {})

/** Fields read as their kinds; one that cannot be is refused with the rest of the plan's problems. */
function readOr422<S extends Parameters<typeof readFields>[1]>(input: Record<string, unknown>, spec: S) {
  try {
    return readFields(input, spec)
  } catch (error) {
    if (error instanceof SandboxError) throw unprocessable(error.errors)
    throw error
  }
}

const frequencyOf = (plan: PaymentPlanRecord): Frequency => {
  const frequency = frequencyNamed(plan.frequency)
  if (!frequency) throw new Error(`payment plan ${plan.id} has an unknown frequency ${plan.frequency}`)
  return frequency
}

const isToCome = (payment: PlanPaymentRecord) => payment.status === PAYMENT_STATUS.scheduled || payment.status === PAYMENT_STATUS.retrying

/**
 * The plan with its schedule filled to the window: payments to come up to SCHEDULE_WINDOW, the
 * first new one on or after `from`, none past its count or its end date. Each new payment has a
 * new id and the next number.
 */
export function scheduled(ctx: SandboxContext, merchant: string, plan: PaymentPlanRecord, from: string): PaymentPlanRecord {
  const toCome = plan.payments.filter(isToCome).length
  const left = Math.min(SCHEDULE_WINDOW - toCome, plan.total_count === null ? Infinity : plan.total_count - plan.payments.length)
  const dates = left > 0 ? paymentDates(frequencyOf(plan), plan.anniversary, from, left, plan.end_date) : []
  const added = dates.map((date, index): PlanPaymentRecord => ({
    id: ctx.newId(merchant, 'PT'),
    payment_plan: plan.id,
    reference: `${plan.reference}-${paymentNumber(plan.payments.length + index + 1)}`,
    amount: plan.amount,
    currency: plan.currency,
    scheduled_date: date,
    payment_method: CREDIT_CARD,
    status: PAYMENT_STATUS.scheduled,
    result: null,
    records: [],
  }))
  return added.length === 0 ? plan : {...plan, payments: [...plan.payments, ...added]}
}

/** After a payment is made: the schedule filled again, from the payment day after its latest. */
export function toppedUp(ctx: SandboxContext, merchant: string, plan: PaymentPlanRecord): PaymentPlanRecord {
  const latest = plan.payments.at(-1)
  return latest === undefined ? plan : scheduled(ctx, merchant, plan, nextPaymentDate(frequencyOf(plan), plan.anniversary, latest.scheduled_date))
}

/** The plan's schedule emptied: payments to come are dropped, one waiting for a retry ends Declined, those made stay. */
function stopped(plan: PaymentPlanRecord, status: string): PaymentPlanRecord {
  const payments = plan.payments
    .filter((payment) => payment.status !== PAYMENT_STATUS.scheduled)
    .map((payment) => (payment.status === PAYMENT_STATUS.retrying ? {...payment, status: PAYMENT_STATUS.declined} : payment))
  return {...plan, status, status_reason: STATUS_REASON.other, payments}
}

const laterOf = (a: string, b: string) => (a > b ? a : b)

/**
 * `{"new_status": "Suspended"|"Active"}`: a suspended plan's schedule is emptied; made Active
 * again it has a new one from today (or its start date), new ids, numbered on from the payments
 * it has made. The rest of the body is ignored, as the gateway ignores what the Ruby library
 * sends with it. A plan already in that status is answered as it is; a cancelled one is refused.
 */
export function changeStatus(ctx: SandboxContext, merchant: string, plan: PaymentPlanRecord, input: Record<string, unknown>): PaymentPlanRecord {
  const {new_status: wanted} = readOr422(input, {new_status: 'string'})
  if (isBlank(wanted)) throw unprocessable([blankMessage('new_status')])
  const status = [PLAN_STATUS.active, PLAN_STATUS.suspended].find((name) => name.toLowerCase() === wanted.trim().toLowerCase())
  if (status === undefined) throw unprocessable([`New status is not included in the list (${PLAN_STATUS.active}, ${PLAN_STATUS.suspended})`])
  if (plan.status === PLAN_STATUS.cancelled) throw new SandboxError(422, [`Payment plan ${plan.reference} is Cancelled: it can be neither Active nor Suspended again`], plan)
  if (plan.status === status) return plan
  const changed =
    status === PLAN_STATUS.suspended
      ? stopped(plan, status)
      : scheduled(ctx, merchant, {...plan, status, status_reason: STATUS_REASON.none}, laterOf(plan.start_date, ctx.clock.today()))
  ctx.store.save('payment_plans', merchant, changed)
  return changed
}

/** Cancelled, its schedule emptied; cancelling a cancelled plan answers it as it is. */
export function cancelPlan(ctx: SandboxContext, merchant: string, plan: PaymentPlanRecord): PaymentPlanRecord {
  if (plan.status === PLAN_STATUS.cancelled) return plan
  const cancelled = stopped(plan, PLAN_STATUS.cancelled)
  ctx.store.save('payment_plans', merchant, cancelled)
  return cancelled
}

/** The customer, by id or reference: the gateway's only recorded refusal of a plan, 404 with the key as sent (`Customer  could not be found` when blank). */
function customerOf(ctx: SandboxContext, merchant: string, key: string | undefined) {
  const found = isBlank(key) ? undefined : ctx.store.find('customers', merchant, key)
  if (found?.found !== 'own') throw new SandboxError(404, [`Customer ${key ?? ''} could not be found`], {})
  return found.record
}

/** `total_amount`, sent as the Ruby library sends it, is the count times the amount: anything else is a mistake to refuse. */
function totalAmountProblem(total: number | undefined, amount: number | undefined, count: number | undefined): string | undefined {
  if (total === undefined || amount === undefined || amount <= 0 || (count !== undefined && count <= 0)) return undefined
  if (count === undefined) return 'Total amount needs a total count'
  return total === count * amount ? undefined : `Total amount must be the amount times the total count (${count * amount})`
}

/** A new plan and its schedule, from the day it is made or its start date, whichever is later. */
export function addPaymentPlan(ctx: SandboxContext, merchant: string, input: Record<string, unknown>): PaymentPlanRecord {
  const fields = readOr422(input, PLAN_INPUT)
  const customer = customerOf(ctx, merchant, fields.customer)
  const {reference, amount, start_date: startDate, end_date: endDate, anniversary, total_count: count} = fields
  const frequency = isBlank(fields.frequency) ? undefined : frequencyNamed(fields.frequency)
  const currency = isBlank(fields.currency) ? null : fields.currency.trim().toUpperCase()
  const today = ctx.clock.today()
  const errors = [
    fields.payment_method !== undefined && fields.payment_method.trim().toLowerCase() !== CREDIT_CARD.toLowerCase() ? `Payment method is not included in the list (${CREDIT_CARD})` : undefined,
    isBlank(reference) ? blankMessage('reference') : undefined,
    !isBlank(reference) && ctx.store.isTaken('payment_plans', merchant, reference) ? 'Reference has already been taken' : undefined,
    amount === undefined ? blankMessage('amount') : amount <= 0 ? 'Amount must be greater than 0' : undefined,
    currency !== null && !isPermittedCurrency(currency) ? currencyNotPermitted(currency) : undefined,
    (fields.setup_fee ?? 0) < 0 ? 'Setup fee must be greater than or equal to 0' : undefined,
    isBlank(startDate) ? blankMessage('start_date') : !isCalendarDate(startDate) ? 'Start date must be a date as YYYY-MM-DD' : undefined,
    isBlank(fields.frequency) ? blankMessage('frequency') : !frequency ? `Frequency is not included in the list (${FREQUENCIES.join(', ')})` : undefined,
    anniversary === undefined ? blankMessage('anniversary') : frequency && anniversaryProblem(frequency, anniversary),
    count === undefined && isBlank(endDate) ? 'Total count or end date must be given: how many payments, or the day they end' : undefined,
    count !== undefined && count <= 0 ? 'Total count must be greater than 0' : undefined,
    count !== undefined && count > MAX_PAYMENTS ? `Total count must be less than or equal to ${MAX_PAYMENTS}` : undefined,
    totalAmountProblem(fields.total_amount, amount, count),
    !isBlank(endDate) && !isCalendarDate(endDate) ? 'End date must be a date as YYYY-MM-DD' : undefined,
    (fields.failed_payment_fee ?? 0) < 0 ? 'Failed payment fee must be greater than or equal to 0' : undefined,
    (fields.retry_interval ?? 1) < 1 ? 'Retry interval must be greater than 0' : undefined,
  ].filter((error) => error !== undefined)
  if (errors.length > 0 || isBlank(reference) || amount === undefined || isBlank(startDate) || !frequency || anniversary === undefined) throw unprocessable(errors)
  const plan: PaymentPlanRecord = {
    id: ctx.newId(merchant, 'PP'),
    customer: customer.id,
    amount,
    currency,
    setup_fee: fields.setup_fee ?? 0,
    frequency,
    anniversary,
    start_date: startDate,
    end_date: isBlank(endDate) ? null : endDate,
    total_count: count ?? null,
    total_amount: count === undefined ? null : count * amount,
    payment_method: CREDIT_CARD,
    reference,
    description: isBlank(fields.description) ? null : fields.description,
    status: PLAN_STATUS.active,
    status_reason: STATUS_REASON.none,
    created_at: formatDateTime(ctx.clock.now()),
    failed_payment_fee: fields.failed_payment_fee ?? DEFAULT_FAILED_PAYMENT_FEE,
    retry_interval: fields.retry_interval ?? DEFAULT_RETRY_INTERVAL,
    status_change_date: null,
    payments: [],
  }
  const made = scheduled(ctx, merchant, plan, laterOf(startDate, today))
  if (made.payments.length === 0) throw unprocessable([`End date ${plan.end_date} is before the first payment day`])
  ctx.store.save('payment_plans', merchant, made)
  return made
}
