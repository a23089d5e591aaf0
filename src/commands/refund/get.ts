import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {refundColumns} from '../../output/columns.js'

export default class RefundGet extends GwCommand {
  static override summary = 'Look refunds up by id or reference'
  static override description = `Takes one or more refund ids or your references, or - to read them from stdin, one a line.
Piped, each record prints as one JSON line; on a terminal several print as one table, or with --json as the same records pretty-printed one after another (jq -s makes an array). A failed look-up is reported and the rest still run.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> refund-1001',
    '<%= config.bin %> <%= command.id %> refund-1001 refund-1002 --json',
    'printf "refund-1001\\nrefund-1002\\n" | <%= config.bin %> <%= command.id %> - | jq -r .message',
  ]

  static override strict = false
  static override args = gwFlags.ids('id', 'refund id or reference')
  static override flags = gwFlags.lookUps('refund ids or references')

  static override columns = refundColumns

  async run() {
    const {argv, flags} = await this.parse(RefundGet)
    return this.lookUpAll('refunds', argv as string[], undefined, flags)
  }
}
