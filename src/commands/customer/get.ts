import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {customerColumns} from '../../output/columns.js'

export default class CustomerGet extends GwCommand {
  static override summary = 'Look customers up by id or reference'
  static override description = `Takes one or more customer ids or your references, or - to read them from stdin, one a line.
Piped, each record prints as one JSON line; on a terminal several print as one table, or with --json as the same records pretty-printed one after another (jq -s makes an array). A failed look-up is reported and the rest still run.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> cust-42',
    '<%= config.bin %> <%= command.id %> cust-42 cust-43 --json',
    'printf "cust-42\\ncust-43\\n" | <%= config.bin %> <%= command.id %> - | jq -r .email',
  ]

  static override strict = false
  static override args = gwFlags.ids('id', 'customer id or reference')
  static override flags = gwFlags.lookUps('customer ids or references')

  static override columns = customerColumns

  async run() {
    const {argv, flags} = await this.parse(CustomerGet)
    return this.lookUpAll('customers', argv as string[], undefined, flags)
  }
}
