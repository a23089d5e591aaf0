import {GwCommand} from '../../gw-command.js'
import {webHookColumns} from '../../output/columns.js'

export default class WebhookList extends GwCommand {
  static override summary = 'List the registered web hooks'
  static override description = 'A table with a row per web hook on a terminal, one JSON line a web hook when piped (with --json on a terminal, each pretty-printed). Passwords set with --auth are never shown.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json | jq -r .id']

  static override columns = webHookColumns

  async run() {
    await this.parse(WebhookList)
    const {listWebHooks} = await import('../../operations/webhooks.js')
    return listWebHooks(await this.deps())
  }
}
