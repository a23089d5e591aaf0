import {formatDate} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest} from '../domain/errors.js'
import {CUSTOMER_INPUT, addCustomer, fieldProblems, readAddress, readCard, scalarFields, customerView} from '../domain/customer.js'
import {newCardRecord} from '../domain/card.js'
import {readFields} from '../domain/input.js'
import type {CustomerRecord} from '../domain/records.js'
import {pageOf} from '../domain/paging.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'

const NOT_FOUND = 'Record not found'

export function createCustomer({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 201, response: customerView(ctx, merchant, addCustomer(ctx, merchant, input))}
}

/** gateway-notes.md: GET /v1.0/customers with offset, limit, from and to; newest first. */
export function listCustomers({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('customers', merchant), query, (customer) => customer.created_at)
  return {status: 200, response: records.map((customer) => customerView(ctx, merchant, customer)), fields}
}

export function getCustomer(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: customerView(ctx, request.merchant, ctx.store.get('customers', request.merchant, pathParam(request, 'key'), NOT_FOUND))}
}

/**
 * Any field may change; a new card is tokenized and replaces the old token. A refusal answers
 * with the record as the request would have left it, blank value included, and saves nothing.
 */
export function updateCustomer(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {merchant} = request
  const customer = ctx.store.get('customers', merchant, pathParam(request, 'key'), NOT_FOUND)
  const fields = readFields(request.input, CUSTOMER_INPUT)
  const given = Object.fromEntries(Object.entries(scalarFields(fields)).filter(([, value]) => value !== undefined))
  const changed: CustomerRecord = {...customer, ...given, address: readAddress(fields.address, customer.address)}
  const name = `${changed.first_name} ${changed.last_name}`.trim()
  const card = fields.card === undefined ? undefined : readCard(fields.card, name, formatDate(ctx.clock.now()))
  const errors = [...fieldProblems(ctx, merchant, changed, customer.id), ...(card?.errors ?? [])]
  if (errors.length > 0) throw badRequest(errors, customerView(ctx, merchant, changed))
  if (card?.details) {
    const tokenized = newCardRecord(card.details)
    ctx.store.save('cards', merchant, tokenized)
    changed.card_token = tokenized.token
  }
  ctx.store.save('customers', merchant, changed)
  return {status: 200, response: customerView(ctx, merchant, changed)}
}

/** A deleted customer cannot be billed: its subscriptions stop. */
export function deleteCustomer(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {merchant} = request
  const customer = ctx.store.get('customers', merchant, pathParam(request, 'key'), NOT_FOUND)
  for (const subscription of ctx.store.related('subscriptions', merchant, 'customer', customer.id)) {
    if (subscription.is_active) {
      ctx.store.save('subscriptions', merchant, {...subscription, is_active: false})
    }
  }
  ctx.store.remove('customers', merchant, customer)
  return {status: 200, response: customerView(ctx, merchant, customer)}
}
