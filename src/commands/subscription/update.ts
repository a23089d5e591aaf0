import {Flags} from '@oclif/core'
import {subscriptionColumns} from '../../output/columns.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'

/** The subscription, and whether it bills from now on. */
interface SubscriptionState {
  id: string
  active: boolean
}

export default class SubscriptionUpdate extends GwCommand<SubscriptionState> {
  static override summary = 'Stop or resume a subscription'
  static override description = `--inactive stops billing; --active resumes it from the next due date (the days it was stopped are not billed).
To move a customer to another plan, stop this subscription and create a new one.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> sub-42 --inactive',
    '<%= config.bin %> <%= command.id %> sub-42 --active --json',
  ]

  static override args = {
    id: gwFlags.id('id or reference of the subscription'),
  }

  static override flags = {
    active: Flags.boolean({description: 'resume billing', exactlyOne: ['active', 'inactive']}),
    inactive: Flags.boolean({description: 'stop billing', exactlyOne: ['active', 'inactive']}),
  }

  static override columns = subscriptionColumns

  protected async input() {
    const {args, flags} = await this.parse(SubscriptionUpdate)
    return {id: args.id, active: flags.active === true}
  }

  protected async operate({id, active}: SubscriptionState) {
    const [{setSubscriptionActive}, {changeRecord}] = await Promise.all([import('../../operations/subscriptions.js'), import('../../cli/resolve-key.js')])
    return changeRecord(this.factory, 'subscriptions', id, (subscriptionId, deps) => setSubscriptionActive(subscriptionId, active, deps))
  }
}
