import {addDays, formatDate, formatDateTime} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest, forbidden, refusedWith200} from '../domain/errors.js'
import {pageOf} from '../domain/paging.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'
import {newAuthorization} from '../domain/ids.js'
import {blankMessage, isBlank, readFields} from '../domain/input.js'
import {REFUND_FIELDS, echo, refundView, rrnOf, type PurchaseRecord, type RefundRecord} from '../domain/records.js'

const REFUND_INPUT = {transaction_id: 'string', amount: 'integer', reference: 'string'} as const

/**
 * A refused refund shows the purchase's card and nulls for the rest (contract §4, endpoint 4), but
 * for `successful`: a boolean in the record (§2.4), which the vendor's Ruby library reads as one.
 */
const refusedBody = (purchase: PurchaseRecord | undefined) =>
  echo(REFUND_FIELDS, {
    successful: false,
    card_holder: purchase?.card_holder,
    card_number: purchase?.card_number,
    card_expiry: purchase?.card_expiry,
    card_type: purchase?.card_type,
  })

/** `transaction_id` takes the purchase's id or its reference. Partial refunds are allowed up to the amount paid. */
export function createRefund({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {transaction_id: transactionId, amount, reference} = readFields(input, REFUND_INPUT)
  const lookup = isBlank(transactionId) ? undefined : ctx.store.find('purchases', merchant, transactionId)
  if (lookup?.found === 'foreign') throw forbidden()
  const purchase = lookup?.found === 'own' ? lookup.record : undefined
  const refused = refusedBody(purchase)

  if (isBlank(transactionId) || amount === undefined || amount <= 0 || isBlank(reference)) {
    const errors = [
      isBlank(transactionId) ? blankMessage('transaction_id') : undefined,
      amount === undefined ? blankMessage('amount') : undefined,
      amount !== undefined && amount <= 0 ? 'Amount must be greater than 0' : undefined,
      isBlank(reference) ? blankMessage('reference') : undefined,
    ].filter((error) => error !== undefined)
    throw badRequest(errors, refused)
  }
  if (!purchase) throw refusedWith200('Original transaction could not be found', refused)
  if (!purchase.successful) throw badRequest(['Original transaction was not successful'], refused)
  if (ctx.store.isTaken('refunds', merchant, reference)) throw badRequest(['Reference has already been taken'], refused)
  const refunded = ctx.store.refundedOf(merchant, purchase.id)
  const refundable = purchase.amount - refunded
  if (amount > refundable) {
    throw badRequest(
      [`Amount exceeds the refundable balance of ${refundable} (purchase ${purchase.amount}, already refunded ${refunded})`],
      refused,
    )
  }

  const id = ctx.newId(merchant, 'R')
  const now = ctx.clock.now()
  const refund: RefundRecord = {
    id,
    authorization: newAuthorization(),
    amount: -amount,
    refunded: 'Approved',
    message: 'Approved',
    card_holder: purchase.card_holder,
    card_number: purchase.card_number,
    card_expiry: purchase.card_expiry,
    card_type: purchase.card_type,
    successful: true,
    transaction_date: formatDateTime(now),
    response_code: '00',
    reference,
    transaction_id: id,
    currency: purchase.currency,
    settlement_date: formatDate(addDays(now, 1)),
    metadata: {},
    standalone: false,
    rrn: rrnOf(id),
    purchase_id: purchase.id,
  }
  ctx.store.save('refunds', merchant, refund)
  return {status: 200, response: refundView(refund)}
}

/** gateway-notes.md: GET /v1.0/refunds with offset, limit, from and to; newest first. */
export function listRefunds({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('refunds', merchant), query, (refund) => refund.transaction_date)
  return {status: 200, response: records.map(refundView), fields}
}

/** The contract's 404 text for a refund is `Purchase not found`. */
export function getRefund(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: refundView(ctx.store.get('refunds', request.merchant, pathParam(request, 'key'), 'Purchase not found'))}
}
