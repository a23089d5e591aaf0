import {Flags} from '@oclif/core'
import {sandboxName} from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {DEFAULT_SANDBOX} from '../../sandbox/server/names.js'

/** Every local gateway gw knows of, or the one of this name. */
type Which = {all: true} | {name: string}

export default class SandboxStop extends GwCommand<Which> {
  static override summary = 'Stop the local gateway running in the background'
  static override description = 'Ends the gateway started with gw sandbox start --detach (SIGTERM, then SIGKILL after 5 s): the default one, the one --name names, or with --all every one. With --state, nothing acknowledged is lost: every change is journaled to the state file, and synced, before it is answered.'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> sandbox start --detach && <%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --name rehearsal',
  ]

  static override flags = {
    name: sandboxName('the local gateway started with this --name'),
    all: Flags.boolean({description: 'every local gateway gw sandbox status lists', exclusive: ['name']}),
  }

  protected async input(): Promise<Which> {
    const {flags} = await this.parse(SandboxStop)
    return flags.all ? {all: true} : {name: flags.name ?? DEFAULT_SANDBOX}
  }

  protected async operate(which: Which) {
    const daemon = await import('../../sandbox/server/daemon.js')
    const names = 'all' in which ? daemon.knownSandboxes(this.config.dataDir).map(({name}) => name) : [which.name]
    if (names.length === 0) this.io.err('No local gateway is running.\n')
    for (const name of names) {
      const called = name === DEFAULT_SANDBOX ? 'The local gateway' : `The local gateway ${name}`
      const runtimeFile = daemon.sandboxFiles(this.config.dataDir, name).runtime
      const status = daemon.sandboxStatus(runtimeFile)
      if (status.state === 'stopped') {
        this.io.err(`${called} is not running.\n`)
        continue
      }
      if (status.state === 'stale') {
        daemon.removeRuntimeFile(runtimeFile, status.info.pid)
        this.io.err(`${called} at ${status.info.url} had already stopped (pid ${status.info.pid} is gone).\n`)
        continue
      }
      const result = await daemon.stopProcess(status.info.pid)
      daemon.removeRuntimeFile(runtimeFile, status.info.pid)
      // Without a state file its records went with it: said, as gw sandbox start said they would.
      const lost = status.info.stateFile ? '' : '; its records are gone with it (it had no --state file)'
      this.io.err(`Stopped ${called.replace('The', 'the')} at ${status.info.url}${result === 'killed' ? ' (it had to be killed)' : ''}${lost}.\n`)
    }
  }
}
