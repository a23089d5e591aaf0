import type {CardFlags} from '../../cli/card-input.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {customerColumns} from '../../output/columns.js'
import {ownFlags} from '../../cli/global-flags.js'
import type {NewCustomer} from '../../operations/customers.js'
import type {CardDetails} from '../../operations/deps.js'

/** The customer's fields, and the card stored for it. */
interface NewCustomerInput {
  customer: NewCustomer
  card: CardDetails & {cvv: string}
}

/** Flags customer create and customer update share as they are: none required, none linked. */
export const customerExtraFlags = {
  'ip-address': gwFlags.text({description: "customer's IP address"}),
  address: gwFlags.text({description: 'street address', helpGroup: 'ADDRESS'}),
  city: gwFlags.text({description: 'city', helpGroup: 'ADDRESS'}),
  state: gwFlags.text({description: 'state', helpGroup: 'ADDRESS'}),
  postcode: gwFlags.text({description: 'postcode', helpGroup: 'ADDRESS'}),
  country: gwFlags.text({description: 'country', helpGroup: 'ADDRESS'}),
}

export default class CustomerCreate extends GwCommand<NewCustomerInput> {
  static override summary = 'Create a customer with a stored card, to subscribe to plans'
  static override description = `The gateway stores the card (checked as for a purchase) and answers with the customer, its card token and address.
The card holder defaults to the customer's name. The CVV is sent once and never stored.
On a live profile the card number and CVV are never taken from the command line: give them on a terminal when asked, or as JSON on stdin with --card -.`

  // oclif's own line joins every exclusive flag with |, as if the card's number, holder and expiry excluded each other: the ways to give a card, each whole.
  static override usage = [
    '<%= command.id %> --first-name NAME --last-name NAME --reference REF --email EMAIL --card-holder NAME --card-number NUMBER --card-expiry MM/YYYY --cvv CVV [flags]',
    '<%= command.id %> --first-name NAME --last-name NAME --reference REF --email EMAIL --card - [flags] < card.json',
  ]

  static override examples = [
    '<%= config.bin %> <%= command.id %> --first-name Jane --last-name Citizen --reference cust-42 --email jane@example.com --card-number 4242424242424242 --card-expiry 12/2030 --cvv 123',
    '<%= config.bin %> <%= command.id %> --first-name Jane --last-name Citizen --reference cust-43 --email jane@example.com --card-holder "J Citizen" --card-number 5123456789012346 --card-expiry 05/2031 --cvv 123 --city Sydney --country AU --json',
    '<%= config.bin %> <%= command.id %> --first-name Sam --last-name Lee --reference cust-44 --email sam@example.com --card - < card.json',
  ]

  static override flags = {
    'first-name': gwFlags.requiredText({description: "customer's first name", required: true}),
    'last-name': gwFlags.requiredText({description: "customer's last name", required: true}),
    reference: gwFlags.requiredText({description: 'your reference for the customer, unique; used to look it up', required: true}),
    email: gwFlags.email({description: "customer's email address, for receipts", required: true}),
    ...gwFlags.cardDetails,
    'card-holder': gwFlags.cardHolder({description: "name on the card, when not the customer's name"}),
    ...customerExtraFlags,
  }

  static override columns = customerColumns

  /** No terminal to ask on: the card left out is named with the flags left out. */
  protected override async alsoMissing(flags: CardFlags): Promise<string | undefined> {
    const {cardLeftOut} = await import('../../cli/card-input.js')
    return cardLeftOut(flags, {cvv: true})
  }

  protected async input(): Promise<NewCustomerInput> {
    const {flags} = await this.parse(CustomerCreate)
    const {cardFor, missingCard} = await import('../../cli/card-input.js')
    const card = await cardFor({...flags, 'card-holder': flags['card-holder'] ?? `${flags['first-name']} ${flags['last-name']}`}, this.factory)
    if (!card?.cvv) throw missingCard(this.factory.commandName, {cvv: true, why: "The gateway needs the CVV to store a customer's card."})
    // The card travels whole beside the customer: its flags are in it.
    const {card: _stdin, 'card-holder': _holder, 'card-number': _number, 'card-expiry': _expiry, cvv: _cvv, ...customer} = ownFlags(flags)
    return {customer, card: {...card, cvv: card.cvv}}
  }

  protected async operate({customer, card}: NewCustomerInput) {
    const {createCustomer} = await import('../../operations/customers.js')
    return createCustomer(customer, card, await this.factory.deps())
  }
}

