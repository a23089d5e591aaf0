import * as z from 'zod'
import {lazily} from './lazy.js'
import {cardExpiryField, cardNumberField, cvvField, requiredText} from './fields.js'
import {looseBoolean, looseInt, looseString, recordCardNumber} from './common.js'

export const Card = lazily(() =>
  z.looseObject({
    token: looseString,
    card_holder: looseString,
    card_number: recordCardNumber,
    card_expiry: looseString,
    card_type: looseString,
    card_category: looseString,
    card_subcategory: looseString,
    card_issuer: looseString,
    card_country: looseString,
    authorized: looseBoolean,
    transaction_count: looseInt,
    alias: looseString,
  }),
)
export type Card = z.infer<typeof Card>

export const CardTokenize = lazily(() =>
  z.object({
    card_number: cardNumberField,
    card_holder: requiredText,
    card_expiry: cardExpiryField,
    cvv: cvvField,
  }),
)
export type CardTokenize = z.infer<typeof CardTokenize>

export const CardUpdate = lazily(() =>
  z
    .object({
      alias: requiredText.optional(),
      card_expiry: cardExpiryField.optional(),
    })
    .refine((body) => body.alias !== undefined || body.card_expiry !== undefined, 'give alias or card_expiry'),
)
export type CardUpdate = z.infer<typeof CardUpdate>
