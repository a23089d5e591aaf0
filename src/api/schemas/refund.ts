import * as z from 'zod'
import {lazily} from './lazy.js'
import {amountField, cardPaymentShape, metadataField, requiredText} from './fields.js'
import {beyondContract, looseBoolean, looseString, maybe, recordCardNumber, stringOrNumber} from './common.js'

/** `amount` is negative in the contract and positive from the live gateway: both are accepted. */
export const Refund = lazily(() =>
  z.looseObject({
    id: looseString,
    authorization: stringOrNumber,
    amount: maybe(z.number()),
    refunded: looseString,
    message: looseString,
    card_holder: looseString,
    card_number: recordCardNumber,
    card_expiry: looseString,
    card_type: looseString,
    successful: looseBoolean,
    transaction_date: looseString,
    response_code: looseString,
    reference: looseString,
    transaction_id: beyondContract,
    currency: looseString,
    settlement_date: looseString,
    metadata: maybe(z.record(z.string(), z.unknown())),
    /** True for an unmatched refund, which names no purchase (gateway-beyond.md §7). */
    standalone: looseBoolean,
    rrn: looseString,
  }),
)
export type Refund = z.infer<typeof Refund>

export const RefundCreate = lazily(() =>
  z.object({
    transaction_id: requiredText,
    amount: amountField,
    reference: requiredText,
    metadata: metadataField.optional(),
  }),
)

/**
 * A refund to a card, naming no purchase (gateway-beyond.md §7): the card in full or a stored
 * card's token, for accounts the gateway lets make them.
 */
export const UnmatchedRefundCreate = lazily(() => z.object(cardPaymentShape()))
export type UnmatchedRefundCreate = z.infer<typeof UnmatchedRefundCreate>
export type RefundCreate = z.infer<typeof RefundCreate>

