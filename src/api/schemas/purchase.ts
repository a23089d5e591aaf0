import * as z from 'zod'
import {beyondContract, looseBoolean, looseString, maybe, stringOrNumber} from './common.js'

export const Purchase = z.looseObject({
  id: looseString,
  authorization: stringOrNumber,
  card_number: looseString,
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
  captured: beyondContract,
  captured_amount: beyondContract,
  rrn: beyondContract,
  cvv_match: beyondContract,
  metadata: beyondContract,
  addendum_data: beyondContract,
})
export type Purchase = z.infer<typeof Purchase>

/** Either the card details group or card_token (a token or alias), per the contract §2.3. */
export const PurchaseCreate = z.object({
  amount: z.number().int(),
  reference: z.string(),
  currency: z.string().optional(),
  customer_ip: z.string().optional(),
  card_holder: z.string().optional(),
  card_number: z.string().optional(),
  card_expiry: z.string().optional(),
  cvv: z.string().optional(),
  card_token: z.string().optional(),
})
export type PurchaseCreate = z.infer<typeof PurchaseCreate>

/** The contract names the outcome `successful`; some responses call it `authorized`. */
export function isApproved(record: {successful?: boolean | null; authorized?: boolean | null}): boolean {
  return (record.successful ?? record.authorized) === true
}

