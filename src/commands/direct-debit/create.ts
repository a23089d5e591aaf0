import * as gwFlags from '../../cli/flags.js'
import * as paymentFlags from '../../cli/payment-flags.js'
import {ExitStatus, GwCommand} from '../../cli/gw-command.js'
import {directDebitColumns} from '../../output/payment-columns.js'
import type {DirectDebitInput} from '../../operations/direct-debits.js'

/** One debit, or a batch of them from a file. */
type DirectDebitCreateInput = {debit: DirectDebitInput} | {batch: gwFlags.BatchFlags}

export default class DirectDebitCreate extends GwCommand<DirectDebitCreateInput> {
  static override summary = 'Debit a bank account by BSB and account number'
  static override description = `--amount is in cents, as every amount in gw (1000 is 10.00 AUD); gw sends it in dollars, as the gateway takes a debit's. The debit is made New, dated the day it goes to the bank; gw direct-debit get shows what came of it.
On a live profile gw asks you to type the amount first (--yes skips that). It is sent once: if its answer is lost, gw looks for it by its reference and never sends it again.
--input FILE makes a batch of debits: a CSV with a header amount,description,bsb,account_name,account_number,reference (amounts in cents; a blank reference gets one made, dd-DAY-RANDOM-R1 and on) or NDJSON. Every row is checked before any is sent; each is journaled before it is sent and after its answer, and a debit made counts as made (exit 0). The gateway is known to find a debit by its id only. A row whose answer was lost, and that it does not find under its reference, is left in doubt (exit 8) and never sent again; gw says what to run to check it.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --amount 4242 --description "November rent" --bsb 123-456 --account-name "Jane Citizen" --account-number 012345678',
    '<%= config.bin %> <%= command.id %> --amount 1000 --description "Membership" --bsb 123-456 --account-name "Jane Citizen" --account-number 012345678 --reference dd-42 --json',
    '<%= config.bin %> <%= command.id %> --input debits.csv --dry-run',
  ]

  static override flags = {
    amount: gwFlags.amount({description: 'amount in cents (1000 is 10.00 AUD), sent to the gateway in dollars', required: true}),
    description: gwFlags.requiredText({description: 'what the debit is for, as the account holder sees it', required: true}),
    bsb: paymentFlags.bsb({required: true}),
    'account-name': gwFlags.requiredText({description: 'the name on the bank account', required: true}),
    'account-number': paymentFlags.accountNumber({required: true}),
    reference: gwFlags.requiredText({description: 'your reference for the debit (default: one gw makes, dd-DAY-RANDOM-R1, to look it up by if its answer is lost)'}),
    ...gwFlags.batch('amount,description,bsb,account_name,account_number,reference'),
  }

  static override columns = directDebitColumns

  /** A debit is in Australian dollars: the gateway takes its amount in dollars. */
  protected override currencyOf(): string {
    return 'AUD'
  }

  protected async input(): Promise<DirectDebitCreateInput> {
    const {flags} = await this.parse(DirectDebitCreate)
    gwFlags.refuseRowFlagsInBatch(flags, DirectDebitCreate.flags)
    if (flags.input !== undefined) return {batch: gwFlags.batchFlags({...flags, input: flags.input})}
    return {debit: {amount: flags.amount, description: flags.description, bsb: flags.bsb, accountName: flags['account-name'], accountNumber: flags['account-number'], reference: flags.reference}}
  }

  protected async operate(input: DirectDebitCreateInput) {
    if ('batch' in input) {
      const [{directDebitBatch}, {runBatch}, {batchDeps}] = await Promise.all([import('../../batch/recurring-kinds.js'), import('../../batch/run-batch.js'), import('../../cli/batch-deps.js')])
      return new ExitStatus(await runBatch(directDebitBatch, input.batch, batchDeps(this.factory)))
    }
    const [{createDirectDebit}, {settle}] = await Promise.all([import('../../operations/direct-debits.js'), import('../../output/sent.js')])
    return settle(this.io, await createDirectDebit(input.debit, await this.factory.deps()))
  }
}
