import {resumed} from '../domain/billing.js'
import type {SandboxContext} from '../context.js'
import {badRequest} from '../domain/errors.js'
import {blankMessage, readFields} from '../domain/input.js'
import {addSubscription} from '../domain/subscription.js'
import {pageOf} from '../domain/paging.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'

const NOT_FOUND = 'Record not found'

export function createSubscription({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 201, response: addSubscription(ctx, merchant, input)}
}

/** gateway-notes.md: GET /v1.0/subscriptions.json with offset, limit, from and to; newest first. */
export function listSubscriptions({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('subscriptions', merchant), query, (subscription) => subscription.created_at)
  return {status: 200, response: records, fields}
}

/** By reference (contract §4, endpoint 15), or by id. */
export function getSubscription(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: ctx.store.get('subscriptions', request.merchant, pathParam(request, 'key'), NOT_FOUND)}
}

/** Stops or resumes; a resumed subscription is not billed for the days it was stopped. */
export function updateSubscription(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {merchant} = request
  const subscription = ctx.store.get('subscriptions', merchant, pathParam(request, 'key'), NOT_FOUND)
  const {is_active: active} = readFields(request.input, {is_active: 'boolean'})
  if (active === undefined) throw badRequest([blankMessage('is_active')], subscription)
  const updated = !active
    ? {...subscription, is_active: false}
    : subscription.is_active
      ? subscription
      : resumed(subscription, ctx.clock.today())
  ctx.store.save('subscriptions', merchant, updated)
  return {status: 200, response: updated}
}
