import type {RefundCreate} from '../api/schemas/refund.js'
import {GatewayError} from '../errors.js'
import type {Deps, GwRecord} from './deps.js'
import {checkSame, isReferenceTaken} from './earlier.js'

export interface RefundInput {
  transactionId: string
  /** Minor units; none refunds the purchase's full amount, looked up first. */
  amount?: number
  reference: string
}

/** A refund as it went to the gateway, and what came of it. */
export interface RefundSent {
  body: RefundCreate
  record: GwRecord
  /** The reference had been used already, by this same refund: the gateway's record of it, nothing sent now. */
  doneEarlier: boolean
  /** The purchase whose full amount was refunded, when no amount was given. */
  purchase?: GwRecord
}

/** The request body: the amount given, or the purchase's full amount as the gateway has it. */
export async function refundBody(input: RefundInput, {client}: Pick<Deps, 'client'>): Promise<{body: RefundCreate; purchase?: GwRecord}> {
  if (input.amount !== undefined) return {body: {transaction_id: input.transactionId, amount: input.amount, reference: input.reference}}
  const purchase = await client.purchases.get(input.transactionId)
  if (typeof purchase.amount !== 'number') {
    throw new GatewayError('unreadable', `Purchase ${input.transactionId} came back without an amount, so its full amount is not known: nothing was sent`, {hint: 'Give the amount to refund.'})
  }
  return {body: {transaction_id: input.transactionId, amount: Number(purchase.amount), reference: input.reference}, purchase}
}

/**
 * Sends a refund once; a lost answer is looked up by the reference (in the client). A reference
 * already taken is looked up too: the same refund is reported as done earlier, another one is
 * refused naming both (issue 9 §4).
 */
export async function sendRefund(body: RefundCreate, deps: Pick<Deps, 'client'>): Promise<Omit<RefundSent, 'purchase'>> {
  try {
    return {body, record: await deps.client.refunds.create(body), doneEarlier: false}
  } catch (err) {
    if (!isReferenceTaken(err)) throw err
    const record = await deps.client.refunds.get(body.reference)
    await checkRefund(body, record, deps)
    return {body, record, doneEarlier: true}
  }
}

/** Whether a refund found under the body's reference is that refund: same purchase and amount. */
export function checkRefund(body: RefundCreate, record: GwRecord, {client}: Pick<Deps, 'client'>): Promise<void> {
  return checkSame(
    {
      noun: 'refund',
      reference: body.reference,
      amount: body.amount,
      target: {
        label: 'purchase',
        asked: body.transaction_id,
        found: record.transaction_id,
        // The row may name the purchase by its reference, the record by its id.
        sameAs: async () => (await client.purchases.get(body.transaction_id)).id === record.transaction_id,
      },
    },
    record,
  )
}

/** Refunds part or all of a purchase once. */
export async function submitRefund(input: RefundInput, deps: Pick<Deps, 'client'>): Promise<RefundSent> {
  const {body, purchase} = await refundBody(input, deps)
  return {...(await sendRefund(body, deps)), purchase}
}

