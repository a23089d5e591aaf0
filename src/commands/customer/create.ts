import type {CustomerCreate as CustomerBody, CustomerCard, CustomerUpdate as CustomerChanges} from '../../api/schemas/customer.js'
import {customerColumns} from '../../output/columns.js'
import type {CardDetails} from '../../card-input.js'
import {UsageError} from '../../errors.js'
import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'

/** Flags customer create and customer update share as they are: none required, none linked. */
export const customerExtraFlags = {
  'ip-address': gwFlags.text({description: "customer's IP address"}),
  address: gwFlags.text({description: 'street address', helpGroup: 'ADDRESS'}),
  city: gwFlags.text({description: 'city', helpGroup: 'ADDRESS'}),
  state: gwFlags.text({description: 'state', helpGroup: 'ADDRESS'}),
  postcode: gwFlags.text({description: 'postcode', helpGroup: 'ADDRESS'}),
  country: gwFlags.text({description: 'country', helpGroup: 'ADDRESS'}),
}

export interface CustomerFlagValues {
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
export function customerChanges(flags: CustomerFlagValues): CustomerChanges {
  const name = [flags['first-name'], flags['last-name']].filter((part) => part !== undefined && part !== '').join(' ')
  const address = Object.fromEntries(ADDRESS_FIELDS.filter((field) => flags[field] !== undefined).map((field) => [field, flags[field]]))
  const fields = {first_name: flags['first-name'], last_name: flags['last-name'], reference: flags.reference, email: flags.email, ip_address: flags['ip-address']}
  return {
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    ...(flags['card-number'] === undefined ? {} : {card: card(flags, name)}),
    ...(Object.keys(address).length === 0 ? {} : {address}),
  }
}

export function customerBody(flags: CustomerFlagValues & Required<Pick<CustomerFlagValues, 'first-name' | 'last-name' | 'reference' | 'email' | 'card-number' | 'card-expiry' | 'cvv'>>): CustomerBody {
  const changes = customerChanges(flags)
  return {...changes, first_name: flags['first-name'], last_name: flags['last-name'], reference: flags.reference, email: flags.email, card: changes.card!}
}

/** A card read by GwCommand.card (flags, stdin JSON or a prompt) as the flags it stands for. */
export function cardFlags(card: CardDetails): {'card-holder': string; 'card-number': string; 'card-expiry': string; cvv?: string} {
  return {'card-holder': card.card_holder, 'card-number': card.card_number, 'card-expiry': card.card_expiry, cvv: card.cvv}
}

/** The card holder defaults to the customer's name, which is what the gateway assumes too. */
function card(flags: CustomerFlagValues, name: string): CustomerCard {
  const holder = flags['card-holder'] ?? (name === '' ? undefined : name)
  return {
    ...(holder === undefined ? {} : {card_holder: holder}),
    card_number: flags['card-number']!,
    expiry_date: flags['card-expiry']!,
    cvv: flags.cvv!,
  }
}

export default class CustomerCreate extends GwCommand {
  static override summary = 'Create a customer with a stored card, to subscribe to plans'
  static override description = `The gateway stores the card (checked as for a purchase) and answers with the customer, its card token and address.
The card holder defaults to the customer's name. The CVV is sent once and never stored.
On a live profile the card number and CVV are never taken from the command line: give them on a terminal when asked, or as JSON on stdin with --card -.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --first-name Jane --last-name Citizen --reference cust-42 --email jane@example.com --card-number 4242424242424242 --card-expiry 12/2030 --cvv 123',
    '<%= config.bin %> <%= command.id %> --first-name Jane --last-name Citizen --reference cust-43 --email jane@example.com --card-holder "J Citizen" --card-number 5123456789012346 --card-expiry 05/2031 --cvv 123 --city Sydney --country AU --json',
  ]

  static override flags = {
    'first-name': gwFlags.text({description: "customer's first name", required: true}),
    'last-name': gwFlags.text({description: "customer's last name", required: true}),
    reference: gwFlags.text({description: 'your reference for the customer, unique; used to look it up', required: true}),
    email: gwFlags.email({description: "customer's email address, for receipts", required: true}),
    ...gwFlags.cardDetails,
    'card-holder': gwFlags.cardHolder({description: "name on the card, when not the customer's name"}),
    ...customerExtraFlags,
  }

  static override writes = true
  static override columns = customerColumns

  async run() {
    const {flags} = await this.parse(CustomerCreate)
    const card = await this.card({...flags, 'card-holder': flags['card-holder'] ?? `${flags['first-name']} ${flags['last-name']}`})
    if (!card?.cvv) throw new UsageError('give the card: --card-number, --card-expiry and --cvv, or --card - with the card as JSON on stdin', 'The gateway needs the CVV to store a customer\'s card.')
    const client = await this.client()
    return client.customers.create(customerBody({...flags, ...cardFlags(card), cvv: card.cvv}))
  }
}

