import {NO_CARD_FOR_UNMATCHED_REFUND, REFUND_REFUSED} from '../domain/choices.js'
import {submittedCard} from '../domain/card.js'
import {cardToCharge} from '../domain/charges.js'
import {formatDate} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import {DEFAULT_CURRENCY, currencyNotPermitted, isPermittedCurrency} from '../domain/currency.js'
import {badRequest, forbidden, refusedWith200} from '../domain/errors.js'
import {cvvProblem, readMetadata} from '../domain/extras.js'
import {pageOf} from '../domain/paging.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'
import {blankMessage, isBlank, readFields, type Fields} from '../domain/input.js'
import {REFUND_FIELDS, VOIDED, echo, refundView, type PurchaseRecord} from '../domain/records.js'
import {REFUND_NOT_FOUND, addRefund, refundById, voidRefund, type RefundCard} from '../domain/refund.js'
import {voidTarget} from './void-target.js'

const REFUND_INPUT = {
  transaction_id: 'string',
  amount: 'integer',
  reference: 'string',
  metadata: 'object',
  currency: 'string',
  card_token: 'string',
  card_holder: 'string',
  card_number: 'string',
  card_expiry: 'string',
  cvv: 'string',
  customer_ip: 'string',
} as const
type RefundInput = Fields<typeof REFUND_INPUT>

/**
 * A refused refund shows the card and nulls for the rest (contract §4, endpoint 4), but for
 * `successful`: a boolean in the record (§2.4), which the vendor's Ruby library reads as one.
 */
const refusedBody = (card: Partial<Record<keyof RefundCard, string | undefined>> | undefined) =>
  echo(REFUND_FIELDS, {
    successful: false,
    card_holder: card?.card_holder,
    card_number: card?.card_number,
    card_expiry: card?.card_expiry,
    card_type: card?.card_type,
  })

/** What a refund request gets wrong whatever it refunds: amount, reference, metadata. */
function fieldProblems({amount, reference}: RefundInput, metadataErrors: string[]): string[] {
  return [
    amount === undefined ? blankMessage('amount') : undefined,
    amount !== undefined && amount <= 0 ? 'Amount must be greater than 0' : undefined,
    isBlank(reference) ? blankMessage('reference') : undefined,
    ...metadataErrors,
  ].filter((error) => error !== undefined)
}

/**
 * `transaction_id` takes the purchase's id or its reference: partial refunds are allowed up to
 * what was captured. Without one, a card (a token, or its details) makes an unmatched refund.
 */
export function createRefund({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const fields = readFields(input, REFUND_INPUT)
  const refund = isBlank(fields.transaction_id) ? unmatchedRefund(fields, merchant, ctx) : matchedRefund(fields, fields.transaction_id, merchant, ctx)
  return {status: 200, response: refundView(refund)}
}

function matchedRefund(fields: RefundInput, transactionId: string, merchant: string, ctx: SandboxContext) {
  const lookup = ctx.store.find('purchases', merchant, transactionId)
  if (lookup.found === 'foreign') throw forbidden()
  const purchase = lookup.found === 'own' ? lookup.record : undefined
  const refused = refusedBody(purchase)
  const {metadata, errors: metadataErrors} = readMetadata(fields.metadata)
  const errors = fieldProblems(fields, metadataErrors)
  const {amount, reference} = fields
  if (amount === undefined || isBlank(reference) || errors.length > 0) throw badRequest(errors, refused)
  // Recorded: HTTP 200 and an empty response (gateway-beyond.md §7).
  if (!purchase) throw refusedWith200('Original transaction could not be found', {})
  const problem = refusalOf(purchase)
  if (problem !== undefined) throw badRequest([problem], refused)
  if (ctx.store.isTaken('refunds', merchant, reference)) throw badRequest(['Reference has already been taken'], refused)
  const refunded = ctx.store.refundedOf(merchant, purchase.id)
  const refundable = purchase.captured_amount - refunded
  if (amount > refundable) {
    throw badRequest([`Amount exceeds the refundable balance of ${refundable} (purchase ${purchase.captured_amount}, already refunded ${refunded})`], refused)
  }
  return addRefund(ctx, merchant, {card: purchase, amount, reference, currency: purchase.currency, metadata, purchaseId: purchase.id})
}

/** Why a purchase cannot be refunded: it gave no money, or gave it back. */
function refusalOf(purchase: PurchaseRecord): string | undefined {
  if (purchase.message === VOIDED) return REFUND_REFUSED.voided
  if (!purchase.successful) return 'Original transaction was not successful'
  if (!purchase.captured) return REFUND_REFUSED.uncaptured
  return undefined
}

/**
 * An unmatched (standalone) refund: money to a card that no purchase bounds, for accounts set up
 * for it (every merchant of the local gateway is). The card is checked as a purchase's is, CVV
 * included; it is not tokenized.
 */
function unmatchedRefund(fields: RefundInput, merchant: string, ctx: SandboxContext) {
  const noCard = [fields.card_token, fields.card_number, fields.card_holder, fields.card_expiry].every((field) => isBlank(field))
  const card = noCard
    ? {errors: [NO_CARD_FOR_UNMATCHED_REFUND], record: undefined}
    : cardToCharge(fields, merchant, ctx, formatDate(ctx.clock.now()), cvvProblem(isBlank(fields.card_token), fields.cvv, {}))
  const currency = (fields.currency ?? DEFAULT_CURRENCY).trim().toUpperCase()
  const {metadata, errors: metadataErrors} = readMetadata(fields.metadata)
  const errors = [
    ...card.errors,
    ...fieldProblems(fields, metadataErrors),
    currency === '' ? blankMessage('currency') : undefined,
    currency !== '' && !isPermittedCurrency(currency) ? currencyNotPermitted(currency) : undefined,
    fields.customer_ip !== undefined && isBlank(fields.customer_ip) ? blankMessage('customer_ip') : undefined,
  ].filter((error) => error !== undefined)
  const {amount, reference} = fields
  const refused = refusedBody(card.record ?? submittedCard(fields))
  if (!card.record || amount === undefined || isBlank(reference) || errors.length > 0) throw badRequest(errors, refused)
  if (ctx.store.isTaken('refunds', merchant, reference)) throw badRequest(['Reference has already been taken'], refused)
  return addRefund(ctx, merchant, {card: card.record, amount, reference, currency, metadata, purchaseId: null})
}

/** gateway-beyond.md §6: the refund's id in the body or in the query string. */
export function voidRefundRoute(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const refund = refundById(ctx, request.merchant, voidTarget(request))
  return {status: 200, response: refundView(voidRefund(ctx, request.merchant, refund))}
}

/** gateway-notes.md: GET /v1.0/refunds with offset, limit, from and to; newest first. */
export function listRefunds({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('refunds', merchant), query, (refund) => refund.transaction_date)
  return {status: 200, response: records.map(refundView), fields}
}

/** The contract's 404 text for a refund is `Purchase not found`. */
export function getRefund(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: refundView(ctx.store.get('refunds', request.merchant, pathParam(request, 'key'), REFUND_NOT_FOUND))}
}
