import {instantOf} from '../../lib/days.js'
import {addDays, formatDate, formatDateTime} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest} from '../domain/errors.js'
import {readFields} from '../domain/input.js'
import type {CustomerRecord, PurchaseRecord, RefundRecord} from '../domain/records.js'
import {DATE_FIELDS, type DatedCollection} from '../domain/collections.js'
import {datedDirectDebit as dateDirectDebit, datedPaymentPlan as datePaymentPlan, datedSubscription as dateSubscription} from '../domain/dated-recurring.js'
import {type MerchantRequest, pathParam, type RouteResult} from './route.js'

/**
 * `POST /_sandbox/dated/{id}` `{"collection": "purchases|refunds|customers|subscriptions|payment_plans|direct_debits", "at": "2026-11-17T10:31:00+11:00"}`:
 * one of the merchant's records dated in the past (gw sandbox seed's `at`), so lists and their
 * from/to see it on that day; a subscription, plan or debit billed from that day on
 * (domain/dated-recurring.ts), a subscription from its `start_date` when the body gives one. Never after the gateway's own clock, a refund never before its
 * purchase, a purchase never after one of its refunds: a history that could have happened.
 */
export function dateRecord(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {at, collection, start_date: startDate} = readFields(request.input, {at: 'string', collection: 'string', start_date: 'string'})
  if (collection === undefined || !Object.hasOwn(DATE_FIELDS, collection)) throw badRequest([`Collection must be one of ${Object.keys(DATE_FIELDS).join(', ')}: the records that carry the date they were made`])
  // With its offset, as gw sends a fixture's `at`: an instant, read the same in any time zone.
  const when = at === undefined ? undefined : instantOf(at)
  if (!when) throw badRequest(['At must be a date-time with its offset, such as 2026-11-17T10:31:00+11:00'])
  const now = ctx.clock.now()
  if (when > now) throw badRequest([`At ${at} is in the future: the gateway's clock says ${formatDateTime(now)}`])
  const dated = collection as DatedCollection
  const key = pathParam(request, 'key')
  const {merchant} = request
  if (startDate !== undefined && dated !== 'subscriptions') throw badRequest(['Start date is taken for subscriptions only'])
  if (dated === 'subscriptions' || dated === 'payment_plans' || dated === 'direct_debits') {
    if (dated === 'subscriptions') dateSubscription(ctx, merchant, key, when, startDate)
    else if (dated === 'payment_plans') datePaymentPlan(ctx, merchant, key, when)
    else dateDirectDebit(ctx, merchant, key, when)
    return {status: 200, response: {}}
  }
  if (dated === 'customers') {
    const customer = ctx.store.get('customers', merchant, key, 'Customer not found')
    ctx.store.saveDated('customers', merchant, {...customer, created_at: formatDateTime(when)} satisfies CustomerRecord)
    return {status: 200, response: {}}
  }
  const transactionDate = formatDateTime(when)
  if (dated === 'refunds') {
    const refund = ctx.store.get('refunds', merchant, key, 'Refund not found')
    const purchase = refund.purchase_id === null ? undefined : ctx.store.find('purchases', merchant, refund.purchase_id)
    if (purchase?.found === 'own' && when.getTime() < Date.parse(purchase.record.transaction_date)) {
      throw badRequest([`At ${at} is before the purchase it refunds was made (${purchase.record.transaction_date})`])
    }
    // A refund settles the day after it is made.
    ctx.store.saveDated('refunds', merchant, {...refund, transaction_date: transactionDate, settlement_date: formatDate(addDays(when, 1))} satisfies RefundRecord)
    return {status: 200, response: {}}
  }
  const purchase = ctx.store.get('purchases', merchant, key, 'Purchase not found')
  const firstRefund = Math.min(...ctx.store.related('refunds', merchant, 'purchase_id', purchase.id).map((refund) => Date.parse(refund.transaction_date)))
  if (when.getTime() > firstRefund) throw badRequest([`At ${at} is after a refund of this purchase was made (${formatDateTime(new Date(firstRefund))})`])
  // A purchase captured at once settles on its own day; an authorization not yet captured has no settlement date.
  const settlementDate = purchase.settlement_date === null ? null : formatDate(when)
  ctx.store.saveDated('purchases', merchant, {...purchase, transaction_date: transactionDate, settlement_date: settlementDate} satisfies PurchaseRecord)
  return {status: 200, response: {}}
}
