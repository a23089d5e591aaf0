import type {Deps, GwRecord} from '../operations/deps.js'
import {lookUp} from '../operations/look-up.js'
import {refundedState, type RefundsOfRequest} from '../operations/purchase-refunds.js'
import type {RefundInput} from '../operations/refunds.js'
import {shellQuote} from '../output/hints.js'
import {refusedBeyondLeft} from '../output/refund-match-text.js'

/** A purchase as a refusal names it, as a person would type it: its reference, else its id, else what it was asked by. */
export function purchaseName(purchase: GwRecord, asked: string): string {
  return shellQuote(String(purchase.reference ?? purchase.id ?? asked))
}

/**
 * A refund of a purchase in full (no amount given), held to what is left of it before anything is
 * sent (design.md §2: gw never sends a request it knows the gateway refuses): the purchase looked
 * up and its refunds matched as purchase get matches them. Nothing left, or less than the whole of
 * it for certain, is refused as the gateway would refuse it, exit 7, and nothing is sent. The
 * purchase goes on with the input, so it is not looked up again.
 */
export async function refundableInFull(input: RefundInput, request: Pick<RefundsOfRequest, 'made' | 'concurrency'>, deps: Pick<Deps, 'client'>): Promise<RefundInput> {
  const purchase = input.purchase ?? (await lookUp('purchases', input.transactionId, deps))
  // Without its amount the refund cannot be sent either; refundBody says so.
  if (typeof purchase.amount !== 'number') return {...input, purchase}
  const state = await refundedState(purchase, request, deps)
  const refused = refusedBeyondLeft(purchaseName(purchase, input.transactionId), state, purchase.amount, {inFull: true})
  if (refused) throw refused
  return {...input, purchase}
}
