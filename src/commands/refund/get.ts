import {Args} from '@oclif/core'
import {refundColumns} from '../../output/columns.js'
import {readIds} from '../../batch/input.js'
import {GwCommand} from '../../gw-command.js'

export default class RefundGet extends GwCommand {
  static override summary = 'Look refunds up by id or reference'
  static override description = `Takes one or more refund ids or your references, or - to read them from stdin, one a line.
Several ids print one JSON object per line when piped or with --json; a failed look-up is reported and the rest still run.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> 071-R-7KD93JQA',
    '<%= config.bin %> <%= command.id %> refund-1001 refund-1002 --json',
    'cut -d, -f1 refunds.csv | <%= config.bin %> <%= command.id %> - | jq .message',
  ]

  static override strict = false
  static override args = {
    id: Args.string({description: 'refund id or reference; - reads them from stdin', required: true}),
  }

  static override columns = refundColumns

  async run() {
    const {argv} = await this.parse(RefundGet)
    const {ids, batch} = await readIds(argv as string[], this.io)
    const client = await this.client()
    return this.each(ids, batch, (id) => client.refunds.get(id))
  }
}
