import {Flags} from '@oclif/core'
import {planColumns} from '../../output/columns.js'
import {GwCommand} from '../../gw-command.js'

export default class PlanList extends GwCommand {
  static override summary = 'List plans, one page or all of them'
  static override description = `Shows one page of plans: a table on a terminal, one JSON line a plan when piped (with --json on a terminal, each pretty-printed). --all follows every page.
Pages are numbered as the gateway numbers them (from 1 at the local gateway; some gateways count from 0).`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --page 2 --limit 20',
    '<%= config.bin %> <%= command.id %> --all --json | jq -r .reference',
  ]

  static override flags = {
    page: Flags.integer({description: 'page to show', min: 0, exclusive: ['all']}),
    limit: Flags.integer({description: 'plans per page', min: 1}),
    all: Flags.boolean({description: 'follow every page and show all plans'}),
  }

  static override columns = planColumns

  async run() {
    const {flags} = await this.parse(PlanList)
    const {listPlans} = await import('../../operations/plans.js')
    const {records, paging} = await listPlans({page: flags.page, limit: flags.limit, all: flags.all}, await this.deps())
    if (this.io.chatty && !this.json && paging.page !== undefined && paging.pages !== undefined) {
      this.io.err(`Page ${paging.page} of ${paging.pages}${paging.total === undefined ? '' : ` (${paging.total} plans)`}; --all shows every page.\n`)
    }
    return records
  }
}
