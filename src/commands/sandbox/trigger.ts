import {Args, Flags} from '@oclif/core'
import {triggerColumns} from '../../output/columns.js'
import {GATEWAY_EVENTS, type GatewayEvent} from '../../api/schemas/recurring-rules.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {triggerEvent} from '../../operations/sandbox.js'

/** The event, and where it goes when not to the registered web hooks. */
type TriggerInput = Parameters<typeof triggerEvent>[0]

export default class SandboxTrigger extends GwCommand<TriggerInput> {
  static override summary = 'Send a sample web hook event from the local gateway'
  static override description = `Builds a realistic payload from the gateway's own records and delivers it to the registered web hooks, or only to --webhook.
Prints the event, where it went and its payload.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> charge:successful',
    '<%= config.bin %> <%= command.id %> card:expiring --webhook http://127.0.0.1:4000/hooks --json',
  ]

  static override args = {
    event: Args.string({description: 'event to send', required: true, options: [...GATEWAY_EVENTS]}),
  }

  static override flags = {
    webhook: Flags.url({description: 'deliver to this URL only, instead of the registered web hooks'}),
  }

  static override columns = triggerColumns

  protected async input(): Promise<TriggerInput> {
    const {args, flags} = await this.parse(SandboxTrigger)
    return {event: args.event as GatewayEvent, webhook: flags.webhook?.href}
  }

  protected async operate(input: TriggerInput) {
    const {triggerEvent} = await import('../../operations/sandbox.js')
    return triggerEvent(input, await this.factory.deps())
  }
}
