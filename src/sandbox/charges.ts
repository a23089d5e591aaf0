import {isExpired} from './cards.js'
import {addDays, formatDate, formatDateTime} from './clock.js'
import type {SandboxContext} from './context.js'
import {newAuthorization} from './ids.js'
import {decimalAmount} from './money.js'
import {outcomeForCode, type Outcome} from '../api/schemas/test-outcomes.js'
import {purchaseOutcome} from './outcomes.js'
import {rrnOf, type CardRecord, type PurchaseRecord} from './records.js'

export interface Charge {
  card: CardRecord
  amount: number
  reference: string
  currency: string
  source: PurchaseRecord['source']
  /** Whether the request carried a CVV; a subscription's charge never does. */
  cvvGiven?: boolean
  /** The bank's answer chosen in advance, for the samples of `/_sandbox/trigger`. */
  outcome?: Outcome
}

/** The bank's answer for a card past its expiry month. */
const EXPIRED_CARD_CODE = '54'

/**
 * Authorizes and stores one purchase on a card: every purchase goes through here, whether the
 * API asked for it or a subscription fell due. A decline is stored like an approval.
 */
export function chargeCard(ctx: SandboxContext, merchant: string, charge: Charge): PurchaseRecord {
  const {card, amount, reference, currency, source} = charge
  const now = ctx.clock.now()
  // The API refuses an expired card before this point; a subscription meets one here and is declined.
  const outcome =
    charge.outcome ??
    (isExpired(card.card_expiry, formatDate(now)) ? outcomeForCode(EXPIRED_CARD_CODE) : purchaseOutcome(card.card_number, amount))
  const id = ctx.newId(merchant, 'P')
  const purchase: PurchaseRecord = {
    id,
    authorization: outcome.approved ? newAuthorization() : null,
    card_number: card.card_number,
    card_holder: card.card_holder,
    card_expiry: card.card_expiry,
    card_type: card.card_type,
    card_category: card.card_category,
    card_subcategory: card.card_subcategory,
    card_token: card.token,
    amount,
    decimal_amount: decimalAmount(amount, currency),
    successful: outcome.approved,
    message: outcome.message,
    reference,
    currency,
    settlement_date: formatDate(addDays(now, 1)),
    transaction_date: formatDateTime(now),
    source,
    response_code: outcome.responseCode,
    transaction_id: id,
    captured: outcome.approved,
    captured_amount: outcome.approved ? amount : 0,
    rrn: rrnOf(id),
    cvv_match: charge.cvvGiven ? 'M' : 'U',
    metadata: {},
    addendum_data: {},
  }
  ctx.store.save('cards', merchant, {...card, transaction_count: card.transaction_count + 1})
  ctx.store.save('purchases', merchant, purchase)
  return purchase
}
