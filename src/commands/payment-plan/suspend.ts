import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {paymentPlanColumns} from '../../output/payment-columns.js'

export default class PaymentPlanSuspend extends GwCommand<string> {
  static override summary = 'Suspend a payment plan: its scheduled payments are dropped until it is activated'
  static override description = 'The plan stays, Suspended, with the payments it has made; those to come are dropped. gw payment-plan activate makes a new schedule. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> payment-plan get plan-42 --json | jq -r .id)"',
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> payment-plan get plan-42 --json | jq -r .id)" --json',
  ]

  static override args = {
    id: gwFlags.id('payment plan id, as gw payment-plan get shows it'),
  }

  static override columns = paymentPlanColumns

  protected async input() {
    const {args} = await this.parse(PaymentPlanSuspend)
    return args.id
  }

  protected async operate(id: string) {
    const {setPaymentPlanStatus} = await import('../../operations/payment-plans.js')
    return setPaymentPlanStatus(id, 'Suspended', await this.factory.deps())
  }
}
