import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {directDebitColumns} from '../../output/payment-columns.js'

export default class DirectDebitDelete extends GwCommand<string> {
  static override summary = 'Delete a direct debit before it goes to the bank'
  static override description = 'The gateway keeps it, Deleted, in its list. Prints the debit deleted. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> direct-debit get dd-42 --json | jq -r .id)"',
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> direct-debit create --amount 1000 --description Dues --bsb 123-456 --account-name "Jane Citizen" --account-number 012345678 --json | jq -r .id)" --json',
  ]

  static override args = {
    id: gwFlags.id('direct debit id, as gw direct-debit get shows it'),
  }

  static override columns = directDebitColumns

  protected async input() {
    const {args} = await this.parse(DirectDebitDelete)
    return args.id
  }

  protected async operate(id: string) {
    const {deleteDirectDebit} = await import('../../operations/direct-debits.js')
    return deleteDirectDebit(id, await this.factory.deps())
  }
}
