import {checkCardDetails, newCardRecord, type CardDetails} from '../cards.js'
import {formatDate, formatDateTime} from '../clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest} from '../errors.js'
import {pathParam, type MerchantRequest, type RouteResult} from '../http.js'
import {blankMessage, isBlank, readFields, type Fields} from '../input.js'
import {CUSTOMER_FIELDS, echo, type AddressFields, type CustomerRecord} from '../records.js'

const CUSTOMER_INPUT = {
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
const NOT_FOUND = 'Record not found'

type CustomerInput = Fields<typeof CUSTOMER_INPUT>

/** GET, PUT and DELETE answer without the address; only creation shows it (contract §4). */
function withoutAddress(customer: CustomerRecord): Omit<CustomerRecord, 'address'> {
  const {address: _address, ...rest} = customer
  return rest
}

function readAddress(input: Record<string, unknown> | undefined, current?: AddressFields): AddressFields {
  const given = readFields(input ?? {}, ADDRESS_INPUT)
  const field = (name: keyof AddressFields) => given[name] ?? current?.[name] ?? null
  return {address: field('address'), city: field('city'), state: field('state'), postcode: field('postcode'), country: field('country')}
}

/**
 * The card group, checked as a purchase's card is (Luhn, expiry); the holder defaults to the
 * customer's name. The CVV is checked and then forgotten.
 */
function readCard(input: Record<string, unknown> | undefined, name: string, today: string): {errors: string[]; details?: CardDetails} {
  const card = readFields(input ?? {}, CARD_INPUT)
  const holder = isBlank(card.card_holder) ? name : card.card_holder
  const cvv = isBlank(card.cvv) ? undefined : card.cvv
  const {errors, details} = checkCardDetails({card_number: card.card_number, card_holder: holder, card_expiry: card.expiry_date, cvv}, today)
  return cvv === undefined ? {errors: [...errors, blankMessage('cvv')]} : {errors, details}
}

/** Problems of the customer's own fields: blanks, a reference the merchant already used. The gateway does not check an email's shape. */
function fieldProblems(ctx: SandboxContext, merchant: string, customer: Partial<CustomerRecord>, ownId: string | null): string[] {
  const taken = customer.reference ? ctx.store.find('customers', merchant, customer.reference) : undefined
  return [
    ...REQUIRED.map((field) => (isBlank(customer[field]) ? blankMessage(field) : undefined)),
    taken?.found === 'own' && taken.record.id !== ownId ? 'Reference has already been taken' : undefined,
  ].filter((error) => error !== undefined)
}

const scalarFields = (fields: CustomerInput) => ({
  first_name: fields.first_name,
  last_name: fields.last_name,
  reference: fields.reference,
  email: fields.email,
  ip_address: fields.ip_address,
})

/** Creation tokenizes the card; a refusal echoes the request with null id and created_at (contract §2.6). */
export function createCustomer({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const fields = readFields(input, CUSTOMER_INPUT)
  const given = scalarFields(fields)
  const address = readAddress(fields.address)
  const name = `${fields.first_name ?? ''} ${fields.last_name ?? ''}`.trim()
  const card = readCard(fields.card, name, formatDate(ctx.clock.now()))
  const errors = [...fieldProblems(ctx, merchant, given, null), ...card.errors]
  if (errors.length > 0 || !card.details) throw badRequest(errors, {...echo(CUSTOMER_FIELDS, given), address})
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
  return {status: 201, response: customer}
}

export function getCustomer(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: withoutAddress(ctx.store.get('customers', request.merchant, pathParam(request, 'key'), NOT_FOUND))}
}

/**
 * Any field may change; a new card is tokenized and replaces the old token. A refusal answers
 * with the record as the request would have left it, blank value included, and saves nothing.
 */
export function updateCustomer(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {merchant} = request
  const customer = ctx.store.get('customers', merchant, pathParam(request, 'key'), NOT_FOUND)
  const fields = readFields(request.input, CUSTOMER_INPUT)
  const given = Object.fromEntries(Object.entries(scalarFields(fields)).filter(([, value]) => value !== undefined))
  const changed: CustomerRecord = {...customer, ...given, address: readAddress(fields.address, customer.address)}
  const name = `${changed.first_name} ${changed.last_name}`.trim()
  const card = fields.card === undefined ? undefined : readCard(fields.card, name, formatDate(ctx.clock.now()))
  const errors = [...fieldProblems(ctx, merchant, changed, customer.id), ...(card?.errors ?? [])]
  if (errors.length > 0) throw badRequest(errors, withoutAddress(changed))
  if (card?.details) {
    const tokenized = newCardRecord(card.details)
    ctx.store.save('cards', merchant, tokenized)
    changed.card_token = tokenized.token
  }
  ctx.store.save('customers', merchant, changed)
  return {status: 200, response: withoutAddress(changed)}
}

/** A deleted customer cannot be billed: its subscriptions stop. */
export function deleteCustomer(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {merchant} = request
  const customer = ctx.store.get('customers', merchant, pathParam(request, 'key'), NOT_FOUND)
  for (const subscription of ctx.store.related('subscriptions', merchant, 'customer', customer.id)) {
    if (subscription.is_active) {
      ctx.store.save('subscriptions', merchant, {...subscription, is_active: false})
    }
  }
  ctx.store.remove('customers', merchant, customer)
  return {status: 200, response: withoutAddress(customer)}
}
