import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {paymentPlanColumns} from '../../output/payment-columns.js'

export default class PaymentPlanActivate extends GwCommand<string> {
  static override summary = 'Activate a suspended payment plan: a new schedule from today or its start date'
  static override description = 'Its payments to come are scheduled again, with new ids, numbered on from those it has made. A cancelled plan cannot be activated. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> payment-plan get plan-42 --json | jq -r .id)"',
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> payment-plan get plan-42 --json | jq -r .id)" --json',
  ]

  static override args = {
    id: gwFlags.id('payment plan id, as gw payment-plan get shows it'),
  }

  static override columns = paymentPlanColumns

  protected async input() {
    const {args} = await this.parse(PaymentPlanActivate)
    return args.id
  }

  protected async operate(id: string) {
    const {setPaymentPlanStatus} = await import('../../operations/payment-plans.js')
    return setPaymentPlanStatus(id, 'Active', await this.factory.deps())
  }
}
