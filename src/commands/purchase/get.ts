import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {purchaseColumns} from '../../output/columns.js'

export default class PurchaseGet extends GwCommand {
  static override summary = 'Look purchases up by id or reference'
  static override description = `Takes one or more purchase ids or your references, or - to read them from stdin, one a line.
Piped, each record prints as one JSON line; on a terminal several print as one table, or with --json as the same records pretty-printed one after another (jq -s makes an array). A failed look-up is reported and the rest still run.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> order-1001',
    '<%= config.bin %> <%= command.id %> order-1001 order-1002 --json',
    'printf "order-1001\\norder-1003\\n" | <%= config.bin %> <%= command.id %> - | jq -r .message',
    '<%= config.bin %> <%= command.id %> --input complaints.csv --concurrency 8 > purchases.ndjson',
  ]

  static override strict = false
  static override args = gwFlags.ids('id', 'purchase id or reference')
  static override flags = gwFlags.lookUps('purchase ids or references')

  static override columns = purchaseColumns

  async run() {
    const {argv, flags} = await this.parse(PurchaseGet)
    return this.lookUpAll('purchases', argv as string[], undefined, flags)
  }
}
