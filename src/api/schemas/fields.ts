import * as z from 'zod'
import {expiryAsSent} from './card-rules.js'
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

export const amountField = ruled(z.number(), rules.amount)
/** Names, references, descriptions, ids: what the gateway refuses blank, or longer than it takes. */
export const requiredText = ruled(z.string(), rules.text)
/** Text the gateway takes blank, but no longer than any text (an address). */
export const optionalText = ruled(z.string(), rules.notTooLong)
export const cardNumberField = ruled(z.string(), rules.cardNumber)
export const cardKeyField = ruled(z.string(), rules.cardKey)
export const cardExpiryField = ruled(z.string(), (value) => rules.cardExpiry(value)).transform((value) => expiryAsSent(value) ?? value)
export const cvvField = ruled(z.string(), rules.cvv)
export const currencyField = ruled(z.string(), rules.currency)
/** A frequency in any case; the request body takes the gateway's spelling only (subscription.ts). */
export const frequencyField = ruled(z.string(), rules.frequency)
export const dateField = ruled(z.string(), rules.date)
export const emailField = ruled(z.string(), rules.email)
