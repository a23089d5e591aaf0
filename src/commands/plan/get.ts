import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {planColumns} from '../../output/columns.js'

export default class PlanGet extends GwCommand {
  static override summary = 'Look plans up by id or reference'
  static override description = `Takes one or more plan ids (071-PL-...) or your references for them, or - to read them from stdin, one a line.
Piped, each record prints as one JSON line; on a terminal several print as one table, or with --json as the same records pretty-printed one after another (jq -s makes an array). A failed look-up is reported and the rest still run.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> gold-monthly',
    '<%= config.bin %> <%= command.id %> gold-monthly basic --json | jq -r .amount',
  ]

  static override strict = false
  static override args = gwFlags.ids('id', 'plan id or reference')
  static override flags = gwFlags.lookUps('plan ids or references')

  static override columns = planColumns

  async run() {
    const {argv, flags} = await this.parse(PlanGet)
    return this.lookUpAll('plans', argv as string[], undefined, flags)
  }
}
