import * as z from 'zod'
import {expiryAsSent} from './card-rules.js'
import {lazily} from './lazy.js'
import * as rules from './rules.js'

/**
 * Request fields as zod schemas, each checked by its rule (rules.ts) and worded by it, for the
 * request bodies and a fixtures file's steps. A check, not a transform: a body is sent as the
 * caller built it; but for an expiry, which people type as MM/YY and the gateway takes only as
 * MM/YYYY.
 */
function ruled<S extends z.ZodType>(schema: S, rule: (value: z.output<S>) => rules.Checked<unknown>): S {
  return schema.superRefine((value, check) => {
    const checked = rule(value)
    if ('problem' in checked) check.addIssue({code: 'custom', message: checked.problem})
  }) as S
}

export const amountField = lazily(() => ruled(z.number(), rules.amount))
/** Names, references, descriptions, ids: what the gateway refuses blank, or longer than it takes. */
export const requiredText = lazily(() => ruled(z.string(), rules.text))
/** Text the gateway takes blank, but no longer than any text (an address). */
export const optionalText = lazily(() => ruled(z.string(), rules.notTooLong))
export const cardNumberField = lazily(() => ruled(z.string(), rules.cardNumber))
export const cardKeyField = lazily(() => ruled(z.string(), rules.cardKey))
export const cardExpiryField = lazily(() => ruled(z.string(), (value) => rules.cardExpiry(value)).transform((value) => expiryAsSent(value) ?? value))
export const cvvField = lazily(() => ruled(z.string(), rules.cvv))
export const currencyField = lazily(() => ruled(z.string(), rules.currency))
/** A frequency in any case; the request body takes the gateway's spelling only (subscription.ts). */
export const frequencyField = lazily(() => ruled(z.string(), rules.frequency))
export const dateField = lazily(() => ruled(z.string(), rules.date))
export const emailField = lazily(() => ruled(z.string(), rules.email))
/** A merchant's metadata: keys and values as text, as the gateway echoes them (a nested value is refused). */
export const metadataField = lazily(() => z.record(z.string(), z.string()))

/** What a payment to a card sends (a purchase; an unmatched refund): an amount, its reference and currency, and the card in full or by token. */
export const cardPaymentShape = () => ({
  amount: amountField,
  reference: requiredText,
  currency: currencyField.optional(),
  customer_ip: requiredText.optional(),
  card_holder: requiredText.optional(),
  card_number: cardNumberField.optional(),
  card_expiry: cardExpiryField.optional(),
  cvv: cvvField.optional(),
  card_token: cardKeyField.optional(),
  /** The merchant's own keys, echoed back in the record (gateway-beyond.md §14.8). */
  metadata: metadataField.optional(),
})
