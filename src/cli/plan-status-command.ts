import type {GwRecord} from '../api/schemas/record.js'
import {paymentPlanColumns} from '../output/payment-columns.js'
import * as gwFlags from './flags.js'
import {GwCommand} from './gw-command.js'

/** What becomes of a payment plan: activated and suspended by a new status, cancelled by its own request. */
export type PlanChange = 'Active' | 'Suspended' | 'Cancelled'

/**
 * gw payment-plan activate, suspend and cancel: one plan by its id or reference, its change made and the plan
 * printed as the gateway answers it. Each says only its words and its change.
 */
export abstract class PlanStatusCommand extends GwCommand<string> {
  static override args = {
    id: gwFlags.id('id or reference of the payment plan'),
  }

  static override columns = paymentPlanColumns

  protected abstract readonly change: PlanChange

  protected async input() {
    const {args} = await this.parse(this.constructor as typeof PlanStatusCommand)
    return args.id
  }

  protected async operate(id: string): Promise<GwRecord> {
    const [{cancelPaymentPlan, setPaymentPlanStatus}, {changeRecord}] = await Promise.all([import('../operations/payment-plans.js'), import('./resolve-key.js')])
    // The gateway changes a plan by its id (gateway-beyond.md §9): a reference is looked up first.
    return changeRecord(this.factory, 'paymentPlans', id, (planId, deps) => (this.change === 'Cancelled' ? cancelPaymentPlan(planId, deps) : setPaymentPlanStatus(planId, this.change, deps)))
  }
}
