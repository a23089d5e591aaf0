import {planColumns} from '../../output/columns.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {PlanInput} from '../../operations/plans.js'

export default class PlanCreate extends GwCommand<PlanInput> {
  static override summary = 'Create a plan: an amount billed to subscribers at their frequency'
  static override description = `A plan names what a subscription bills: --amount in the minor unit, each time it is due.
Amount and reference cannot change once the plan has subscriptions; name and description can (gw plan update).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --name "Gold monthly" --amount 2500 --reference gold-monthly --description "Gold membership, billed monthly"',
    '<%= config.bin %> <%= command.id %> --name Basic --amount 990 --reference basic --description "Basic tier" --json | jq -r .id',
  ]

  static override flags = {
    name: gwFlags.requiredText({description: 'name of the plan', required: true}),
    amount: gwFlags.amount({description: 'amount billed each time, in the minor currency unit (1000 is 10.00 AUD)', required: true}),
    reference: gwFlags.requiredText({description: 'your reference for the plan, unique; used to look it up', required: true}),
    description: gwFlags.requiredText({description: 'what the plan is for', required: true}),
  }

  static override columns = planColumns

  protected async input(): Promise<PlanInput> {
    const {flags} = await this.parse(PlanCreate)
    return {name: flags.name, amount: flags.amount, reference: flags.reference, description: flags.description}
  }

  protected async operate(input: PlanInput) {
    const {createPlan} = await import('../../operations/plans.js')
    return createPlan(input, await this.factory.deps())
  }
}
