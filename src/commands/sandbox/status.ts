import {GwError} from '../../errors.js'
import {sandboxName} from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'

export default class SandboxStatus extends GwCommand {
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

  async run() {
    const {flags} = await this.parse(SandboxStatus)
    const {knownSandboxes} = await import('../../sandbox/server/daemon.js')
    const known = knownSandboxes(this.config.dataDir).filter(({name}) => flags.name === undefined || name === flags.name)
    // A runtime file of an older gw names no dialect: it answered as the contract does.
    const running = known.flatMap(({name, status}) => (status.state === 'running' ? [{name, ...status.info, dialect: status.info.dialect ?? 'contract'}] : []))
    if (running.length === 0) {
      const stopped = known.map(({status}) => status.state === 'stale' && `it was at ${status.info.url}, pid ${status.info.pid}, and has stopped`).filter(Boolean)
      const which = flags.name === undefined ? 'No local gateway is running' : `The local gateway ${flags.name} is not running`
      throw new GwError('unexpected', 1, `${which}${stopped.length > 0 ? ` (${stopped.join('; ')})` : ''}`, {hint: `Start it with: gw sandbox start --detach${flags.name === undefined ? '' : ` --name ${flags.name}`}`})
    }
    return running
  }
}
