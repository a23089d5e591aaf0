import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {webHookColumns} from '../../output/columns.js'

export default class WebhookList extends GwCommand {
  static override summary = 'List the registered web hooks, newest first'
  static override description = `The ${gwFlags.DEFAULT_LIST_LIMIT} newest web hooks, or --limit N, or --all: a table on a terminal, one JSON line a web hook when piped. Passwords set with --auth are never shown.`

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --all --json | jq -r .id']

  static override flags = gwFlags.listing('web hook')

  static override columns = webHookColumns

  async run() {
    const {flags} = await this.parse(WebhookList)
    const {runList} = await import('../../lists/command.js')
    return runList('webHooks', flags, this.factory, 'web hook')
  }
}
