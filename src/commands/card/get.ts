import {Args} from '@oclif/core'
import {cardColumns} from '../../output/columns.js'
import {readIds} from '../../batch/input.js'
import {GwCommand} from '../../gw-command.js'

export default class CardGet extends GwCommand {
  static override summary = 'Look stored cards up by token or alias'
  static override description = 'Shows the stored card: holder, masked number, expiry, scheme and how many transactions used it. Takes several tokens or aliases, or - to read them from stdin.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> 3kd9x2m4q8w1z7p5r6t0',
    '<%= config.bin %> <%= command.id %> customer-42 --json',
  ]

  static override strict = false
  static override args = {
    token: Args.string({description: 'card token or alias; - reads them from stdin', required: true}),
  }

  static override columns = cardColumns

  async run() {
    const {argv} = await this.parse(CardGet)
    const {ids, batch} = await readIds(argv as string[], this.io, 'token or alias')
    const client = await this.client()
    return this.each(ids, batch, (token) => client.cards.get(token))
  }
}
