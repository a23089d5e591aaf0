import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {webHookColumns} from '../../output/columns.js'

export default class WebhookDelete extends GwCommand<string> {
  static override summary = 'Remove a web hook: the gateway stops sending events to its address'
  static override description = 'Prints the web hook removed. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> webhook list --json | head -1 | jq -r .id)"',
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> webhook create --url http://127.0.0.1:4000/hooks --json | jq -r .id)" --json',
  ]

  static override args = {
    id: gwFlags.id('web hook id, as gw webhook list shows it'),
  }

  static override columns = webHookColumns

  protected async input() {
    const {args} = await this.parse(WebhookDelete)
    return args.id
  }

  protected async operate(id: string) {
    const [{deleteWebHook}, {forgetRemoved}] = await Promise.all([import('../../operations/webhooks.js'), import('../../webhooks/hook-order.js')])
    const removed = await deleteWebHook(id, await this.factory.deps())
    await forgetRemoved(this.factory, id)
    return removed
  }
}
