import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {cardColumns} from '../../output/columns.js'

export default class CardGet extends GwCommand {
  static override summary = 'Look stored cards up by token or alias'
  static override description = 'Shows the stored card: holder, masked number, expiry, scheme and how many transactions used it. Takes several tokens or aliases, or - to read them from stdin.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> customer-42',
    '<%= config.bin %> <%= command.id %> customer-42 --json | jq -r .card_expiry',
  ]

  static override strict = false
  static override args = gwFlags.ids('token', 'card token or alias')
  static override flags = gwFlags.lookUps('card tokens or aliases')

  static override columns = cardColumns

  async run() {
    const {argv, flags} = await this.parse(CardGet)
    return this.lookUpAll('cards', argv as string[], 'token or alias', flags)
  }
}
