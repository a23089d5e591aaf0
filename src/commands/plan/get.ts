import {Args} from '@oclif/core'
import {planColumns} from '../../output/columns.js'
import {GwCommand} from '../../gw-command.js'

export default class PlanGet extends GwCommand {
  static override summary = 'Look a plan up by id or reference'
  static override description = 'Takes the plan id (071-PL-...) or your reference for it.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> 071-PL-4X2K9QZD',
    '<%= config.bin %> <%= command.id %> gold-monthly --json',
  ]

  static override args = {
    id: Args.string({description: 'plan id or reference', required: true}),
  }

  static override columns = planColumns

  async run() {
    const {args} = await this.parse(PlanGet)
    const client = await this.client()
    return client.plans.get(args.id)
  }
}
