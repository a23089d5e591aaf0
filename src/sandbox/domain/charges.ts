import {EXPIRY_EXPIRED, checkCardDetails, isExpired, newCardRecord, type CardDetailsInput} from './card.js'
import {isBlank} from './input.js'
import {formatDate, formatDateTime} from './clock.js'
import type {SandboxContext} from '../context.js'
import {newAuthorization} from './ids.js'
import {decimalAmount} from './currency.js'
import {outcomeForCode, type Outcome} from '../../api/schemas/test-outcomes.js'
import {purchaseOutcome} from './outcomes.js'
import {rrnOf, type CardRecord, type PurchaseRecord} from './records.js'

export interface Charge {
  card: CardRecord
  amount: number
  reference: string
  currency: string
  /** `Recurring` for a subscription's or payment plan's charge; `API` for one asked for, which the record does not say. */
  source: 'API' | 'Recurring'
  /** Whether the request carried a CVV; a subscription's charge never does. */
  cvvGiven?: boolean
  /** False for an authorization, captured later (gateway-beyond.md §1); a charge is captured at once by default. */
  capture?: boolean
  /** The merchant's own keys, echoed in the record. */
  metadata?: Record<string, string>
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
  const {card, amount} = charge
  // The API refuses an expired card before this point; a subscription meets one here and is declined.
  const outcome =
    charge.outcome ??
    (isExpired(card.card_expiry, formatDate(ctx.clock.now())) ? outcomeForCode(EXPIRED_CARD_CODE) : purchaseOutcome(card.card_number, amount))
  const purchase = purchaseRecord(ctx, merchant, charge, outcome)
  ctx.store.save('cards', merchant, {...card, transaction_count: card.transaction_count + 1})
  ctx.store.save('purchases', merchant, purchase)
  return purchase
}

/** The code the gateway gives a purchase it refuses before any bank sees it (gateway-notes.md: a currency the merchant cannot take). */
const REFUSED_CODE = '99'

/**
 * The record of a purchase the gateway refuses with HTTP 200 before charging (a currency the
 * merchant cannot take, a reference it already used): whole, as the live gateway answers it
 * (gateway-beyond.md §14), with an id, the card's token (a card given by its details is
 * tokenized, as the live gateway does), `successful: false`, code 99, and null where the recorded
 * answer has null: no message, dates, capture or retrieval number. Nothing is charged or stored as a purchase.
 */
export function refusedPurchase(ctx: SandboxContext, merchant: string, charge: Omit<Charge, 'source' | 'outcome'>): Record<string, unknown> {
  if (ctx.store.find('cards', merchant, charge.card.token).found !== 'own') ctx.store.save('cards', merchant, charge.card)
  const record = purchaseRecord(ctx, merchant, {...charge, source: 'API', cvvGiven: false}, {approved: false, message: '', responseCode: REFUSED_CODE})
  return {...record, message: null, settlement_date: null, transaction_date: null, captured_amount: null, rrn: null}
}

function purchaseRecord(ctx: SandboxContext, merchant: string, charge: Charge, outcome: Outcome): PurchaseRecord {
  const {card, amount, reference, currency, source} = charge
  const now = ctx.clock.now()
  const id = ctx.newId(merchant, 'P')
  const captured = outcome.approved && charge.capture !== false
  return {
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
    // Captured at once, approved or declined, a purchase settles on its own day (2017-2019 records); an authorization when captured.
    settlement_date: charge.capture === false ? null : formatDate(now),
    transaction_date: formatDateTime(now),
    ...(source === 'Recurring' ? {source} : {}),
    response_code: outcome.responseCode,
    transaction_id: id,
    captured,
    captured_amount: captured ? amount : 0,
    rrn: outcome.approved ? rrnOf(id) : null,
    cvv_match: charge.cvvGiven ? 'M' : 'U',
    metadata: {...charge.metadata},
    addendum_data: {},
  }
}

/** The stored card a token or alias names (only the caller's), or a new one from the card details, their CVV problem among theirs. */
export function cardToCharge(
  fields: CardDetailsInput & {card_token?: string},
  merchant: string,
  ctx: SandboxContext,
  today: string,
  cvvProblem?: string,
): {errors: string[]; record?: CardRecord} {
  if (isBlank(fields.card_token)) {
    const {errors, details} = checkCardDetails(fields, today, cvvProblem)
    return {errors, record: details && newCardRecord(details)}
  }
  const lookup = ctx.store.find('cards', merchant, fields.card_token)
  if (lookup.found !== 'own') return {errors: [`Card ${fields.card_token} could not be found`]}
  if (isExpired(lookup.record.card_expiry, today)) return {errors: [EXPIRY_EXPIRED]}
  return {errors: [], record: lookup.record}
}
