import * as z from 'zod'
import {looseString, maybe} from './common.js'

export const Address = z.looseObject({
  address: looseString,
  city: looseString,
  state: looseString,
  postcode: looseString,
  country: looseString,
})
export type Address = z.infer<typeof Address>

/** GET answers without the address; creation answers with it (contract §2.6). */
export const Customer = z.looseObject({
  id: looseString,
  email: looseString,
  reference: looseString,
  first_name: looseString,
  last_name: looseString,
  created_at: looseString,
  card_token: looseString,
  ip_address: looseString,
  address: maybe(Address),
})
export type Customer = z.infer<typeof Customer>

export const CustomerCard = z.object({
  card_holder: z.string().optional(),
  card_number: z.string(),
  expiry_date: z.string(),
  cvv: z.string(),
})
export type CustomerCard = z.infer<typeof CustomerCard>

const AddressBody = z.object({
  address: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  postcode: z.string().optional(),
  country: z.string().optional(),
})

export const CustomerCreate = z.object({
  first_name: z.string(),
  last_name: z.string(),
  reference: z.string(),
  email: z.string(),
  ip_address: z.string().optional(),
  card: CustomerCard,
  address: AddressBody.optional(),
})
export type CustomerCreate = z.infer<typeof CustomerCreate>

/** Any customer field may change; the card as a whole when it does. */
export const CustomerUpdate = z
  .object({
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    reference: z.string().optional(),
    email: z.string().optional(),
    ip_address: z.string().optional(),
    card: CustomerCard.optional(),
    address: AddressBody.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'give at least one field to change')
export type CustomerUpdate = z.infer<typeof CustomerUpdate>
