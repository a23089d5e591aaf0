import {Flags} from '@oclif/core'
import {GATEWAY_EVENTS, type GatewayEvent} from '../../api/schemas/recurring-rules.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {webHookColumns} from '../../output/columns.js'
import * as webhookFlags from '../../cli/webhook-flags.js'
import type {WebHookInput} from '../../operations/webhooks.js'

export default class WebhookCreate extends GwCommand<WebHookInput> {
  static override summary = 'Register an address for the gateway to send web hooks to'
  static override description = `The gateway posts each event (${GATEWAY_EVENTS.join(', ')}) to --url, every event unless --event names some: the payment plans' (payment_plan_payment:*) among them.
A sandbox profile registers a Test web hook, a live profile a Live one. With --auth every delivery carries those Basic credentials (gw listen --auth checks them).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --url http://127.0.0.1:4242/',
    '<%= config.bin %> <%= command.id %> --url https://shop.example/hooks --event charge:failed --event card:expiring --name "failed charges" --json',
    '<%= config.bin %> <%= command.id %> --url https://shop.example/plans --event payment_plan_payment:declined --event payment_plan_payment:error --name "plan payments gone wrong"',
    'echo "hooks:s3cret" | <%= config.bin %> <%= command.id %> --url http://127.0.0.1:4242/ --auth -',
  ]

  static override flags = {
    url: webhookFlags.url({required: true}),
    event: Flags.string({description: 'only this event; repeat for more (default: every event)', multiple: true, options: [...GATEWAY_EVENTS]}),
    name: gwFlags.text({description: 'a name to know the web hook by (default: its address)'}),
    auth: webhookFlags.auth(),
    'auth-file': webhookFlags.authFile(),
  }

  static override columns = webHookColumns

  protected async input(): Promise<WebHookInput> {
    const {flags} = await this.parse(WebhookCreate)
    const auth = await webhookFlags.readAuth(flags.auth ?? flags['auth-file'], this.io, this.factory.commandName)
    // The profile's environment says which kind of web hook the gateway registers (Test or Live).
    const {environment} = await this.factory.target()
    const events = (flags.event ?? []) as GatewayEvent[]
    return {address: flags.url, events, name: flags.name || undefined, environment, auth}
  }

  protected async operate(input: WebHookInput) {
    const [{createWebHook}, {makeRecorded}] = await Promise.all([import('../../operations/webhooks.js'), import('../../webhooks/hook-order.js')])
    const deps = await this.factory.deps()
    // Recorded with when it was made: where the hooks gw made stand on a list tells the gateway's order (gw webhook list).
    return makeRecorded(this.factory, deps.client, () => createWebHook(input, deps))
  }
}
