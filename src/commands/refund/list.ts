import {Flags} from '@oclif/core'
import {listCommand} from '../../cli/list-command.js'
import * as gwFlags from '../../cli/flags.js'
import {refundListColumns} from '../../output/columns.js'

export default listCommand(
  'refunds',
  {
    summary: 'List refunds, newest first; or the refunds of a purchase',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest refunds, or --limit N, or --all; --oldest-first turns the order. --from and --to are sent to the gateway, as whole days; every other filter is applied here.
A refund's record does not name its purchase: --purchase ID_OR_REFERENCE looks the purchase up and lists the refunds on its card (number and holder), of no more than its amount, made since it, best fit first. Each is marked, in the Match column with its reason, and in JSON as gw_match after the gateway's fields:
- certain: gw recorded making it for this purchase (a refund create of gw's, or a batch journal).
- likely: its reference derives from the purchase's (order-1001-R1), and it came after it.
- possible: the same card, after it.
- another purchase's, named: certain or likely for that one. A note on stderr counts them, and says the purchase was not refunded only when gw knows it.`,
    examples: [
      '<%= config.bin %> <%= command.id %> --purchase order-1001',
      '<%= config.bin %> <%= command.id %> --from yesterday --to yesterday',
      '<%= config.bin %> <%= command.id %> --all --json | jq -s "map(.amount) | add"',
    ],
  },
  {
    ...gwFlags.moneyFilters,
    purchase: Flags.string({description: 'only refunds that can be of this purchase (its id or reference): on its card since it was made, best fit first, each marked certain, likely, possible or another purchase\'s', helpGroup: 'FILTERS'}),
  },
  refundListColumns,
)
