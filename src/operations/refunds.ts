import type {GatewayClient} from '../api/client.js'
import type {RefundCreate} from '../api/schemas/refund.js'
import {GatewayError} from '../errors.js'
import type {Deps, GwRecord} from './deps.js'
import {clientLookups, findEarlier, type MoneyRequest, type Sent, sendOnce} from './money.js'

export interface RefundInput {
  transactionId: string
  /** Minor units; none refunds the purchase's full amount, looked up first. */
  amount?: number
  reference: string
}

/** A refund's request body, and the purchase refunded when it was looked up for its full amount. */
export interface RefundRequest {
  body: RefundCreate
  purchase?: GwRecord
}

/** The request body: the amount given, or the purchase's full amount as the gateway has it. */
export async function refundBody(input: RefundInput, {client}: Pick<Deps, 'client'>): Promise<RefundRequest> {
  if (input.amount !== undefined) return {body: {transaction_id: input.transactionId, amount: input.amount, reference: input.reference}}
  const purchase = await client.purchases.get(input.transactionId)
  if (typeof purchase.amount !== 'number') {
    throw new GatewayError('unreadable', `Purchase ${input.transactionId} came back without an amount, so its full amount is not known: nothing was sent`, {hint: 'Give the amount to refund.'})
  }
  return {body: {transaction_id: input.transactionId, amount: purchase.amount, reference: input.reference}, purchase}
}

/**
 * Sends a refund once and decides what came of it (operations/money.ts): approved or declined, a
 * lost answer recovered or left unknown, or a reference already taken: this same refund done
 * earlier, or another one.
 */
export function sendRefund(request: RefundRequest, {client}: Pick<Deps, 'client'>): Promise<Sent> {
  return sendOnce(moneyRequest(request, client))
}

/** A refund row an earlier run may have sent: what the gateway holds under its reference, decided. */
export function findEarlierRefund(request: RefundRequest, {client}: Pick<Deps, 'client'>): Promise<Sent | undefined> {
  return findEarlier(moneyRequest(request, client))
}

/** Refunds part or all of a purchase once. */
export async function submitRefund(input: RefundInput, deps: Pick<Deps, 'client'>): Promise<Sent & {purchase?: GwRecord}> {
  const request = await refundBody(input, deps)
  return {...(await sendRefund(request, deps)), purchase: request.purchase}
}

function moneyRequest({body, purchase}: RefundRequest, client: GatewayClient): MoneyRequest {
  return {noun: 'refund', body, post: () => client.refunds.create(body), lookUp: (reference) => client.refunds.get(reference), lookups: clientLookups(client), purchase}
}

/** The currency of the purchase refunded, for a live refund's confirmation; undefined when it cannot be looked up (the refund then says why). */
export async function purchaseCurrency(transactionId: string, {client}: Pick<Deps, 'client'>): Promise<string | undefined> {
  try {
    const purchase = await client.purchases.get(transactionId)
    // Shown in the question: a code of three letters, or not known.
    return typeof purchase.currency === 'string' && /^[A-Za-z]{3}$/.test(purchase.currency) ? purchase.currency : undefined
  } catch {
    return undefined
  }
}
