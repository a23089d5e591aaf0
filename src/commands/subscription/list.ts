import {Flags} from '@oclif/core'
import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {subscriptionColumns} from '../../output/columns.js'

export default class SubscriptionList extends GwCommand {
  static override summary = "List subscriptions, newest first: a customer's, a plan's, the active or stopped ones"
  static override description = `The ${gwFlags.DEFAULT_LIST_LIMIT} newest subscriptions, or --limit N, or --all. --from and --to (when they were created) are sent to the gateway as whole days; the other filters are applied here. --customer and --plan take an id or a reference.`

  static override examples = ['<%= config.bin %> <%= command.id %> --customer cust-42', '<%= config.bin %> <%= command.id %> --plan gold-monthly --active', '<%= config.bin %> <%= command.id %> --inactive --all']

  static override flags = {
    ...gwFlags.listing('subscription'),
    customer: Flags.string({description: "only this customer's (an id or a reference)", helpGroup: 'FILTERS'}),
    plan: Flags.string({description: "only this plan's (an id or a reference)", helpGroup: 'FILTERS'}),
    reference: Flags.string({description: 'only the subscription with this reference, exactly', helpGroup: 'FILTERS'}),
    active: Flags.boolean({description: 'only the active ones; --inactive for the stopped ones', allowNo: false, exclusive: ['inactive'], helpGroup: 'FILTERS'}),
    inactive: Flags.boolean({description: 'only the stopped ones', exclusive: ['active'], helpGroup: 'FILTERS'}),
  }

  static override columns = subscriptionColumns

  async run() {
    const {flags} = await this.parse(SubscriptionList)
    const active = flags.active ? true : flags.inactive ? false : undefined
    const {runList} = await import('../../lists/command.js')
    return runList('subscriptions', {...flags, active}, this.factory, 'subscription')
  }
}
