import {Flags} from '@oclif/core'
import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {planColumns} from '../../output/columns.js'

export default class PlanList extends GwCommand {
  static override summary = 'List plans, newest first'
  static override description = `The ${gwFlags.DEFAULT_LIST_LIMIT} newest plans, or --limit N, or --all; --oldest-first turns the order. Piped, one JSON line a plan as the pages arrive; on a terminal a table.`

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --limit 5 --oldest-first', '<%= config.bin %> <%= command.id %> --all --json | jq -r .reference']

  static override flags = {
    ...gwFlags.listing('plan'),
    reference: Flags.string({description: 'only the plan with this reference, exactly', helpGroup: 'FILTERS'}),
  }

  static override columns = planColumns

  async run() {
    const {flags} = await this.parse(PlanList)
    const {runList} = await import('../../lists/command.js')
    return runList('plans', flags, this.factory, 'plan')
  }
}
