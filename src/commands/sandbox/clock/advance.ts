import {Flags} from '@oclif/core'
import {clockAdvanceColumns} from '../../../output/columns.js'
import * as gwFlags from '../../../cli/flags.js'
import {localGatewayName} from '../../../cli/flags.js'
import {useLocalGateway} from '../../../cli/local-gateway.js'
import {GwCommand} from '../../../cli/gw-command.js'
import type {advanceClock} from '../../../operations/sandbox.js'

/** So many days forward, or to a date. */
type ClockMove = Parameters<typeof advanceClock>[0]

export default class SandboxClockAdvance extends GwCommand<ClockMove> {
  static override summary = "Move the local gateway's clock forward, running every day in between"
  static override description = `Each day in between runs in order: subscriptions due are charged, failed charges retried, cards expire, and web hooks are sent.
Prints what happened: the new date, the subscription charges made (approved and declined, retries included), the events those days produced and the web hook deliveries they queued. The clock never moves back.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --days 35',
    '<%= config.bin %> <%= command.id %> --to 2030-06-01 --json',
  ]

  static override flags = {
    name: localGatewayName(),
    days: Flags.integer({description: 'days to move forward', min: 1, exactlyOne: ['days', 'to']}),
    to: gwFlags.date({description: 'date to move to, as YYYY-MM-DD', exactlyOne: ['days', 'to']}),
  }

  static override columns = clockAdvanceColumns

  protected async input(): Promise<ClockMove> {
    const {flags} = await this.parse(SandboxClockAdvance)
    await useLocalGateway(this.factory, flags.name)
    return flags.days === undefined ? {to: flags.to!} : {days: flags.days}
  }

  protected async operate(by: ClockMove) {
    const {advanceClock} = await import('../../../operations/sandbox.js')
    return advanceClock(by, await this.factory.deps())
  }
}
