import {z} from 'zod'
import {type Column, looseBoolean, looseString, maybe, stringOrNumber} from './common.js'

/** `amount` is negative in the contract and positive from the live gateway: both are accepted. */
export const Refund = z.looseObject({
  id: looseString,
  authorization: stringOrNumber,
  amount: maybe(z.number()),
  refunded: looseString,
  message: looseString,
  card_holder: looseString,
  card_number: looseString,
  card_expiry: looseString,
  card_type: looseString,
  successful: looseBoolean,
  transaction_date: looseString,
  response_code: looseString,
})
export type Refund = z.infer<typeof Refund>

export const RefundCreate = z.object({
  transaction_id: z.string(),
  amount: z.number().int(),
  reference: z.string(),
})
export type RefundCreate = z.infer<typeof RefundCreate>

export const refundColumns: Column[] = [
  {label: 'Id', field: 'id'},
  {label: 'Outcome', field: 'message', format: 'outcome'},
  {label: 'Amount', field: 'amount', format: 'money'},
  {label: 'Reference', field: 'reference'},
  {label: 'Purchase', field: 'transaction_id'},
  {label: 'Authorization', field: 'authorization'},
  {label: 'Card holder', field: 'card_holder'},
  {label: 'Card number', field: 'card_number'},
  {label: 'Card type', field: 'card_type'},
  {label: 'Transaction date', field: 'transaction_date'},
  {label: 'Response code', field: 'response_code'},
]
