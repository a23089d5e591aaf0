import type {GwRecord} from '../operations/deps.js'
import {paymentPlanColumns} from '../output/payment-columns.js'
import * as gwFlags from './flags.js'
import {GwCommand} from './gw-command.js'

/** What becomes of a payment plan: activated and suspended by a new status, cancelled by its own request. */
export type PlanChange = 'Active' | 'Suspended' | 'Cancelled'

/**
 * gw payment-plan activate, suspend and cancel: one plan by its id, its change made and the plan
 * printed as the gateway answers it. Each says only its words and its change.
 */
export abstract class PlanStatusCommand extends GwCommand<string> {
  static override args = {
    id: gwFlags.id('payment plan id, as gw payment-plan get shows it'),
  }

  static override columns = paymentPlanColumns

  protected abstract readonly change: PlanChange

  protected async input() {
    const {args} = await this.parse(this.constructor as typeof PlanStatusCommand)
    return args.id
  }

  protected async operate(id: string): Promise<GwRecord> {
    const {cancelPaymentPlan, setPaymentPlanStatus} = await import('../operations/payment-plans.js')
    const deps = await this.factory.deps()
    return this.change === 'Cancelled' ? cancelPaymentPlan(id, deps) : setPaymentPlanStatus(id, this.change, deps)
  }
}
