import * as z from 'zod'
import {lazily} from './lazy.js'
import {cardExpiryField, cardNumberField, cvvField, emailField, optionalText, requiredText} from './fields.js'
import {looseString, maybe} from './common.js'

export const Address = lazily(() =>
  z.looseObject({
    address: looseString,
    city: looseString,
    state: looseString,
    postcode: looseString,
    country: looseString,
  }),
)
export type Address = z.infer<typeof Address>

/** GET answers without the address; creation answers with it (contract §2.6). */
export const Customer = lazily(() =>
  z.looseObject({
    id: looseString,
    email: looseString,
    reference: looseString,
    first_name: looseString,
    last_name: looseString,
    created_at: looseString,
    card_token: looseString,
    ip_address: looseString,
    address: maybe(Address),
  }),
)
export type Customer = z.infer<typeof Customer>

export const CustomerCard = lazily(() =>
  z.object({
    card_holder: requiredText.optional(),
    card_number: cardNumberField,
    expiry_date: cardExpiryField,
    cvv: cvvField,
  }),
)
export type CustomerCard = z.infer<typeof CustomerCard>

const AddressBody = lazily(() =>
  z.object({
    address: optionalText.optional(),
    city: optionalText.optional(),
    state: optionalText.optional(),
    postcode: optionalText.optional(),
    country: optionalText.optional(),
  }),
)

export const CustomerCreate = lazily(() =>
  z.object({
    first_name: requiredText,
    last_name: requiredText,
    reference: requiredText,
    email: emailField,
    ip_address: optionalText.optional(),
    card: CustomerCard,
    address: AddressBody.optional(),
  }),
)
export type CustomerCreate = z.infer<typeof CustomerCreate>

/** Any customer field may change; the card as a whole when it does. */
export const CustomerUpdate = lazily(() =>
  z
    .object({
      first_name: requiredText.optional(),
      last_name: requiredText.optional(),
      reference: requiredText.optional(),
      email: emailField.optional(),
      ip_address: optionalText.optional(),
      card: CustomerCard.optional(),
      address: AddressBody.optional(),
    })
    .refine((body) => Object.values(body).some((value) => value !== undefined), 'give at least one field to change'),
)
export type CustomerUpdate = z.infer<typeof CustomerUpdate>
