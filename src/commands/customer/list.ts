import {Flags} from '@oclif/core'
import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {customerColumns} from '../../output/columns.js'

export default class CustomerList extends GwCommand {
  static override summary = 'List customers, newest first; or find one by email'
  static override description = `The ${gwFlags.DEFAULT_LIST_LIMIT} newest customers, or --limit N, or --all. --from and --to (when they were created) are sent to the gateway as whole days; --email and --reference are applied here, to each customer as it comes.`

  static override examples = ['<%= config.bin %> <%= command.id %> --email jane@example.com', '<%= config.bin %> <%= command.id %> --from 7d', '<%= config.bin %> <%= command.id %> --all --json | jq -r .email']

  static override flags = {
    ...gwFlags.listing('customer'),
    email: Flags.string({description: 'only the customer with this email address, in any case', helpGroup: 'FILTERS'}),
    reference: Flags.string({description: 'only the customer with this reference, exactly', helpGroup: 'FILTERS'}),
  }

  static override columns = customerColumns

  async run() {
    const {flags} = await this.parse(CustomerList)
    const {runList} = await import('../../lists/command.js')
    return runList('customers', flags, this.factory, 'customer')
  }
}
