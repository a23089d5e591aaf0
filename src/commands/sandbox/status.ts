import {join} from 'node:path'
import {GwError} from '../../errors.js'
import {GwCommand} from '../../gw-command.js'

export default class SandboxStatus extends GwCommand {
  static override summary = 'Say where the local gateway listens'
  static override description = 'Shows the URL, process, mode, state file and request log of the gateway started with gw sandbox start. Exits 0 when it is running and 1 when it is not.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json | jq -r .url']

  static override columns = [
    {label: 'URL', field: 'url'},
    {label: 'Process', field: 'pid'},
    {label: 'Mode', field: 'mode'},
    {label: 'State file', field: 'stateFile'},
    {label: 'Request log', field: 'requestLog'},
    {label: 'Started', field: 'startedAt'},
  ]

  async run() {
    await this.parse(SandboxStatus)
    const {sandboxStatus} = await import('../../sandbox/daemon.js')
    const status = sandboxStatus(join(this.config.dataDir, 'sandbox.json'))
    if (status.state !== 'running') {
      const why = status.state === 'stale' ? ` (it was at ${status.info.url}, pid ${status.info.pid}, and has stopped)` : ''
      throw new GwError('unexpected', 1, `The local gateway is not running${why}`, {hint: 'Start it with: gw sandbox start --detach'})
    }
    return {...status.info}
  }
}
