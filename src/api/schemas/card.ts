import * as z from 'zod'
import {looseBoolean, looseInt, looseString} from './common.js'

export const Card = z.looseObject({
  token: looseString,
  card_holder: looseString,
  card_number: looseString,
  card_expiry: looseString,
  card_type: looseString,
  card_category: looseString,
  card_subcategory: looseString,
  card_issuer: looseString,
  card_country: looseString,
  authorized: looseBoolean,
  transaction_count: looseInt,
  alias: looseString,
})
export type Card = z.infer<typeof Card>

export const CardTokenize = z.object({
  card_number: z.string(),
  card_holder: z.string(),
  card_expiry: z.string(),
  cvv: z.string(),
})
export type CardTokenize = z.infer<typeof CardTokenize>

export const CardUpdate = z
  .object({
    alias: z.string().optional(),
    card_expiry: z.string().optional(),
  })
  .refine((body) => body.alias !== undefined || body.card_expiry !== undefined, 'give alias or card_expiry')
export type CardUpdate = z.infer<typeof CardUpdate>
