import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {cardColumns} from '../../output/columns.js'

export default class CardList extends GwCommand {
  static override summary = 'List stored cards, newest first; or find one by its last four or holder'
  static override description = `The ${gwFlags.DEFAULT_LIST_LIMIT} newest stored cards, or --limit N, or --all. A card carries no date, so there is no --from or --to; --card and --holder are applied here, to each card as it comes.`

  static override examples = ['<%= config.bin %> <%= command.id %> --card 4242', '<%= config.bin %> <%= command.id %> --holder citizen', '<%= config.bin %> <%= command.id %> --all --json | jq -r .token']

  static override flags = {
    ...gwFlags.listing('card', {withTime: false}),
    card: gwFlags.moneyFilters.card,
    holder: gwFlags.moneyFilters.holder,
  }

  static override columns = cardColumns

  async run() {
    const {flags} = await this.parse(CardList)
    const {runList} = await import('../../lists/command.js')
    return runList('cards', flags, this.factory, 'card')
  }
}
