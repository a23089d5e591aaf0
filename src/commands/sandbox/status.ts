import {GwError} from '../../errors.js'
import {sandboxName} from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'

export default class SandboxStatus extends GwCommand<string | undefined> {
  static override summary = 'Say where the local gateways listen'
  static override description = 'Shows each local gateway started with gw sandbox start that is running: its name (and profile), URL, process, mode, dialect, state file and request log; --name shows that one only. Exits 0 when one is running and 1 when none is.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json | jq -r .url', '<%= config.bin %> <%= command.id %> --name rehearsal']

  static override columns = [
    {label: 'Name', field: 'name'},
    {label: 'URL', field: 'url'},
    {label: 'Process', field: 'pid'},
    {label: 'Mode', field: 'mode'},
    {label: 'Dialect', field: 'dialect'},
    {label: 'State file', field: 'stateFile'},
    {label: 'Request log', field: 'requestLog'},
    {label: 'Started', field: 'startedAt'},
  ]

  static override flags = {
    name: sandboxName('only the local gateway started with this --name'),
  }

  protected async input() {
    const {flags} = await this.parse(SandboxStatus)
    return flags.name
  }

  protected async operate(name: string | undefined) {
    const {knownSandboxes} = await import('../../sandbox/server/daemon.js')
    const known = knownSandboxes(this.config.dataDir).filter((sandbox) => name === undefined || sandbox.name === name)
    // A runtime file of an older gw names no dialect: it answered as the contract does.
    const running = known.flatMap(({name, status}) => (status.state === 'running' ? [{name, ...status.info, dialect: status.info.dialect ?? 'contract'}] : []))
    if (running.length === 0) {
      const stopped = known.map(({status}) => status.state === 'stale' && `it was at ${status.info.url}, pid ${status.info.pid}, and has stopped`).filter(Boolean)
      const which = name === undefined ? 'No local gateway is running' : `The local gateway ${name} is not running`
      throw new GwError('unexpected', 1, `${which}${stopped.length > 0 ? ` (${stopped.join('; ')})` : ''}`, {hint: `Start it with: gw sandbox start --detach${name === undefined ? '' : ` --name ${name}`}`})
    }
    return running
  }
}
