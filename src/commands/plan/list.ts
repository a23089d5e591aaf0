import {listCommand} from '../../cli/list-command.js'
import * as gwFlags from '../../cli/flags.js'
import {planColumns} from '../../output/columns.js'

export default listCommand(
  'plans',
  {
    summary: 'List plans, newest first',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest plans, or --limit N, or --all; --oldest-first turns the order. Piped, one JSON line a plan as the pages arrive; on a terminal a table.`,
    examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --limit 5 --oldest-first', '<%= config.bin %> <%= command.id %> --all --json | jq -r .reference'],
  },
  {reference: gwFlags.referenceFilter('plan')},
  planColumns,
)
