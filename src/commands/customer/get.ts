import {Args} from '@oclif/core'
import {customerColumns} from '../../output/columns.js'
import {readIds} from '../../batch/input.js'
import {GwCommand} from '../../gw-command.js'

export default class CustomerGet extends GwCommand {
  static override summary = 'Look customers up by id or reference'
  static override description = `Takes one or more customer ids or your references, or - to read them from stdin, one a line.
Several ids print one JSON object per line when piped or with --json; a failed look-up is reported and the rest still run.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> 071-C-7RD2KQ4M',
    '<%= config.bin %> <%= command.id %> cust-42 cust-43 --json',
    'cut -d, -f1 customers.csv | <%= config.bin %> <%= command.id %> - | jq .email',
  ]

  static override strict = false
  static override args = {
    id: Args.string({description: 'customer id or reference; - reads them from stdin', required: true}),
  }

  static override columns = customerColumns

  async run() {
    const {argv} = await this.parse(CustomerGet)
    const {ids, batch} = await readIds(argv as string[], this.io)
    const client = await this.client()
    return this.each(ids, batch, (id) => client.customers.get(id))
  }
}
