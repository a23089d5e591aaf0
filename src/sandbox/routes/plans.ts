import type {SandboxContext} from '../context.js'
import {SandboxError} from '../domain/errors.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'
import {blankMessage, isBlank, readFields} from '../domain/input.js'
import {pageOf} from '../domain/paging.js'
import {PLAN_INPUT, REFERENCE_TAKEN, addPlan, amountProblem, planView, subscriptionCount} from '../domain/plan.js'
import type {PlanRecord} from '../domain/records.js'

const NOT_FOUND = 'Record not found'

export function createPlan({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 201, response: planView(ctx, merchant, addPlan(ctx, merchant, input))}
}

/** Oldest first, one page at a time. */
export function listPlans({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('plans', merchant), query, (plan) => plan.created_at)
  return {status: 200, response: records.map((plan) => planView(ctx, merchant, plan)), fields}
}

export function getPlan(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const plan = ctx.store.get('plans', request.merchant, pathParam(request, 'key'), NOT_FOUND)
  return {status: 200, response: planView(ctx, request.merchant, plan)}
}

/**
 * Name and description change freely. Amount and reference, which the contract leaves out of the
 * update, may change only while no subscription uses the plan. Any refusal is a 501 carrying the
 * plan as it still is (contract §4, endpoint 9).
 */
export function updatePlan(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {merchant} = request
  const plan = ctx.store.get('plans', merchant, pathParam(request, 'key'), NOT_FOUND)
  const {name, amount, reference, description} = readFields(request.input, PLAN_INPUT)
  const inUse = subscriptionCount(ctx, merchant, plan) > 0
  // The plan's own reference is the one that finds it, however the state file keeps it (its id is not).
  const holder = reference === undefined ? undefined : ctx.store.find('plans', merchant, reference)
  const newReference = reference !== undefined && (reference === plan.id || holder?.found !== 'own' || holder.record.id !== plan.id)
  const errors = [
    name === undefined && description === undefined && amount === undefined && reference === undefined
      ? 'Give name or description to update'
      : undefined,
    name !== undefined && isBlank(name) ? blankMessage('name') : undefined,
    description !== undefined && isBlank(description) ? blankMessage('description') : undefined,
    amount !== undefined && amount !== plan.amount && inUse ? 'Amount cannot be changed once the plan has subscriptions' : undefined,
    amount === undefined ? undefined : amountProblem(amount),
    newReference && inUse ? 'Reference cannot be changed once the plan has subscriptions' : undefined,
    reference !== undefined && isBlank(reference) ? blankMessage('reference') : undefined,
    newReference && ctx.store.isTaken('plans', merchant, reference) ? REFERENCE_TAKEN : undefined,
  ].filter((error) => error !== undefined)
  if (errors.length > 0) throw new SandboxError(501, errors, planView(ctx, merchant, plan))
  const updated: PlanRecord = {
    ...plan,
    name: name ?? plan.name,
    description: description ?? plan.description,
    amount: amount ?? plan.amount,
    reference: reference ?? plan.reference,
  }
  ctx.store.save('plans', merchant, updated)
  return {status: 200, response: planView(ctx, merchant, updated)}
}
