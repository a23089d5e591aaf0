import {GwError, InterruptedError, ModeMismatchError, NotFoundError} from '../errors.js'
import type {Deps} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {recordOf} from '../operations/resolve.js'
import {refundedState, refundsOfPurchase, type RefundsOfRequest} from '../operations/purchase-refunds.js'
import type {RefundedState} from './refund-match.js'
import type {RefundInput} from '../operations/refunds.js'
import {shellQuote} from '../output/hints.js'
import {refusedBeyondLeft, refusedInFlight} from '../output/refund-match-text.js'

/** A purchase as a refusal names it, as a person would type it: its reference, else its id, else what it was asked by. */
export function purchaseName(purchase: GwRecord, asked: string): string {
  return shellQuote(String(purchase.reference ?? purchase.id ?? asked))
}

/**
 * A refund as it was asked, in full (no amount given) or of an amount, held to what is left of the
 * purchase before anything is sent (design.md §2: gw never sends a request it knows the gateway
 * refuses): the purchase looked up and its refunds matched as purchase get matches them. Nothing
 * left, or less than was asked for certain, is refused as the gateway would refuse it, exit 7, and
 * nothing is sent. Only what is certain refuses it (design.md §5: gw's files are a copy): the
 * gateway's own record (voided, its refunded_amount) and the refunds gw made for the purchase; a
 * refund that only may be of it never does; nor does `inFlight`, what other rows of a batch may
 * be refunding of it meanwhile, except as one more reason. The purchase goes on with the input, so it is not
 * looked up again.
 */
export async function refundable(input: RefundInput, request: Pick<RefundsOfRequest, 'made' | 'concurrency' | 'book' | 'onState'> & {inFlight?: number}, deps: Pick<Deps, 'client'>): Promise<RefundInput> {
  const purchase = input.purchase ?? (await lookUpPurchase(input, deps))
  // Not found, with an amount given: a purchase just made may not be found yet (gateway-notes.md, the processing window), so the gateway decides.
  if (purchase === undefined) return input
  // Without its amount the refund cannot be sent in full either; refundBody says so.
  if (typeof purchase.amount !== 'number') return {...input, purchase}
  const name = purchaseName(purchase, input.transactionId)
  const asked = input.amount ?? purchase.amount
  const refusal = (state: RefundedState) => refusedBeyondLeft(name, state, asked, {inFull: input.amount === undefined}) ?? refusedInFlight(name, state, asked, request.inFlight ?? 0)
  const state = await refundedState(purchase, {...request, decisive: true})
  // gw's index may hold a refund voided since it was read: the refunds gw made for it, which refuse it, are read afresh first.
  const refused = refusal(state) && (state.source === 'refunds' && state.certain > 0 ? refusal(await afresh(purchase, request, deps)) : refusal(state))
  if (refused) throw refused
  return {...input, purchase}
}

/** What is left of a purchase once the refunds gw made for it are read again from the gateway, each by its id. */
async function afresh(purchase: GwRecord, request: RefundsOfRequest, {client}: Pick<Deps, 'client'>): Promise<RefundedState> {
  const {matched} = await refundsOfPurchase(purchase, request)
  const certain = matched.filter(({match}) => match.match === 'certain').map(({refund}) => String(refund.id))
  for (const id of certain) {
    // One the gateway will not give again tells nothing new: the index's copy stands.
    const read = await client.refunds.get(id).catch((err: unknown) => (err instanceof GwError && !(err instanceof InterruptedError) && !(err instanceof ModeMismatchError) ? undefined : Promise.reject(err)))
    if (read) request.book.add(read)
  }
  return (await refundsOfPurchase(purchase, request)).state
}

/** The purchase a refund names; with an amount given, none when the gateway finds none (the refund is then the gateway's to refuse). */
export async function lookUpPurchase(input: RefundInput, deps: Pick<Deps, 'client'>): Promise<GwRecord | undefined> {
  try {
    return await recordOf('purchases', input.transactionId, deps)
  } catch (err) {
    if (err instanceof NotFoundError && input.amount !== undefined) return undefined
    throw err
  }
}
