import {localGatewayName} from '../../../cli/flags.js'
import {useLocalGateway} from '../../../cli/local-gateway.js'
import {GwCommand} from '../../../cli/gw-command.js'

export default class SandboxFaultClear extends GwCommand<void> {
  static override summary = "Clear every fault of the local gateway, so its answers are its own again"
  static override description = 'Every fault gw sandbox fault add switched on is cleared, used up or not; says on stderr how many were waiting. The same as DELETE /_sandbox/faults.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> && <%= config.bin %> sandbox fault list']

  static override flags = {
    name: localGatewayName(),
  }

  protected async input() {
    const {flags} = await this.parse(SandboxFaultClear)
    await useLocalGateway(this.factory, flags.name)
  }

  protected async operate() {
    const {clearFaults, listFaults} = await import('../../../operations/sandbox.js')
    const deps = await this.factory.deps()
    const waiting = (await listFaults(deps)).length
    await clearFaults(deps)
    this.io.err(`Cleared ${waiting === 0 ? 'no faults: none were' : waiting === 1 ? '1 fault that was' : `${waiting} faults that were`} waiting.\n`)
  }
}
