import {capture, extend, increment, purchaseById, voidPurchase} from '../domain/authorization.js'
import type {SandboxContext} from '../context.js'
import {badRequest} from '../domain/errors.js'
import {blankMessage, readFields} from '../domain/input.js'
import type {PurchaseRecord} from '../domain/records.js'
import {sentDay} from '../../lib/days.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'
import {voidTarget} from './void-target.js'

/** What may follow a purchase (gateway-beyond.md §1-5, §8): capture, increment, extend, void, and the settlement look-up. */

/** An amount to capture, or a new total, is a whole number above 0. */
function positiveAmount(amount: number | undefined): number {
  if (amount === undefined) throw badRequest([blankMessage('amount')])
  if (amount <= 0) throw badRequest(['Amount must be greater than 0'])
  return amount
}

/** `POST /v1.0/purchases/{id}/capture` `{"amount": N}`: N of the authorised amount, or all of it. Other fields (`currency`, `extra`) are taken and ignored. */
export function capturePurchase(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {amount} = readFields(request.input, {amount: 'integer'})
  const purchase = purchaseById(ctx, request.merchant, pathParam(request, 'key'))
  return {status: 200, response: capture(ctx, request.merchant, purchase, positiveAmount(amount))}
}

/** `PUT /v1.0/purchases/{id}` with `{"amount": NEW_TOTAL}` raises an authorization; with `{"extend": true}` extends it. */
export function updatePurchase(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {amount, extend: extending} = readFields(request.input, {amount: 'integer', extend: 'boolean'})
  const purchase = purchaseById(ctx, request.merchant, pathParam(request, 'key'))
  if (amount !== undefined && extending === true) throw badRequest(['Give amount or extend, not both'])
  if (extending === true) return {status: 200, response: extend(purchase)}
  if (amount === undefined) throw badRequest(['Give amount (the new total) or extend'])
  return {status: 200, response: increment(ctx, request.merchant, purchase, positiveAmount(amount))}
}

/** `POST /v1.0/purchases/void`, the purchase's id in the body or the query string. */
export function voidPurchaseRoute(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const purchase = purchaseById(ctx, request.merchant, voidTarget(request))
  return {status: 200, response: voidPurchase(ctx, request.merchant, purchase)}
}

/** `2017/06/22` as the recordings send it, or `2017-06-22`: the day as `YYYY-MM-DD`. */
function settlementDay(query: Record<string, string>, name: 'from' | 'to'): {day?: string; error?: string} {
  const text = query[name]
  if (text === undefined || text.trim() === '') return {error: blankMessage(name)}
  const day = sentDay(text.trim())
  return day ? {day} : {error: `${name} must be a date such as 2026/11/01`}
}

/**
 * `GET /v1.0/purchases/settlement?from=YYYY/MM/DD&to=YYYY/MM/DD`: the purchases whose settlement
 * date falls in the span, both days included (declined and voided ones too, never an uncaptured
 * authorization), newest first, all in one page, as recorded (gateway-beyond.md §8). Both days
 * are required, as the Ruby library requires them. A purchase settles on or after the day it is
 * made, so every one is read.
 */
export function listSettlement({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const [from, to] = [settlementDay(query, 'from'), settlementDay(query, 'to')]
  const errors = [from.error, to.error].filter((error) => error !== undefined)
  if (from.day === undefined || to.day === undefined || errors.length > 0) throw badRequest(errors)
  const all = ctx.store.ordered('purchases', merchant)
  const settled: PurchaseRecord[] = []
  for (let index = all.length - 1; index >= 0; index--) {
    const purchase = all.at(index) as PurchaseRecord
    if (purchase.settlement_date !== null && purchase.settlement_date >= from.day && purchase.settlement_date <= to.day) settled.push(purchase)
  }
  return {status: 200, response: settled, fields: {records: settled.length, total_records: settled.length, pages: 1, current_page: 1}}
}
