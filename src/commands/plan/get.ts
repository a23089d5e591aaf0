import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {planColumns} from '../../output/columns.js'

export default class PlanGet extends GwCommand {
  static override summary = 'Look plans up by id or reference'
  static override description = `Takes one or more plan ids (071-PL-...) or your references for them, or - to read them from stdin, one a line.
Several ids print one JSON object per line when piped or with --json; a failed look-up is reported and the rest still run.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> 071-PL-4X2K9QZD',
    '<%= config.bin %> <%= command.id %> gold-monthly --json',
  ]

  static override strict = false
  static override args = gwFlags.ids('id', 'plan id or reference')
  static override flags = gwFlags.lookUps('plan id or reference')

  static override columns = planColumns

  async run() {
    const {argv, flags} = await this.parse(PlanGet)
    return this.lookUpAll('plans', argv as string[], undefined, flags)
  }
}
