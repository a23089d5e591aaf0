import {REFUSED, VOIDED_REFUND_CODE, VOID_KEEPS_SUCCESSFUL, isVoidable, namedById} from './choices.js'
import {addDays, formatDate, formatDateTime} from './clock.js'
import type {SandboxContext} from '../context.js'
import {forbidden, notFound, refusedWith200} from './errors.js'
import {VOIDED, refundView, rrnOf, type RefundRecord} from './records.js'

/** The contract's 404 text for a refund (endpoint 5). */
export const REFUND_NOT_FOUND = 'Purchase not found'

/** The card a refund record carries: the purchase's, or for an unmatched refund the one given. */
export type RefundCard = Pick<RefundRecord, 'card_holder' | 'card_number' | 'card_expiry' | 'card_type'>

export interface NewRefund {
  card: RefundCard
  amount: number
  reference: string
  currency: string
  metadata: Record<string, string>
  /** Null for an unmatched refund, which names no purchase. */
  purchaseId: string | null
}

/**
 * Stores an approved refund. Its `authorization` is the Unix time in seconds (as text, as builds
 * from May 2018 write it), it settles the next day, and `standalone` says whether it named no purchase.
 */
export function addRefund(ctx: SandboxContext, merchant: string, refund: NewRefund): RefundRecord {
  const id = ctx.newId(merchant, 'R')
  const now = ctx.clock.now()
  const record: RefundRecord = {
    id,
    authorization: String(Math.floor(now.getTime() / 1000)),
    amount: -refund.amount,
    refunded: 'Approved',
    message: 'Approved',
    card_holder: refund.card.card_holder,
    card_number: refund.card.card_number,
    card_expiry: refund.card.card_expiry,
    card_type: refund.card.card_type,
    successful: true,
    transaction_date: formatDateTime(now),
    response_code: '00',
    reference: refund.reference,
    transaction_id: id,
    currency: refund.currency,
    settlement_date: formatDate(addDays(now, 1)),
    metadata: refund.metadata,
    standalone: refund.purchaseId === null,
    rrn: rrnOf(id),
    purchase_id: refund.purchaseId,
  }
  ctx.store.save('refunds', merchant, record)
  return record
}

/** The merchant's refund by its id (choices.ts namedById), or the 403 or 404 the gateway gives. */
export function refundById(ctx: SandboxContext, merchant: string, id: string): RefundRecord {
  const lookup = ctx.store.find('refunds', merchant, id)
  if (lookup.found === 'foreign') throw forbidden()
  if (lookup.found === 'none' || !namedById(lookup.record, id)) throw notFound(REFUND_NOT_FOUND)
  return lookup.record
}

/**
 * Voids a refund before its settlement date is over: `refunded` and `message` `Voided`, the rest
 * as it was (choices.ts for `successful` and the code); its purchase may be refunded that much again.
 */
export function voidRefund(ctx: SandboxContext, merchant: string, refund: RefundRecord): RefundRecord {
  const problem =
    refund.refunded === VOIDED ? REFUSED.alreadyVoided
    : !refund.successful ? REFUSED.notSuccessful
    : !isVoidable(refund.settlement_date, ctx.clock.today()) ? REFUSED.settled
    : undefined
  if (problem !== undefined) throw refusedWith200(problem, refundView(refund))
  const voided: RefundRecord = {
    ...refund,
    refunded: VOIDED,
    message: VOIDED,
    successful: VOID_KEEPS_SUCCESSFUL && refund.successful,
    response_code: VOIDED_REFUND_CODE,
  }
  ctx.store.save('refunds', merchant, voided)
  return voided
}
