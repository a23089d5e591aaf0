import {join} from 'node:path'
import {GwCommand} from '../../gw-command.js'

export default class SandboxStop extends GwCommand {
  static override summary = 'Stop the local gateway running in the background'
  static override description = 'Ends the gateway started with gw sandbox start --detach (SIGTERM, then SIGKILL after 5 s). With --state, nothing acknowledged is lost: every change is journaled to the state file, and synced, before it is answered.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> sandbox start --detach && <%= config.bin %> <%= command.id %>']

  async run() {
    await this.parse(SandboxStop)
    const daemon = await import('../../sandbox/daemon.js')
    const runtimeFile = join(this.config.dataDir, 'sandbox.json')
    const status = daemon.sandboxStatus(runtimeFile)
    if (status.state === 'stopped') {
      this.io.err('The local gateway is not running.\n')
      return
    }
    if (status.state === 'stale') {
      daemon.removeRuntimeFile(runtimeFile, status.info.pid)
      this.io.err(`The local gateway at ${status.info.url} had already stopped (pid ${status.info.pid} is gone).\n`)
      return
    }
    const result = await daemon.stopProcess(status.info.pid)
    daemon.removeRuntimeFile(runtimeFile, status.info.pid)
    this.io.err(`Stopped the local gateway at ${status.info.url}${result === 'killed' ? ' (it had to be killed)' : ''}.\n`)
  }
}
