import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {customerColumns} from '../../output/columns.js'
import {customerExtraFlags} from './create.js'
import {ownFlags} from '../../cli/global-flags.js'
import type {CustomerFields} from '../../operations/customers.js'
import type {CardDetails} from '../../operations/deps.js'

/** The customer, the fields given, and a new card when one was given. */
interface CustomerChanges {
  id: string
  fields: CustomerFields
  card?: CardDetails
}

const FIELDS = ['first-name', 'last-name', 'reference', 'email', 'card-number', 'card', ...Object.keys(customerExtraFlags)]

export default class CustomerUpdate extends GwCommand<CustomerChanges> {
  static override summary = "Change a customer's details or stored card"
  static override description = `Sends only the fields given. A new card comes whole: --card-number, --card-expiry and --cvv together.
A required field sent blank is refused by the gateway (exit 7), which answers with the record holding the blank value.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> cust-42 --email jane.citizen@example.com',
    '<%= config.bin %> <%= command.id %> cust-42 --card-number 5123456789012346 --card-expiry 05/2031 --cvv 123 --json',
  ]

  static override args = {
    id: gwFlags.id('id or reference of the customer'),
  }

  static override flags = {
    'first-name': gwFlags.requiredText({description: "customer's first name", atLeastOne: FIELDS}),
    'last-name': gwFlags.requiredText({description: "customer's last name"}),
    reference: gwFlags.requiredText({description: 'your reference for the customer, unique'}),
    email: gwFlags.email({description: "customer's email address, for receipts"}),
    'card-holder': gwFlags.cardHolder({description: "name on the new card, when not the customer's name", dependsOn: ['card-number']}),
    'card-number': gwFlags.cardNumber({description: 'number of the new card (only ever shown masked)', dependsOn: ['card-expiry', 'cvv']}),
    'card-expiry': gwFlags.cardExpiry({description: 'expiry of the new card as MM/YY or MM/YYYY', dependsOn: ['card-number']}),
    cvv: gwFlags.cvv({dependsOn: ['card-number']}),
    card: gwFlags.card(),
    ...customerExtraFlags,
  }

  static override columns = customerColumns

  protected async input(): Promise<CustomerChanges> {
    const {args, flags} = await this.parse(CustomerUpdate)
    // A new card goes through the same door as any card: refused from argv on a live profile.
    const {cardFor} = await import('../../cli/card-input.js')
    const card = flags['card-number'] !== undefined || flags.card !== undefined ? await cardFor(flags, this.factory, {holderOptional: true}) : undefined
    // A new card travels whole: its flags are in it (but for a holder it may leave to the customer's name).
    const {card: _stdin, 'card-number': _number, 'card-expiry': _expiry, cvv: _cvv, ...fields} = ownFlags(flags)
    return {id: args.id, fields, card}
  }

  protected async operate({id, fields, card}: CustomerChanges) {
    const [{updateCustomer}, {changeRecord}] = await Promise.all([import('../../operations/customers.js'), import('../../cli/resolve-key.js')])
    return changeRecord(this.factory, 'customers', id, (customerId, deps) => updateCustomer(customerId, fields, card, deps))
  }
}
