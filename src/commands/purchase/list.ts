import {listCommand} from '../../cli/list-command.js'
import {duplicateCharges} from '../../cli/duplicate-flags.js'
import * as gwFlags from '../../cli/flags.js'
import {purchaseListColumns} from '../../output/columns.js'

export default listCommand(
  'purchases',
  {
    summary: 'List purchases, newest first: of a day, a card, an amount, an outcome',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest purchases, or --limit N, or --all; --oldest-first turns the order. --from and --to are sent to the gateway, as whole days; every other filter is applied here, to each purchase as it comes.
Piped, one JSON line a purchase as the pages arrive; on a terminal a table with the date, reference, amount, outcome, card (its last four) and holder, and a line saying how many were shown.
--duplicates finds likely duplicate charges ("I was charged twice"): approved purchases on one card, of one amount and currency, each within --within (10m) of the one before, in groups.
Declined and voided purchases took nothing, so --duplicates counts them only when --status names them. It reads today, or the window given, and --within more on each side; --limit counts groups.
At a terminal each group is a table under a line saying what its charges share. Piped, each purchase carries gw_duplicates: its group (the first charge's id), how many charges, and the seconds from first to last.`,
    examples: [
      '<%= config.bin %> <%= command.id %> --status declined --from today',
      '<%= config.bin %> <%= command.id %> --card 4242 --from 2026-11-17 --to 2026-11-17',
      '<%= config.bin %> <%= command.id %> --reference order-1042',
      '<%= config.bin %> <%= command.id %> --all --from 7d | jq -r .id',
      {description: '"I was charged twice": charges on one card, of one amount, minutes apart', command: '<%= config.bin %> <%= command.id %> --duplicates --on tuesday --card 4242'},
      '<%= config.bin %> <%= command.id %> --duplicates --from 7d --within 1h | jq -r "[.gw_duplicates.group, .reference] | @tsv"',
    ],
  },
  {...gwFlags.moneyFilters, ...duplicateCharges},
  purchaseListColumns,
)
