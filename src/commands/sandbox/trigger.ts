import {Args, Flags} from '@oclif/core'
import {triggerColumns} from '../../output/columns.js'
import {GATEWAY_EVENTS, type GatewayEvent} from '../../api/schemas/recurring-rules.js'
import {localGatewayName} from '../../cli/flags.js'
import {useLocalGateway} from '../../cli/local-gateway.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {triggerEvent} from '../../operations/sandbox.js'

/** The event, and where it goes when not to the registered web hooks. */
type TriggerInput = Parameters<typeof triggerEvent>[0]

export default class SandboxTrigger extends GwCommand<TriggerInput> {
  static override summary = 'Send a sample web hook event from the local gateway'
  static override description = `Builds a realistic payload from the merchant's records and delivers it to the registered web hooks, or only to --webhook.
It creates records on the local gateway. A charge event (charge:successful, charge:retry, charge:failed) and a payment plan's completed or declined payment charge a card. That is a real purchase (10.00 AUD for a plan it made) whose metadata carries gw_sample: "gw sandbox trigger"; gw report leaves those out unless --include-samples. When the merchant has no subscription (or active payment plan) to build from, it also makes a sample customer with its card, a plan and a subscription (or a payment plan), referenced sample-... The merchant's own are used when it has them.
Prints the event, where it went, the records it created (created: kind, id and reference of each) and its payload.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> charge:successful',
    '<%= config.bin %> <%= command.id %> card:expiring --webhook http://127.0.0.1:4000/hooks --json',
  ]

  static override args = {
    event: Args.string({description: 'event to send', required: true, options: [...GATEWAY_EVENTS]}),
  }

  static override flags = {
    name: localGatewayName(),
    webhook: Flags.url({description: 'deliver to this URL only, instead of the registered web hooks'}),
  }

  static override columns = triggerColumns

  protected async input(): Promise<TriggerInput> {
    const {args, flags} = await this.parse(SandboxTrigger)
    await useLocalGateway(this.factory, flags.name)
    return {event: args.event as GatewayEvent, webhook: flags.webhook?.href}
  }

  protected async operate(input: TriggerInput) {
    const {triggerEvent} = await import('../../operations/sandbox.js')
    return triggerEvent(input, await this.factory.deps())
  }
}
