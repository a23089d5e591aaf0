import {randomBytes} from 'node:crypto'
import {REFUSED, VOID_KEEPS_SUCCESSFUL, isVoidable, namedById, originalAmount} from './choices.js'
import {formatDate} from './clock.js'
import type {SandboxContext} from '../context.js'
import {decimalAmount} from './currency.js'
import {forbidden, notFound, refusedWith200} from './errors.js'
import {VOIDED, type PurchaseRecord} from './records.js'

/**
 * What happens to a purchase after it is made (gateway-beyond.md §1-5): an authorization captured
 * in full or in part, raised, extended, or a purchase voided. Each keeps the record, changed as the
 * recordings show; a refusal for the record's state answers HTTP 200 with the record as it is.
 */

/** The contract's 404 text for a purchase (the live dialect's is dialect.ts's). */
export const PURCHASE_NOT_FOUND = 'Purchase not found'

/** The merchant's purchase by its id (choices.ts namedById), or the 403 or 404 the gateway gives. */
export function purchaseById(ctx: SandboxContext, merchant: string, id: string): PurchaseRecord {
  const lookup = ctx.store.find('purchases', merchant, id)
  if (lookup.found === 'foreign') throw forbidden()
  if (lookup.found === 'none' || !namedById(lookup.record, id)) throw notFound(PURCHASE_NOT_FOUND)
  return lookup.record
}

/** Why an authorization cannot be captured, raised or extended; undefined when it can. */
function authorizationProblem(purchase: PurchaseRecord): string | undefined {
  if (purchase.message === VOIDED) return REFUSED.voided
  if (!purchase.successful) return REFUSED.notSuccessful
  if (purchase.captured) return REFUSED.alreadyCaptured
  return undefined
}

function refuseUnlessAuthorized(purchase: PurchaseRecord): void {
  const problem = authorizationProblem(purchase)
  if (problem !== undefined) throw refusedWith200(problem, purchase)
}

/**
 * Captures `amount` of an authorization, all of it or less: `captured`, `captured_amount`, the
 * settlement date (the virtual clock's today) and a retrieval number of 12 hex digits change; the
 * authorised `amount`, its code and `transaction_date` stay. More than authorised is refused.
 */
export function capture(ctx: SandboxContext, merchant: string, purchase: PurchaseRecord, amount: number): PurchaseRecord {
  refuseUnlessAuthorized(purchase)
  if (amount > purchase.amount) throw refusedWith200(REFUSED.overCapture, purchase)
  const captured: PurchaseRecord = {
    ...purchase,
    settlement_date: formatDate(ctx.clock.now()),
    captured: true,
    captured_amount: amount,
    rrn: randomBytes(6).toString('hex'),
  }
  ctx.store.save('purchases', merchant, captured)
  return captured
}

/**
 * Raises an authorization to `total` (the new total, not the increase), keeping the first amount in
 * `metadata.original_amount`. The bank always agrees: the test rule of the cents decides the first
 * authorization only.
 */
export function increment(ctx: SandboxContext, merchant: string, purchase: PurchaseRecord, total: number): PurchaseRecord {
  refuseUnlessAuthorized(purchase)
  if (total <= purchase.amount) throw refusedWith200(REFUSED.notAnIncrement, purchase)
  const raised: PurchaseRecord = {
    ...purchase,
    amount: total,
    decimal_amount: decimalAmount(total, purchase.currency),
    metadata: {...purchase.metadata, original_amount: originalAmount(purchase.metadata, purchase.amount)},
  }
  ctx.store.save('purchases', merchant, raised)
  return raised
}

/**
 * Extends an authorization: the record comes back as it was, as recorded (no field shows an
 * expiry). Authorizations do not lapse in the local gateway, so there is nothing to push back.
 */
export function extend(purchase: PurchaseRecord): PurchaseRecord {
  refuseUnlessAuthorized(purchase)
  return purchase
}

/**
 * Voids a purchase, captured or not: the record stays, its `message` `Voided` and nothing
 * captured (`captured` as it was). Refused once voided, declined, settled (choices.ts isVoidable)
 * or refunded: a purchase with refunds is voided after them.
 */
export function voidPurchase(ctx: SandboxContext, merchant: string, purchase: PurchaseRecord): PurchaseRecord {
  const problem =
    purchase.message === VOIDED ? REFUSED.alreadyVoided
    : !purchase.successful ? REFUSED.notSuccessful
    : !isVoidable(purchase.settlement_date, ctx.clock.today()) ? REFUSED.settled
    : ctx.store.refundedOf(merchant, purchase.id) > 0 ? REFUSED.refunded
    : undefined
  if (problem !== undefined) throw refusedWith200(problem, purchase)
  const voided: PurchaseRecord = {...purchase, message: VOIDED, captured_amount: 0, successful: VOID_KEEPS_SUCCESSFUL && purchase.successful}
  ctx.store.save('purchases', merchant, voided)
  return voided
}
