import type {UnmatchedRefundCreate} from '../api/schemas/refund.js'
import type {CardDetails, Deps} from './deps.js'
import {clientLookups, type Sent, sendOnce} from './money.js'

/** A refund to a card that names no purchase (gateway-beyond.md §7): nothing bounds its amount but the account's setting. */
export interface UnmatchedRefundInput {
  amount: number
  reference: string
  currency: string
  customerIp?: string
  card: CardDetails | {token: string}
  metadata?: Record<string, string>
}

export function unmatchedRefundBody(input: UnmatchedRefundInput): UnmatchedRefundCreate {
  const {card} = input
  return {
    ...('token' in card ? {card_token: card.token} : {card_holder: card.card_holder, card_number: card.card_number, card_expiry: card.card_expiry, ...(card.cvv ? {cvv: card.cvv} : {})}),
    amount: input.amount,
    reference: input.reference,
    currency: input.currency,
    ...(input.customerIp ? {customer_ip: input.customerIp} : {}),
    ...(input.metadata ? {metadata: input.metadata} : {}),
  }
}

/**
 * Sends an unmatched refund once and decides what came of it (operations/money.ts): a lost answer
 * is looked up by its reference and held to the amount and the card sent (a card sent by token
 * cannot be checked, and stays unknown: exit 8).
 */
export function submitUnmatchedRefund(input: UnmatchedRefundInput, {client}: Pick<Deps, 'client'>): Promise<Sent> {
  const body = unmatchedRefundBody(input)
  return sendOnce({noun: 'refund', body, post: () => client.refunds.unmatched(body), lookUp: (reference) => client.refunds.get(reference), lookups: clientLookups(client)})
}
