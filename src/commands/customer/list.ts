import {Flags} from '@oclif/core'
import {listCommand} from '../../cli/list-command.js'
import * as gwFlags from '../../cli/flags.js'
import {customerColumns} from '../../output/columns.js'

export default listCommand(
  'customers',
  {
    summary: 'List customers, newest first; or find one by email',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest customers, or --limit N, or --all. --from and --to (when they were created) are sent to the gateway as whole days; --email and --reference are applied here, to each customer as it comes.`,
    examples: ['<%= config.bin %> <%= command.id %> --email jane@example.com', '<%= config.bin %> <%= command.id %> --from 7d', '<%= config.bin %> <%= command.id %> --all --json | jq -r .email'],
  },
  {
    email: Flags.string({description: 'only the customer with this email address, in any case', helpGroup: 'FILTERS'}),
    reference: gwFlags.referenceFilter('customer'),
  },
  customerColumns,
)
