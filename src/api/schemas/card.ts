import {z} from 'zod'
import {type Column, looseBoolean, looseInt, looseString} from './common.js'

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

export const cardColumns: Column[] = [
  {label: 'Token', field: 'token'},
  {label: 'Alias', field: 'alias'},
  {label: 'Card holder', field: 'card_holder'},
  {label: 'Card number', field: 'card_number'},
  {label: 'Expiry', field: 'card_expiry', format: 'date'},
  {label: 'Type', field: 'card_type'},
  {label: 'Category', field: 'card_category'},
  {label: 'Issuer', field: 'card_issuer'},
  {label: 'Country', field: 'card_country'},
  {label: 'Transactions', field: 'transaction_count'},
]

/** The Luhn checksum every card number carries; shared by gw's local checks and its local gateway. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}
