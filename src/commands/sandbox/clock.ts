import {sandboxClockColumns} from '../../output/columns.js'
import {localGatewayName} from '../../cli/flags.js'
import {useLocalGateway} from '../../cli/local-gateway.js'
import {GwCommand} from '../../cli/gw-command.js'

export default class SandboxClock extends GwCommand<void> {
  static override summary = "Show the date on the local gateway's clock, and its processing window"
  static override description = `The local gateway bills subscriptions on a clock of its own: it starts at the real date and only moves forward, with gw sandbox clock advance. New records are dated on its today, and so are gw's named days (today, yesterday, monday) against it.
Its processing window is the most it takes to process a request (gw sandbox start --processing-window-ms, longer while a fault delays requests). gw waits that long, not the live gateway's minute, before it calls a purchase it cannot find not sent.
Talks to the gateway of the profile in force (gw sandbox start registers it as "local"), or with --name NAME to the local gateway started with that --name.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --json | jq -r .today',
  ]

  static override flags = {
    name: localGatewayName(),
  }

  static override columns = sandboxClockColumns

  protected async input() {
    const {flags} = await this.parse(SandboxClock)
    await useLocalGateway(this.factory, flags.name)
  }

  protected async operate() {
    const {sandboxClock} = await import('../../operations/sandbox.js')
    return sandboxClock(await this.factory.deps())
  }
}
