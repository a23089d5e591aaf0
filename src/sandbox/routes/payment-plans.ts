import type {SandboxContext} from '../context.js'
import {SandboxError, forbidden} from '../domain/errors.js'
import {pageOf} from '../domain/paging.js'
import {addPaymentPlan, cancelPlan, changeStatus} from '../domain/payment-plan.js'
import type {PaymentPlanRecord} from '../domain/payment-records.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'

/** An unknown plan: unrecorded, so worded as the gateway's other look-ups are (`Could not find Direct Entry`). */
const NOT_FOUND = 'Could not find Payment Plan'

/** By reference, as the gateway's recorded look-ups are, or by id: another merchant's is a 403 as for every record. */
function planOf(request: MerchantRequest, ctx: SandboxContext): PaymentPlanRecord {
  const found = ctx.store.find('payment_plans', request.merchant, pathParam(request, 'key'))
  if (found.found === 'foreign') throw forbidden()
  if (found.found === 'none') throw new SandboxError(404, [NOT_FOUND], {})
  return found.record
}

/** 201 in both dialects, as recorded. */
export function createPaymentPlan({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 201, response: addPaymentPlan(ctx, merchant, input)}
}

/** No recorded answer shows a list: the local gateway's is newest first, paged as its others. */
export function listPaymentPlans({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('payment_plans', merchant), query, (plan) => plan.created_at)
  return {status: 200, response: records, fields}
}

export function getPaymentPlan(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: planOf(request, ctx)}
}

/** `{"new_status": "Suspended"|"Active"}` (payment-plan.ts changeStatus). */
export function updatePaymentPlan(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: changeStatus(ctx, request.merchant, planOf(request, ctx), request.input)}
}

export function cancelPaymentPlan(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: cancelPlan(ctx, request.merchant, planOf(request, ctx))}
}
