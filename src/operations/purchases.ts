import type {PurchaseCreate} from '../api/schemas/purchase.js'
import type {CardDetails} from '../card-input.js'
import {UsageError} from '../errors.js'
import {maskCardNumber} from '../redact.js'
import type {Deps, GwRecord} from './deps.js'
import {checkSame, isReferenceTaken} from './earlier.js'

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

/** A purchase as it went to the gateway, and what came of it. */
export interface PurchaseSent {
  record: GwRecord
  /** The reference had been used already, by this same purchase: the gateway's record of it, nothing sent now. */
  doneEarlier: boolean
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

/**
 * Charges a card once; a decline throws DeclinedError carrying the record, a lost answer is
 * looked up (in the client). A reference already taken is looked up too: the same purchase is
 * reported as done earlier, another one is refused naming both (issue 9 §4).
 */
export async function sendPurchase(body: PurchaseCreate, deps: Pick<Deps, 'client'>): Promise<PurchaseSent> {
  try {
    return {record: await deps.client.purchases.create(body), doneEarlier: false}
  } catch (err) {
    if (!isReferenceTaken(err)) throw err
    const record = await deps.client.purchases.get(body.reference)
    await checkPurchase(body, record, deps)
    return {record, doneEarlier: true}
  }
}

/** Whether a purchase found under the body's reference is that purchase: same card, amount and currency. */
export function checkPurchase(body: PurchaseCreate, record: GwRecord, {client}: Pick<Deps, 'client'>): Promise<void> {
  const token = 'card_token' in body ? body.card_token : undefined
  return checkSame(
    {
      noun: 'purchase',
      reference: body.reference,
      amount: body.amount,
      currency: body.currency,
      target: token
        ? {
            label: 'card',
            asked: token,
            found: record.card_token,
            // The row may name the card by its alias, the record by its token.
            sameAs: async () => (await client.cards.get(token)).token === record.card_token,
          }
        : // A card given in full is compared as the gateway shows it, masked.
          {label: 'card', asked: maskCardNumber(body.card_number ?? ''), found: record.card_number},
    },
    record,
  )
}

export async function submitPurchase(input: PurchaseInput, deps: Pick<Deps, 'client'>): Promise<PurchaseSent> {
  return sendPurchase(purchaseBody(input), deps)
}

