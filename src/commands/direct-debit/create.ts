import * as gwFlags from '../../cli/flags.js'
import * as paymentFlags from '../../cli/payment-flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {directDebitColumns} from '../../output/payment-columns.js'
import type {DirectDebitInput} from '../../operations/direct-debits.js'

export default class DirectDebitCreate extends GwCommand<DirectDebitInput> {
  static override summary = 'Debit a bank account by BSB and account number'
  static override description = `--amount is in cents, as every amount in gw (1000 is 10.00 AUD); gw sends it in dollars, as the gateway takes a debit's. The debit is made New, dated the day it goes to the bank; gw direct-debit get shows what came of it.
On a live profile gw asks you to type the amount first (--yes skips that).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --amount 4242 --description "November rent" --bsb 123-456 --account-name "Jane Citizen" --account-number 012345678',
    '<%= config.bin %> <%= command.id %> --amount 1000 --description "Membership" --bsb 123-456 --account-name "Jane Citizen" --account-number 012345678 --reference dd-42 --json',
  ]

  static override flags = {
    amount: gwFlags.amount({description: 'amount in cents (1000 is 10.00 AUD), sent to the gateway in dollars', required: true}),
    description: gwFlags.requiredText({description: 'what the debit is for, as the account holder sees it', required: true}),
    bsb: paymentFlags.bsb({required: true}),
    'account-name': gwFlags.requiredText({description: 'the name on the bank account', required: true}),
    'account-number': paymentFlags.accountNumber({required: true}),
    reference: gwFlags.requiredText({description: 'your reference for the debit (default: its id)'}),
  }

  static override columns = directDebitColumns

  protected async input(): Promise<DirectDebitInput> {
    const {flags} = await this.parse(DirectDebitCreate)
    return {amount: flags.amount, description: flags.description, bsb: flags.bsb, accountName: flags['account-name'], accountNumber: flags['account-number'], reference: flags.reference}
  }

  protected async operate(input: DirectDebitInput) {
    const {createDirectDebit} = await import('../../operations/direct-debits.js')
    return createDirectDebit(input, await this.factory.deps())
  }
}
