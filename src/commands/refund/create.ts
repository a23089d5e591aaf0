import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {refundColumns} from '../../output/columns.js'

export default class RefundCreate extends GwCommand {
  static override summary = 'Refund a purchase, in full or in part'
  static override description = `Refunds --amount (minor units) of the purchase --transaction-id. Several partial refunds may add up to the purchase amount.
The refund is sent once and never retried; if no answer comes back, gw looks it up by --reference and reports what the gateway has.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --transaction-id "$(<%= config.bin %> purchase get order-1001 --json | jq -r .id)" --amount 1000 --reference refund-1001',
    '<%= config.bin %> <%= command.id %> --transaction-id "$(<%= config.bin %> purchase get order-1002 --json | jq -r .id)" --amount 250 --reference refund-1002 --json | jq -r .id',
  ]

  static override flags = {
    'transaction-id': gwFlags.requiredText({description: 'id of the purchase to refund', required: true}),
    amount: gwFlags.amount({required: true}),
    reference: gwFlags.reference({required: true}),
  }

  static override columns = refundColumns

  async run() {
    const {flags} = await this.parse(RefundCreate)
    const {createRefund} = await import('../../operations/refunds.js')
    return createRefund({transactionId: flags['transaction-id'], amount: flags.amount, reference: flags.reference}, await this.deps())
  }
}
