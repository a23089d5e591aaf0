import {planColumns} from '../../output/columns.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {updatePlan} from '../../operations/plans.js'

/** The plan, and what of it changes. */
interface PlanChanges {
  id: string
  changes: Parameters<typeof updatePlan>[1]
}

export default class PlanUpdate extends GwCommand<PlanChanges> {
  static override summary = "Change a plan's name or description"
  static override description = `Only the name and the description of a plan can change; its amount and reference are fixed once it has subscriptions.
The gateway answers a change it cannot make with HTTP 501 and leaves the plan as it was (exit 7).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> gold-monthly --name "Gold monthly (2027)"',
    '<%= config.bin %> <%= command.id %> gold-monthly --description "Gold membership, billed monthly" --json',
  ]

  static override args = {
    id: gwFlags.id('id or reference of the plan'),
  }

  static override flags = {
    name: gwFlags.requiredText({description: 'new name', atLeastOne: ['name', 'description']}),
    description: gwFlags.requiredText({description: 'new description'}),
  }

  static override columns = planColumns

  protected async input() {
    const {args, flags} = await this.parse(PlanUpdate)
    return {id: args.id, changes: {name: flags.name, description: flags.description}}
  }

  protected async operate({id, changes}: PlanChanges) {
    const [{updatePlan}, {changeRecord}] = await Promise.all([import('../../operations/plans.js'), import('../../cli/resolve-key.js')])
    return changeRecord(this.factory, 'plans', id, (planId, deps) => updatePlan(planId, changes, deps))
  }
}
