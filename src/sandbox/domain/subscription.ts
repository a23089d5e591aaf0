import {FREQUENCIES, frequencyNamed} from '../../api/schemas/recurring-rules.js'
import {SCHEDULED} from './billing.js'
import {formatDateTime} from './clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest} from './errors.js'
import {blankMessage, fieldLabel, isBlank, readFields} from './input.js'
import {SUBSCRIPTION_FIELDS, echo, type SubscriptionRecord} from './records.js'
import {isCalendarDate} from '../../lib/days.js'
import type {Collection} from './collections.js'

const SUBSCRIPTION_INPUT = {
  customer: 'string',
  plan: 'string',
  frequency: 'string',
  start_date: 'string',
  reference: 'string',
  is_active: 'boolean',
} as const
const NOT_FOUND = 'Record not found'

function lookupProblem(ctx: SandboxContext, merchant: string, collection: Collection, field: string, key: string | undefined) {
  if (isBlank(key)) return blankMessage(field)
  const {found} = ctx.store.find(collection, merchant, key)
  return found === 'own' ? undefined : `${fieldLabel(field)} ${key} could not be found`
}

function startDateProblem(startDate: string | undefined, today: string) {
  if (isBlank(startDate)) return blankMessage('start_date')
  if (!isCalendarDate(startDate)) return 'Start date must be a date as YYYY-MM-DD'
  return startDate < today ? `Start date can't be before today (${today})` : undefined
}

/**
 * The customer and the plan are given by id or reference. The first billing date is the start
 * date. A refusal echoes the request with a null id and `is_active` false (contract §4, endpoint 14).
 */
export function addSubscription(ctx: SandboxContext, merchant: string, input: Record<string, unknown>): SubscriptionRecord {
  const fields = readFields(input, SUBSCRIPTION_INPUT)
  const {reference, start_date: startDate} = fields
  const frequency = isBlank(fields.frequency) ? undefined : frequencyNamed(fields.frequency)
  const errors = [
    lookupProblem(ctx, merchant, 'customers', 'customer', fields.customer),
    lookupProblem(ctx, merchant, 'plans', 'plan', fields.plan),
    isBlank(fields.frequency) ? blankMessage('frequency') : undefined,
    !isBlank(fields.frequency) && !frequency ? `Frequency is not included in the list (${FREQUENCIES.join(', ')})` : undefined,
    startDateProblem(startDate, ctx.clock.today()),
    isBlank(reference) ? blankMessage('reference') : undefined,
    !isBlank(reference) && ctx.store.isTaken('subscriptions', merchant, reference) ? 'Reference has already been taken' : undefined,
  ].filter((error) => error !== undefined)
  if (errors.length > 0 || !frequency || isBlank(reference) || isBlank(startDate)) {
    throw badRequest(errors, echo(SUBSCRIPTION_FIELDS, {...fields, is_active: false}))
  }
  const customer = ctx.store.get('customers', merchant, fields.customer as string, NOT_FOUND)
  const plan = ctx.store.get('plans', merchant, fields.plan as string, NOT_FOUND)
  const subscription: SubscriptionRecord = {
    id: ctx.newId(merchant, 'S'),
    customer: customer.id,
    plan: plan.id,
    frequency,
    start_date: startDate,
    end_date: null,
    next_billing_date: startDate,
    reference,
    last_status: SCHEDULED,
    is_active: fields.is_active ?? true,
    created_at: formatDateTime(ctx.clock.now()),
  }
  ctx.store.save('subscriptions', merchant, subscription)
  return subscription
}

