import type {CustomerCard, CustomerCreate, CustomerUpdate} from '../api/schemas/customer.js'
import type {CardDetails, Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'

/** A customer's fields as the flags name them; every one optional, as an update sends only those given. */
export interface CustomerFields {
  'first-name'?: string
  'last-name'?: string
  reference?: string
  email?: string
  'ip-address'?: string
  'card-holder'?: string
  'card-number'?: string
  'card-expiry'?: string
  cvv?: string
  address?: string
  city?: string
  state?: string
  postcode?: string
  country?: string
}

const ADDRESS_FIELDS = ['address', 'city', 'state', 'postcode', 'country'] as const

/** The fields given, in the contract's shape: card and address nested, absent ones left out. */
export function customerChanges(fields: CustomerFields): CustomerUpdate {
  const name = [fields['first-name'], fields['last-name']].filter((part) => part !== undefined && part !== '').join(' ')
  const address = Object.fromEntries(ADDRESS_FIELDS.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]]))
  const top = {first_name: fields['first-name'], last_name: fields['last-name'], reference: fields.reference, email: fields.email, ip_address: fields['ip-address']}
  return {
    ...Object.fromEntries(Object.entries(top).filter(([, value]) => value !== undefined)),
    ...(fields['card-number'] === undefined ? {} : {card: card(fields, name)}),
    ...(Object.keys(address).length === 0 ? {} : {address}),
  }
}

export function customerBody(fields: CustomerFields & Required<Pick<CustomerFields, 'first-name' | 'last-name' | 'reference' | 'email' | 'card-number' | 'card-expiry' | 'cvv'>>): CustomerCreate {
  const changes = customerChanges(fields)
  return {...changes, first_name: fields['first-name'], last_name: fields['last-name'], reference: fields.reference, email: fields.email, card: changes.card!}
}

/** A card read by GwCommand.card (flags, stdin JSON or a prompt) as the fields it stands for. */
function cardFields(card: CardDetails): {'card-holder': string; 'card-number': string; 'card-expiry': string; cvv?: string} {
  return {'card-holder': card.card_holder, 'card-number': card.card_number, 'card-expiry': card.card_expiry, cvv: card.cvv}
}

/** The card holder defaults to the customer's name, which is what the gateway assumes too. */
function card(fields: CustomerFields, name: string): CustomerCard {
  const holder = fields['card-holder'] || (name === '' ? undefined : name)
  return {
    ...(holder === undefined ? {} : {card_holder: holder}),
    card_number: fields['card-number']!,
    expiry_date: fields['card-expiry']!,
    cvv: fields.cvv!,
  }
}

export type NewCustomer = Required<Pick<CustomerFields, 'first-name' | 'last-name' | 'reference' | 'email'>> & CustomerFields

/** A customer with a stored card; the gateway needs the card's CVV to store it. */
export async function createCustomer(fields: NewCustomer, card: CardDetails & {cvv: string}, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.customers.create(customerBody({...fields, ...cardFields(card), cvv: card.cvv}))
}

/** Sends only the fields given; a new card comes whole. */
export async function updateCustomer(id: string, fields: CustomerFields, newCard: CardDetails | undefined, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  const changes = customerChanges(newCard ? {...fields, ...cardFields(newCard), 'card-holder': newCard.card_holder || fields['card-holder']} : fields)
  return client.customers.update(id, changes)
}

export async function deleteCustomer(id: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.customers.delete(id)
}
