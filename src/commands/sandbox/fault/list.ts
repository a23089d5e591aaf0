import {localGatewayName} from '../../../cli/flags.js'
import {useLocalGateway} from '../../../cli/local-gateway.js'
import {GwCommand} from '../../../cli/gw-command.js'
import {faultColumns} from '../../../output/columns.js'

export default class SandboxFaultList extends GwCommand<void> {
  static override summary = "List the local gateway's faults still waiting, with the times each has left"
  static override description = 'The faults gw sandbox fault add switched on, in the order they match (the first that matches a request is used), each with how many more requests get it. Prints nothing, saying so on stderr, when there are none. The same as GET /_sandbox/faults.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json | jq -r .path']

  static override flags = {
    name: localGatewayName(),
  }

  static override columns = faultColumns

  protected async input() {
    const {flags} = await this.parse(SandboxFaultList)
    await useLocalGateway(this.factory, flags.name)
  }

  protected async operate() {
    const {listFaults} = await import('../../../operations/sandbox.js')
    const faults = await listFaults(await this.factory.deps())
    if (faults.length === 0) this.io.err('No faults are waiting.\n')
    return faults
  }
}
