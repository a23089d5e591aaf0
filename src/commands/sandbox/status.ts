import {ownerWords} from '../../lib/not-yours.js'
import {GwError} from '../../errors.js'
import {sandboxName} from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {SandboxStatus as GatewayState} from '../../sandbox/server/gateway-process.js'
import type {RuntimeInfo} from '../../sandbox/server/runtime-file.js'

export default class SandboxStatus extends GwCommand<string | undefined> {
  static override summary = 'Say where the local gateways listen'
  static override description = 'Shows each local gateway started with gw sandbox start that is running. It gives the name (and profile), URL, process, mode, dialect, state file and request log, and what it was started with: --rate-limit, --latency and --web-hook-order. --name shows that one only. Exits 0 when one is running and 1 when none is.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json | jq -r .url', '<%= config.bin %> <%= command.id %> --name rehearsal']

  static override columns = [
    {label: 'Name', field: 'name'},
    {label: 'URL', field: 'url'},
    {label: 'Process', field: 'pid'},
    {label: 'Mode', field: 'mode'},
    {label: 'Dialect', field: 'dialect'},
    {label: 'Rate limit', field: 'rateLimit'},
    {label: 'Latency ms', field: 'latencyMs'},
    {label: 'Web hook order', field: 'webHookOrder'},
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
    const [{knownSandboxes}, {nameKey}, {removeStale}] = await Promise.all([
      import('../../sandbox/server/gateway-process.js'),
      import('../../sandbox/server/runtime-file.js'),
      import('../../cli/stop-sandboxes.js'),
    ])
    const known = (await knownSandboxes(this.factory.dataDir, this.factory.platform)).filter((sandbox) => name === undefined || nameKey(sandbox.name) === nameKey(name))
    // A gateway gone (a kill -9, a restart of the machine) left its runtime file: removed, and said so, as gw sandbox stop does.
    for (const {name, runtime, status} of known) if (status.state === 'stale') this.io.err(removeStale(name, runtime, status.info, status.now))
    // Its control token and process stay in its runtime file: status shows where it listens.
    const running = known.flatMap(({name, status}) => (status.state === 'running' ? [{name, ...shown(status.info)}] : []))
    if (running.length === 0) {
      const others = theirs(known.map(({status}) => status))
      const which = name === undefined ? 'No local gateway is running' : `The local gateway ${name} is not running`
      throw new GwError('unexpected', 1, `${which}${others ? ` (${others})` : ''}`, {hint: `Start it with: gw sandbox start --detach${name === undefined ? '' : ` --name ${name}`}`})
    }
    return running
  }
}

/** What status shows of a runtime file: where the gateway listens and how, never its control token. */
function shown(info: RuntimeInfo): Omit<RuntimeInfo, 'controlToken' | 'process'> {
  const {controlToken: _token, process: _process, ...rest} = info
  return rest
}

/** The gateways in gw's data folder that are other users', counted by owner: `one belongs to the user alice`, `2 belong to the user bob`. */
function theirs(statuses: GatewayState[]): string {
  const owners = new Map<string, number>()
  for (const status of statuses) if (status.state === 'theirs') owners.set(status.owner, (owners.get(status.owner) ?? 0) + 1)
  return [...owners].map(([owner, count]) => `${count === 1 ? 'one belongs' : `${count} belong`} to ${ownerWords(owner)}`).join('; ')
}
