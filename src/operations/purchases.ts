import type {GatewayClient} from '../api/client.js'
import type {PurchaseCreate} from '../api/schemas/purchase.js'
import type {CardDetails, Deps} from './deps.js'
import {clientLookups, findEarlier, type MoneyRequest, type Sent, sendOnce} from './money.js'

export interface PurchaseInput {
  amount: number
  reference: string
  currency: string
  customerIp?: string
  /**
   * The card in full, or a stored card's token or alias, with the CVV when the card was tokenized
   * long ago and the issuer wants it again.
   */
  card: CardDetails | {token: string; cvv?: string}
  /** False: an authorization, to capture later (gw purchase capture). */
  capture?: boolean
  /** The merchant's own keys, kept with the record. */
  metadata?: Record<string, string>
}

/** The request body of a purchase: the card details group or card_token (contract §2.3). */
export function purchaseBody(input: PurchaseInput): PurchaseCreate {
  const {card} = input
  return {
    ...('token' in card ? {card_token: card.token} : {card_holder: card.card_holder, card_number: card.card_number, card_expiry: card.card_expiry}),
    ...(card.cvv ? {cvv: card.cvv} : {}),
    amount: input.amount,
    reference: input.reference,
    currency: input.currency,
    ...(input.customerIp ? {customer_ip: input.customerIp} : {}),
    ...(input.capture === false ? {capture: false} : {}),
    ...(input.metadata ? {metadata: input.metadata} : {}),
  }
}

/**
 * Charges a card once and decides what came of it (operations/money.ts): approved or declined, a
 * lost answer recovered or left unknown, or a reference already taken: this same purchase done
 * earlier, or another one.
 */
export function sendPurchase(body: PurchaseCreate, {client}: Pick<Deps, 'client'>, options?: {lookFirst?: boolean}): Promise<Sent> {
  return sendOnce(purchaseRequest(body, client), options)
}

/** A purchase row an earlier run may have sent: what the gateway holds under its reference, decided. */
export function findEarlierPurchase(body: PurchaseCreate, {client}: Pick<Deps, 'client'>): Promise<Sent | undefined> {
  return findEarlier(purchaseRequest(body, client))
}

export function submitPurchase(input: PurchaseInput, deps: Pick<Deps, 'client'>): Promise<Sent> {
  return sendPurchase(purchaseBody(input), deps)
}

function purchaseRequest(body: PurchaseCreate, client: GatewayClient): MoneyRequest {
  return {noun: 'purchase', body, post: () => client.purchases.create(body), lookUp: (reference) => client.purchases.get(reference), lookups: clientLookups(client)}
}
