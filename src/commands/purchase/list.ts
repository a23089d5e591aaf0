import {listCommand} from '../../cli/list-command.js'
import * as gwFlags from '../../cli/flags.js'
import {purchaseColumns} from '../../output/columns.js'

export default listCommand(
  'purchases',
  {
    summary: 'List purchases, newest first: of a day, a card, an amount, an outcome',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest purchases, or --limit N, or --all; --oldest-first turns the order. --from and --to are sent to the gateway, as whole days; every other filter is applied here, to each purchase as it comes.
Piped, one JSON line a purchase as the pages arrive; on a terminal a table with the date, reference, amount, outcome, card (its last four) and holder, and a line saying how many were shown.`,
    examples: [
      '<%= config.bin %> <%= command.id %> --status declined --from today',
      '<%= config.bin %> <%= command.id %> --card 4242 --from 2026-11-17 --to 2026-11-17',
      '<%= config.bin %> <%= command.id %> --reference order-1042',
      '<%= config.bin %> <%= command.id %> --all --from 7d | jq -r .id',
    ],
  },
  gwFlags.moneyFilters,
  purchaseColumns,
)
