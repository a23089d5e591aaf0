import {checkCardDetails, newCardRecord, type CardDetails} from './card.js'
import {formatDate, formatDateTime} from './clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest} from './errors.js'
import {blankMessage, isBlank, readFields, type Fields} from './input.js'
import {CUSTOMER_FIELDS, echo, type AddressFields, type CustomerRecord} from './records.js'

export const CUSTOMER_INPUT = {
  first_name: 'string',
  last_name: 'string',
  reference: 'string',
  email: 'string',
  ip_address: 'string',
  card: 'object',
  address: 'object',
} as const
const CARD_INPUT = {card_holder: 'string', card_number: 'string', expiry_date: 'string', cvv: 'string'} as const
const ADDRESS_INPUT = {address: 'string', city: 'string', state: 'string', postcode: 'string', country: 'string'} as const
const REQUIRED = ['first_name', 'last_name', 'reference', 'email'] as const
const NO_CARD = blankMessage('card')

type CustomerInput = Fields<typeof CUSTOMER_INPUT>

/**
 * A customer as the live gateway answers it: with what every live customer record carries where
 * the contract is silent (gateway-notes.md: its card's masked number, `bank_account` and
 * `metadata` null; the vendor's Ruby library fails on a record without `bank_account`; and
 * `sdk_ready` true, as the latest recorded build sends it, Rb:PaymentPlan 2022-10-06), and its
 * address, which the contract's dialect shows on creation only (dialect.ts).
 */
export function customerView(ctx: SandboxContext, merchant: string, customer: CustomerRecord) {
  const card = ctx.store.find('cards', merchant, customer.card_token)
  // The gateway keeps an `ip_address` it is given, but no recorded answer shows one.
  const {ip_address: _kept, ...shown} = customer
  return {...shown, card_number: card.found === 'own' ? card.record.card_number : null, bank_account: null, metadata: null, sdk_ready: true}
}

export function readAddress(input: Record<string, unknown> | undefined, current?: AddressFields): AddressFields {
  const given = readFields(input ?? {}, ADDRESS_INPUT)
  const field = (name: keyof AddressFields) => given[name] ?? current?.[name] ?? null
  return {address: field('address'), city: field('city'), state: field('state'), postcode: field('postcode'), country: field('country')}
}

/**
 * The card group, checked as a purchase's card is (Luhn, expiry); the holder defaults to the
 * customer's name. The CVV must be given; it is not judged, and never kept. No card at all is one
 * problem, `Card can't be blank` in the interface's form (the live dialect's words are dialect.ts's).
 */
export function readCard(input: Record<string, unknown> | undefined, name: string, today: string): {errors: string[]; details?: CardDetails} {
  if (input === undefined) return {errors: [NO_CARD]}
  const card = readFields(input, CARD_INPUT)
  const holder = isBlank(card.card_holder) ? name : card.card_holder
  return checkCardDetails({card_number: card.card_number, card_holder: holder, card_expiry: card.expiry_date}, today, isBlank(card.cvv) ? blankMessage('cvv') : undefined)
}

/** Problems of the customer's own fields: blanks, a reference the merchant already used. The gateway does not check an email's shape. */
export function fieldProblems(ctx: SandboxContext, merchant: string, customer: Partial<CustomerRecord>, ownId: string | null): string[] {
  const taken = customer.reference ? ctx.store.find('customers', merchant, customer.reference) : undefined
  return [
    ...REQUIRED.map((field) => (isBlank(customer[field]) ? blankMessage(field) : undefined)),
    taken?.found === 'own' && taken.record.id !== ownId ? 'Reference has already been taken' : undefined,
  ].filter((error) => error !== undefined)
}

export const scalarFields = (fields: CustomerInput) => ({
  first_name: fields.first_name,
  last_name: fields.last_name,
  reference: fields.reference,
  email: fields.email,
  ip_address: fields.ip_address,
})

/** Creation tokenizes the card; a refusal echoes the request with null id and created_at (contract §2.6). */
export function addCustomer(ctx: SandboxContext, merchant: string, input: Record<string, unknown>): CustomerRecord {
  const fields = readFields(input, CUSTOMER_INPUT)
  const given = scalarFields(fields)
  const address = readAddress(fields.address)
  const name = `${fields.first_name ?? ''} ${fields.last_name ?? ''}`.trim()
  const card = readCard(fields.card, name, formatDate(ctx.clock.now()))
  const errors = [...fieldProblems(ctx, merchant, given, null), ...card.errors]
  if (errors.length > 0 || !card.details) {
    const {ip_address: _kept, ...shown} = given
    throw badRequest(errors, {...echo(CUSTOMER_FIELDS, shown), address, card_number: null, bank_account: null, metadata: null})
  }
  const tokenized = newCardRecord(card.details)
  const customer: CustomerRecord = {
    id: ctx.newId(merchant, 'C'),
    reference: given.reference as string,
    first_name: given.first_name as string,
    last_name: given.last_name as string,
    email: given.email as string,
    ip_address: given.ip_address ?? null,
    created_at: formatDateTime(ctx.clock.now()),
    card_token: tokenized.token,
    address,
  }
  ctx.store.save('cards', merchant, tokenized)
  ctx.store.save('customers', merchant, customer)
  return customer
}

