import {Flags} from '@oclif/core'
import {GATEWAY_EVENTS, type GatewayEvent} from '../../api/schemas/recurring-rules.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import * as webhookFlags from '../../cli/webhook-flags.js'
import {webHookColumns} from '../../output/columns.js'
import type {WebHookChanges} from '../../operations/webhooks.js'

export default class WebhookUpdate extends GwCommand<{id: string; changes: WebHookChanges}> {
  static override summary = 'Change a web hook: its address, events, name or credentials'
  static override description = `Changes what is given of the web hook ID and keeps the rest: --url, --event (repeat for more; the events given replace the old ones), --name, --auth USER:PASS (- reads it from stdin). Prints the web hook as the gateway now has it.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> webhook list --json | head -1 | jq -r .id)" --name "all events"',
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> webhook list --json | head -1 | jq -r .id)" --url http://127.0.0.1:4343/ --event charge:failed --json',
  ]

  static override args = {id: gwFlags.id('web hook id, as gw webhook list shows it')}

  static override flags = {
    url: webhookFlags.url(),
    event: Flags.string({description: 'only this event from now on; repeat for more', multiple: true, options: [...GATEWAY_EVENTS]}),
    name: gwFlags.text({description: 'a name to know the web hook by'}),
    auth: webhookFlags.auth(),
    'auth-file': webhookFlags.authFile(),
  }

  static override columns = webHookColumns

  protected async input() {
    const {args, flags} = await this.parse(WebhookUpdate)
    const given = flags.auth ?? flags['auth-file']
    const auth = given === undefined ? undefined : await webhookFlags.readAuth(given, this.io, this.factory.commandName)
    const changes: WebHookChanges = {address: flags.url, events: flags.event as GatewayEvent[] | undefined, name: flags.name || undefined, auth}
    if (Object.values(changes).every((value) => value === undefined)) {
      throw new (await import('../../errors.js')).UsageError('give something to change: --url, --event, --name or --auth', 'See gw webhook update --help for examples.')
    }
    return {id: args.id, changes}
  }

  protected async operate({id, changes}: {id: string; changes: WebHookChanges}) {
    const {updateWebHook} = await import('../../operations/webhooks.js')
    return updateWebHook(id, changes, await this.factory.deps())
  }
}
