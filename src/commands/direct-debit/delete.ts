import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {directDebitColumns} from '../../output/payment-columns.js'

export default class DirectDebitDelete extends GwCommand<string> {
  static override summary = 'Delete a direct debit before it goes to the bank'
  static override description = 'The gateway keeps it, Deleted, in its list. Prints the debit deleted. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> dd-42',
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> direct-debit create --amount 1000 --description Dues --bsb 123-456 --account-name "Jane Citizen" --account-number 012345678 --json | jq -r .id)" --json',
  ]

  static override args = {
    id: gwFlags.id('id or reference of the direct debit'),
  }

  static override columns = directDebitColumns

  protected async input() {
    const {args} = await this.parse(DirectDebitDelete)
    return args.id
  }

  protected async operate(id: string) {
    const [{deleteDirectDebit}, {changeRecord}] = await Promise.all([import('../../operations/direct-debits.js'), import('../../cli/resolve-key.js')])
    return changeRecord(this.factory, 'directDebits', id, deleteDirectDebit)
  }
}
