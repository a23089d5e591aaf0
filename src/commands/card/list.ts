import {listCommand} from '../../cli/list-command.js'
import * as gwFlags from '../../cli/flags.js'
import {cardColumns} from '../../output/columns.js'

export default listCommand(
  'cards',
  {
    summary: 'List stored cards, newest first; or find one by its last four or holder',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest stored cards, or --limit N, or --all. A card carries no date, so there is no --from or --to; --card and --holder are applied here, to each card as it comes.`,
    examples: ['<%= config.bin %> <%= command.id %> --card 4242', '<%= config.bin %> <%= command.id %> --holder citizen', '<%= config.bin %> <%= command.id %> --all --json | jq -r .token'],
  },
  {card: gwFlags.moneyFilters.card, holder: gwFlags.moneyFilters.holder},
  cardColumns,
  {withTime: false},
)
