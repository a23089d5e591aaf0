import {Flags} from '@oclif/core'
import {listCommand} from '../../cli/list-command.js'
import * as gwFlags from '../../cli/flags.js'
import {subscriptionColumns} from '../../output/columns.js'

export default listCommand(
  'subscriptions',
  {
    summary: "List subscriptions, newest first: a customer's, a plan's, the active or stopped ones",
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest subscriptions, or --limit N, or --all. --from and --to (when they were created) are sent to the gateway as whole days; the other filters are applied here. --customer and --plan take an id or a reference.`,
    examples: ['<%= config.bin %> <%= command.id %> --customer cust-42', '<%= config.bin %> <%= command.id %> --plan gold-monthly --active', '<%= config.bin %> <%= command.id %> --inactive --all'],
  },
  {
    customer: Flags.string({description: "only this customer's (an id or a reference)", helpGroup: 'FILTERS'}),
    plan: Flags.string({description: "only this plan's (an id or a reference)", helpGroup: 'FILTERS'}),
    reference: gwFlags.referenceFilter('subscription'),
    active: Flags.boolean({description: 'only the active ones; --inactive for the stopped ones', allowNo: false, exclusive: ['inactive'], helpGroup: 'FILTERS'}),
    inactive: Flags.boolean({description: 'only the stopped ones', exclusive: ['active'], helpGroup: 'FILTERS'}),
  },
  subscriptionColumns,
)
