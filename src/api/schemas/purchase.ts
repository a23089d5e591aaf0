import * as z from 'zod'
import {lazily} from './lazy.js'
import {amountField, cardPaymentShape, requiredText} from './fields.js'
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
    ...cardPaymentShape(),
    /** False: an authorization, captured later (gateway-beyond.md §1). */
    capture: z.boolean().optional(),
  }),
)
export type PurchaseCreate = z.infer<typeof PurchaseCreate>

/** The contract names the outcome `successful`; some responses call it `authorized`. */
export function isApproved(record: {successful?: boolean | null; authorized?: boolean | null}): boolean {
  return (record.successful ?? record.authorized) === true
}


/** `POST /v1.0/purchases/{id}/capture`: the amount to capture, all of the authorization or less (gateway-beyond.md §2). */
export const PurchaseCapture = lazily(() => z.object({amount: amountField}))
export type PurchaseCapture = z.infer<typeof PurchaseCapture>

/** `PUT /v1.0/purchases/{id}` `{"amount": NEW_TOTAL}`: the new total authorized, not the increase (gateway-beyond.md §3). */
export const PurchaseIncrement = lazily(() => z.object({amount: amountField}))
export type PurchaseIncrement = z.infer<typeof PurchaseIncrement>

/** `PUT /v1.0/purchases/{id}` `{"extend": true}` (gateway-beyond.md §4). */
export const PurchaseExtend = lazily(() => z.object({extend: z.literal(true)}))
export type PurchaseExtend = z.infer<typeof PurchaseExtend>

/** `POST /v1.0/purchases/void` and `/v1.0/refunds/void`: the id in the body, as the vendor's Ruby library sends it (gateway-beyond.md §5, §6). */
export const VoidRequest = lazily(() => z.object({id: requiredText}))
export type VoidRequest = z.infer<typeof VoidRequest>
