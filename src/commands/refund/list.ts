import {Flags} from '@oclif/core'
import {listCommand} from '../../command/list-command.js'
import * as gwFlags from '../../flags.js'
import {refundColumns} from '../../output/columns.js'

export default listCommand(
  'refunds',
  {
    summary: 'List refunds, newest first; or the refunds of a purchase',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest refunds, or --limit N, or --all; --oldest-first turns the order. --from and --to are sent to the gateway, as whole days; every other filter is applied here.
A refund's record does not name its purchase: --purchase ID_OR_REFERENCE looks the purchase up and lists the refunds on its card (number and holder), of no more than its amount, made since it.`,
    examples: [
      '<%= config.bin %> <%= command.id %> --purchase order-1001',
      '<%= config.bin %> <%= command.id %> --from yesterday --to yesterday',
      '<%= config.bin %> <%= command.id %> --all --json | jq -s "map(.amount) | add"',
    ],
  },
  {
    ...gwFlags.moneyFilters,
    purchase: Flags.string({description: 'only refunds that can be of this purchase (its id or reference): its card, since it was made', helpGroup: 'FILTERS'}),
  },
  refundColumns,
)
