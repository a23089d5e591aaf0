import type {Deps, GwRecord} from './deps.js'

export interface RefundInput {
  transactionId: string
  amount: number
  reference: string
}

/** Refunds part or all of a purchase once; a lost answer is looked up by the reference. */
export async function createRefund(input: RefundInput, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.refunds.create({transaction_id: input.transactionId, amount: input.amount, reference: input.reference})
}
