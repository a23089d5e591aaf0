import {customerColumns} from '../../output/columns.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'

export default class CustomerDelete extends GwCommand<string> {
  static override summary = 'Delete a customer'
  static override description = 'The gateway answers with the record it deleted, which is printed. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> cust-43',
    '<%= config.bin %> <%= command.id %> cust-44 --yes --json',
  ]

  static override args = {
    id: gwFlags.id('id or reference of the customer'),
  }

  static override columns = customerColumns

  protected async input() {
    const {args} = await this.parse(CustomerDelete)
    return args.id
  }

  protected async operate(id: string) {
    const [{deleteCustomer}, {changeRecord}] = await Promise.all([import('../../operations/customers.js'), import('../../cli/resolve-key.js')])
    return changeRecord(this.factory, 'customers', id, deleteCustomer)
  }
}
