import {EXPIRY_EXPIRED, checkCardDetails, isExpired, newCardRecord, submittedCard} from '../domain/card.js'
import {chargeCard, refusedPurchase} from '../domain/charges.js'
import {formatDate} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest, refusedWith200} from '../domain/errors.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'
import {pageOf} from '../domain/paging.js'
import {blankMessage, isBlank, readFields, type Fields} from '../domain/input.js'
import {DEFAULT_CURRENCY, currencyNotPermitted, isPermittedCurrency} from '../domain/currency.js'
import {PURCHASE_FIELDS, echo, type CardRecord} from '../domain/records.js'

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
} as const
type PurchaseInput = Fields<typeof PURCHASE_INPUT>

/**
 * A purchase with card details also tokenizes the card; one with a card token (or alias) charges
 * that card. A decline is not an error: it is stored and answered with HTTP 200 like an approval.
 */
export function createPurchase({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const fields = readFields(input, PURCHASE_INPUT)
  const now = ctx.clock.now()
  const {amount, reference, customer_ip: customerIp} = fields
  const currency = (fields.currency ?? DEFAULT_CURRENCY).trim().toUpperCase()
  // `successful` is a boolean in the record (contract §2.3), never null: the vendor's Ruby library reads it as one.
  const refused = echo(PURCHASE_FIELDS, {
    successful: false,
    ...submittedCard(fields),
    card_token: fields.card_token,
    amount,
    reference,
    currency: fields.currency,
    customer_ip: customerIp,
  })

  const card = cardToCharge(fields, merchant, ctx, formatDate(now))
  const errors = [
    ...card.errors,
    amount === undefined ? blankMessage('amount') : undefined,
    amount !== undefined && amount < 0 ? 'Amount must be greater than or equal to 0' : undefined,
    isBlank(reference) ? blankMessage('reference') : undefined,
    customerIp !== undefined && isBlank(customerIp) ? blankMessage('customer_ip') : undefined,
    currency === '' ? blankMessage('currency') : undefined,
  ].filter((error) => error !== undefined)
  // Each condition repeats a check above, for TypeScript to narrow the fields below.
  if (!card.record || amount === undefined || isBlank(reference) || errors.length > 0) throw badRequest(errors, refused)
  if (!isPermittedCurrency(currency)) {
    const message = currencyNotPermitted(currency)
    throw refusedWith200(message, refusedPurchase(ctx, merchant, {card: card.record, amount, reference, currency, cvvGiven: false}, message))
  }
  if (ctx.store.isTaken('purchases', merchant, reference)) throw refusedWith200('Reference is already taken', refused)

  const cvvGiven = !isBlank(fields.cvv)
  const purchase = chargeCard(ctx, merchant, {card: card.record, amount, reference, currency, source: 'API', cvvGiven})
  return {status: 200, response: purchase}
}

/** gateway-notes.md: GET /v1.0/purchases with offset, limit, from and to; newest first. */
export function listPurchases({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('purchases', merchant), query, (purchase) => purchase.transaction_date)
  return {status: 200, response: records, fields}
}

export function getPurchase(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: ctx.store.get('purchases', request.merchant, pathParam(request, 'key'), 'Purchase not found')}
}

/** The stored card a token or alias names (only the caller's), or a new one from the card details. */
function cardToCharge(
  fields: PurchaseInput,
  merchant: string,
  ctx: SandboxContext,
  today: string,
): {errors: string[]; record?: CardRecord} {
  if (isBlank(fields.card_token)) {
    const {errors, details} = checkCardDetails(fields, today)
    return {errors, record: details && newCardRecord(details)}
  }
  const lookup = ctx.store.find('cards', merchant, fields.card_token)
  if (lookup.found !== 'own') return {errors: [`Card ${fields.card_token} could not be found`]}
  if (isExpired(lookup.record.card_expiry, today)) return {errors: [EXPIRY_EXPIRED]}
  return {errors: [], record: lookup.record}
}
