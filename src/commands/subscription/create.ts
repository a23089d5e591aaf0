import {Flags} from '@oclif/core'
import {subscriptionColumns} from '../../output/columns.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {SubscriptionInput} from '../../operations/subscriptions.js'

export default class SubscriptionCreate extends GwCommand<SubscriptionInput> {
  static override summary = "Subscribe a customer to a plan, billing the customer's stored card"
  static override description = `From --start-date the gateway bills the plan's amount at --frequency on the customer's stored card, retrying a failed charge up to three times.
The customer and the plan may be given by id or by your reference. --inactive creates it stopped (gw subscription update --active starts it).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --customer cust-42 --plan gold-monthly --frequency monthly --start-date 2030-01-01 --reference sub-42',
    '<%= config.bin %> <%= command.id %> --customer "$(<%= config.bin %> customer get cust-42 --json | jq -r .id)" --plan "$(<%= config.bin %> plan get basic --json | jq -r .id)" --frequency Weekly --start-date 2030-01-01 --reference sub-43 --inactive --json',
  ]

  static override flags = {
    customer: gwFlags.requiredText({description: 'customer id or reference', required: true}),
    plan: gwFlags.requiredText({description: 'plan id or reference', required: true}),
    frequency: gwFlags.frequency({required: true}),
    'start-date': gwFlags.date({description: 'first billing date as YYYY-MM-DD', required: true}),
    reference: gwFlags.requiredText({description: 'your reference for the subscription, unique; used to look it up', required: true}),
    inactive: Flags.boolean({description: 'create it stopped: nothing is billed until it is made active'}),
  }

  static override columns = subscriptionColumns

  protected async input(): Promise<SubscriptionInput> {
    const {flags} = await this.parse(SubscriptionCreate)
    return {customer: flags.customer, plan: flags.plan, frequency: flags.frequency, startDate: flags['start-date'], reference: flags.reference, active: !flags.inactive}
  }

  protected async operate(input: SubscriptionInput) {
    const {createSubscription} = await import('../../operations/subscriptions.js')
    return createSubscription(input, await this.factory.deps())
  }
}
