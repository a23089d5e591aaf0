import {lookUpCommand, MANY_RECORDS} from '../../cli/look-up-command.js'
import {subscriptionColumns} from '../../output/columns.js'

export default lookUpCommand('subscriptions', 'reference', {
  summary: 'Look subscriptions up by reference',
  description: `Takes one or more subscription references (the gateway looks subscriptions up by reference), or - to read them from stdin, one a line.
${MANY_RECORDS}`,
  examples: [
    '<%= config.bin %> <%= command.id %> sub-42',
    '<%= config.bin %> <%= command.id %> sub-42 sub-43 --json | jq -r .last_status',
  ],
}, subscriptionColumns)
