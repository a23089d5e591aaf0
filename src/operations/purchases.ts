import type {PurchaseCreate} from '../api/schemas/purchase.js'
import type {CardDetails} from '../card-input.js'
import {UsageError} from '../errors.js'
import type {Deps, GwRecord} from './deps.js'

export interface PurchaseInput {
  amount: number
  reference: string
  currency: string
  customerIp?: string
  /** A stored card's token or alias, instead of card details. */
  cardToken?: string
  card?: CardDetails
  /** With a token: the CVV, when the card was tokenized long ago and the issuer wants it again. */
  cvv?: string
}

/** The request body of a purchase: the card details group or card_token (contract §2.3). */
export function purchaseBody(input: PurchaseInput): PurchaseCreate {
  if (!input.cardToken && !input.card) {
    throw new UsageError('give the card: --card-token, or --card-holder, --card-number and --card-expiry, or --card - with the card as JSON on stdin', 'See gw purchase create --help for examples.')
  }
  const cvv = input.card?.cvv ?? input.cvv
  return {
    ...(input.card ?? {card_token: input.cardToken}),
    ...(cvv ? {cvv} : {}),
    amount: input.amount,
    reference: input.reference,
    currency: input.currency,
    ...(input.customerIp ? {customer_ip: input.customerIp} : {}),
  }
}

/** Charges a card once; a decline throws DeclinedError carrying the record, a lost answer is looked up. */
export async function createPurchase(input: PurchaseInput, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.purchases.create(purchaseBody(input))
}
