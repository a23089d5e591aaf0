import {submittedCard} from '../domain/card.js'
import {cardToCharge, chargeCard, refusedPurchase} from '../domain/charges.js'
import {formatDate} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest, refusedWith200} from '../domain/errors.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'
import {pageOf} from '../domain/paging.js'
import {PURCHASE_NOT_FOUND} from '../domain/authorization.js'
import {blankMessage, isBlank, readFields} from '../domain/input.js'
import {DEFAULT_CURRENCY, currencyNotPermitted, isPermittedCurrency} from '../domain/currency.js'
import {PURCHASE_FIELDS, echo} from '../domain/records.js'
import {cvvProblem, readMetadata, threeDSecureProblems} from '../domain/extras.js'

const PURCHASE_INPUT = {
  amount: 'integer',
  reference: 'string',
  currency: 'string',
  customer_ip: 'string',
  card_holder: 'string',
  card_number: 'string',
  card_expiry: 'string',
  cvv: 'string',
  card_token: 'string',
  capture: 'boolean',
  metadata: 'object',
  extra: 'object',
} as const

/**
 * A purchase with card details also tokenizes the card; one with a card token (or alias) charges
 * that card. A decline is not an error: it is stored and answered with HTTP 200 like an approval.
 * With `capture: false` it is an authorization, captured later (authorizations.ts).
 */
export function createPurchase({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const fields = readFields(input, PURCHASE_INPUT)
  const now = ctx.clock.now()
  const {amount, reference, customer_ip: customerIp, extra = {}} = fields
  const currency = (fields.currency ?? DEFAULT_CURRENCY).trim().toUpperCase()
  const {metadata, errors: metadataErrors} = readMetadata(fields.metadata)
  // `successful` is a boolean in the record (contract §2.3), never null: the vendor's Ruby library reads it as one.
  const refused = echo(PURCHASE_FIELDS, {
    successful: false,
    ...submittedCard(fields),
    card_token: fields.card_token,
    amount,
    reference,
    currency: fields.currency,
    metadata: fields.metadata && metadata,
    customer_ip: customerIp,
  })

  const card = cardToCharge(fields, merchant, ctx, formatDate(now), cvvProblem(isBlank(fields.card_token), fields.cvv, extra))
  const errors = [
    ...card.errors,
    ...threeDSecureProblems(extra),
    ...metadataErrors,
    amount === undefined ? blankMessage('amount') : undefined,
    amount !== undefined && amount < 0 ? 'Amount must be greater than or equal to 0' : undefined,
    isBlank(reference) ? blankMessage('reference') : undefined,
    customerIp !== undefined && isBlank(customerIp) ? blankMessage('customer_ip') : undefined,
    currency === '' ? blankMessage('currency') : undefined,
  ].filter((error) => error !== undefined)
  // Each condition repeats a check above, for TypeScript to narrow the fields below.
  if (!card.record || amount === undefined || isBlank(reference) || errors.length > 0) throw badRequest(errors, refused)
  const charge = {card: card.record, amount, reference, currency, metadata}
  if (!isPermittedCurrency(currency)) throw refusedWith200(currencyNotPermitted(currency), refusedPurchase(ctx, merchant, charge))
  if (ctx.store.isTaken('purchases', merchant, reference)) throw refusedWith200('Reference is already taken', refusedPurchase(ctx, merchant, charge))

  const purchase = chargeCard(ctx, merchant, {...charge, source: 'API', cvvGiven: !isBlank(fields.cvv), capture: fields.capture ?? true})
  return {status: 200, response: purchase}
}

/** gateway-notes.md: GET /v1.0/purchases with offset, limit, from and to; newest first. */
export function listPurchases({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('purchases', merchant), query, (purchase) => purchase.transaction_date)
  return {status: 200, response: records, fields}
}

export function getPurchase(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: ctx.store.get('purchases', request.merchant, pathParam(request, 'key'), PURCHASE_NOT_FOUND)}
}
