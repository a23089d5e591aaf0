import * as z from 'zod'
import {lazily} from './lazy.js'
import {amountField, cardExpiryField, cardKeyField, cardNumberField, currencyField, cvvField, requiredText} from './fields.js'
import {beyondContract, looseBoolean, looseString, maybe, recordCardNumber, stringOrNumber} from './common.js'

export const Purchase = lazily(() =>
  z.looseObject({
    id: looseString,
    authorization: stringOrNumber,
    card_number: recordCardNumber,
    card_holder: looseString,
    card_expiry: looseString,
    card_token: looseString,
    amount: maybe(z.number()),
    decimal_amount: maybe(z.number()),
    successful: looseBoolean,
    authorized: looseBoolean,
    message: looseString,
    reference: looseString,
    currency: looseString,
    settlement_date: looseString,
    transaction_date: looseString,
    source: looseString,
    card_type: beyondContract,
    card_category: beyondContract,
    card_subcategory: beyondContract,
    transaction_id: beyondContract,
    response_code: beyondContract,
    /** False for an authorization not yet captured (gateway-beyond.md §1). */
    captured: looseBoolean,
    /** What was captured: less than `amount` after a partial capture, 0 once voided. */
    captured_amount: maybe(z.number()),
    rrn: looseString,
    cvv_match: beyondContract,
    /** The merchant's keys and the gateway's own (`original_amount` after an increment): text values, but any passes. */
    metadata: maybe(z.record(z.string(), z.unknown())),
    addendum_data: beyondContract,
  }),
)
export type Purchase = z.infer<typeof Purchase>

/** Either the card details group or card_token (a token or alias), per the contract §2.3. */
export const PurchaseCreate = lazily(() =>
  z.object({
    amount: amountField,
    reference: requiredText,
    currency: currencyField.optional(),
    customer_ip: requiredText.optional(),
    card_holder: requiredText.optional(),
    card_number: cardNumberField.optional(),
    card_expiry: cardExpiryField.optional(),
    cvv: cvvField.optional(),
    card_token: cardKeyField.optional(),
  }),
)
export type PurchaseCreate = z.infer<typeof PurchaseCreate>

/** The contract names the outcome `successful`; some responses call it `authorized`. */
export function isApproved(record: {successful?: boolean | null; authorized?: boolean | null}): boolean {
  return (record.successful ?? record.authorized) === true
}

