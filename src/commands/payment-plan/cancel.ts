import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {paymentPlanColumns} from '../../output/payment-columns.js'

export default class PaymentPlanCancel extends GwCommand<string> {
  static override summary = 'Cancel a payment plan for good: no more payments'
  static override description = 'The plan stays, Cancelled, with the payments it has made; it cannot be activated again. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> payment-plan get plan-42 --json | jq -r .id)"',
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> payment-plan get plan-42 --json | jq -r .id)" --json',
  ]

  static override args = {
    id: gwFlags.id('payment plan id, as gw payment-plan get shows it'),
  }

  static override columns = paymentPlanColumns

  protected async input() {
    const {args} = await this.parse(PaymentPlanCancel)
    return args.id
  }

  protected async operate(id: string) {
    const {cancelPaymentPlan} = await import('../../operations/payment-plans.js')
    return cancelPaymentPlan(id, await this.factory.deps())
  }
}
