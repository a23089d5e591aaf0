import {listCommand} from '../../cli/list-command.js'
import * as gwFlags from '../../cli/flags.js'
import {webHookColumns} from '../../output/columns.js'

export default listCommand(
  'webHooks',
  {
    summary: 'List the registered web hooks, newest first',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest web hooks, or --limit N, or --all; --oldest-first turns the order. A table on a terminal, one JSON line a web hook when piped. Passwords set with --auth are never shown.
Web hooks carry no dates, so gw reads the gateway's order from the hooks it made itself (gw webhook create, gw listen): two of them on the list show it, and gw keeps it for that gateway and merchant.
Until then gw assumes oldest first, as most recorded gateways list them, and says so under the table.`,
    examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --all --json | jq -r .id'],
  },
  {},
  webHookColumns,
)
