import {formatDateTime} from './clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest} from './errors.js'
import {blankMessage, isBlank, readFields} from './input.js'
import {DEFAULT_CURRENCY} from './currency.js'
import {PLAN_FIELDS, echo, type PlanRecord} from './records.js'

export const PLAN_INPUT = {name: 'string', amount: 'integer', reference: 'string', description: 'string'} as const
export const REFERENCE_TAKEN = 'Reference has already been taken'

export const amountProblem = (amount: number) => (amount <= 0 ? 'Amount must be greater than 0' : undefined)

export const subscriptionCount = (ctx: SandboxContext, merchant: string, plan: PlanRecord) =>
  ctx.store.countRelated('subscriptions', merchant, 'plan', plan.id)

/** A plan as every answer shows it, with its subscription count (contract §2.5). */
export function planView(ctx: SandboxContext, merchant: string, plan: PlanRecord) {
  const {id, name, reference, description, amount, currency, created_at} = plan
  return {id, name, reference, description, amount, currency, subscription_count: subscriptionCount(ctx, merchant, plan), created_at}
}

/** A new plan, from the fields of a request or of a sample; refused as the gateway refuses it. */
export function addPlan(ctx: SandboxContext, merchant: string, input: Record<string, unknown>): PlanRecord {
  const {name, amount, reference, description} = readFields(input, PLAN_INPUT)
  const errors = [
    isBlank(name) ? blankMessage('name') : undefined,
    amount === undefined ? blankMessage('amount') : amountProblem(amount),
    isBlank(reference) ? blankMessage('reference') : undefined,
    !isBlank(reference) && ctx.store.isTaken('plans', merchant, reference) ? REFERENCE_TAKEN : undefined,
    isBlank(description) ? blankMessage('description') : undefined,
  ].filter((error) => error !== undefined)
  if (errors.length > 0 || isBlank(name) || amount === undefined || isBlank(reference) || isBlank(description)) {
    throw badRequest(errors, echo(PLAN_FIELDS, {name, amount, reference, description}))
  }
  const plan: PlanRecord = {
    id: ctx.newId(merchant, 'PL'),
    name,
    reference,
    description,
    amount,
    currency: DEFAULT_CURRENCY,
    created_at: formatDateTime(ctx.clock.now()),
  }
  ctx.store.save('plans', merchant, plan)
  return plan
}

