import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {subscriptionColumns} from '../../output/columns.js'

export default class SubscriptionGet extends GwCommand {
  static override summary = 'Look subscriptions up by reference'
  static override description = `Takes one or more subscription references (the gateway looks subscriptions up by reference), or - to read them from stdin, one a line.
Piped, each record prints as one JSON line; on a terminal several print as one table, or with --json as the same records pretty-printed one after another (jq -s makes an array). A failed look-up is reported and the rest still run.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> sub-42',
    '<%= config.bin %> <%= command.id %> sub-42 sub-43 --json | jq -r .last_status',
  ]

  static override strict = false
  static override args = gwFlags.ids('reference', 'subscription reference')
  static override flags = gwFlags.lookUps('subscription references')

  static override columns = subscriptionColumns

  async run() {
    const {argv, flags} = await this.parse(SubscriptionGet)
    return this.lookUpAll('subscriptions', argv as string[], 'reference', flags)
  }
}
