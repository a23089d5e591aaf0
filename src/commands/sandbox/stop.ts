import {Flags} from '@oclif/core'
import {sandboxName} from '../../cli/flags.js'
import {ExitStatus, GwCommand} from '../../cli/gw-command.js'
import {DEFAULT_SANDBOX} from '../../sandbox/server/names.js'

/** Every local gateway gw knows of, or the one of this name. */
type Which = {all: true} | {name: string}

export default class SandboxStop extends GwCommand<Which> {
  static override summary = 'Stop the local gateway running in the background'
  static override description = `Ends the gateway started with gw sandbox start (--detach, or in another terminal): the default one, the one --name names, or with --all every one.
It is asked on its own control API, with the token only its runtime file holds, and closes as on SIGTERM: the closing line in its log, its request log and web hook deliveries flushed; on every system, Windows too. One that does not answer (a hung one) gets SIGTERM, and SIGKILL after 5 s, but only once its pid is shown to be that gateway still. A runtime file whose process is gone, or whose pid another program has now, is removed, and said so; that program is left alone. Another user's gateway is theirs to stop (exit 6).
With --state, nothing acknowledged is lost: every change is journaled to the state file, and synced, before it is answered.`

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
    const {stopSandboxes} = await import('../../cli/stop-sandboxes.js')
    const {io, dataDir, platform} = this.factory
    const code = await stopSandboxes(which, {io, dataDir, platform})
    return code === 0 ? undefined : new ExitStatus(code)
  }
}
