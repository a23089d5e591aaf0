import {listCommand} from '../../cli/list-command.js'
import * as gwFlags from '../../cli/flags.js'
import {directDebitColumns} from '../../output/payment-columns.js'

export default listCommand(
  'directDebits',
  {
    summary: 'List direct debits, newest first, deleted ones among them',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest direct debits, or --limit N, or --all. --from, --to and --on are held to the day each goes to the bank (its date), which may be days after it was made. So the whole list is read and held to them.`,
    examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --all --json | jq -r \'select(.status == "Rejected") | .id\''],
  },
  {reference: gwFlags.referenceFilter('direct debit')},
  directDebitColumns,
  {timed: 'direct debits going to the bank'},
)
