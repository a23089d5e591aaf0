import {Args} from '@oclif/core'
import {subscriptionColumns} from '../../output/columns.js'
import {readIds} from '../../batch/input.js'
import {GwCommand} from '../../gw-command.js'

export default class SubscriptionGet extends GwCommand {
  static override summary = 'Look subscriptions up by reference'
  static override description = `Takes one or more subscription references (the gateway looks subscriptions up by reference), or - to read them from stdin, one a line.
Several references print one JSON object per line when piped or with --json; a failed look-up is reported and the rest still run.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> sub-42',
    '<%= config.bin %> <%= command.id %> sub-42 sub-43 --json | jq -r .last_status',
  ]

  static override strict = false
  static override args = {
    reference: Args.string({description: 'subscription reference; - reads them from stdin', required: true}),
  }

  static override columns = subscriptionColumns

  async run() {
    const {argv} = await this.parse(SubscriptionGet)
    const {ids, batch} = await readIds(argv as string[], this.io, 'reference')
    const client = await this.client()
    return this.each(ids, batch, (reference) => client.subscriptions.get(reference))
  }
}
