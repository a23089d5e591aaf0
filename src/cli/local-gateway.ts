import {GwError, UsageError} from '../errors.js'
import type {Factory} from './factory.js'

/**
 * `--name NAME` of a gw sandbox command: the local gateway gw sandbox start --name NAME started,
 * reached through the profile it registered (named after it, `local` without --name), as
 * start, stop and status mean it. A name no local gateway runs under is refused before anything is sent.
 */
export async function useLocalGateway(factory: Factory, name: string | undefined): Promise<void> {
  if (name === undefined) return
  const [{loadConfig}, {isLocalGatewayProfile}, daemon] = await Promise.all([import('../auth/config.js'), import('../auth/local-profile.js'), import('../sandbox/server/daemon.js')])
  const status = daemon.sandboxStatus(daemon.sandboxFiles(factory.dataDir, name).runtime)
  if (status.state !== 'running') {
    throw new GwError('unexpected', 1, `The local gateway ${name} is not running (gw sandbox status lists those that are)`, {hint: `Start it with: gw sandbox start --detach${name === 'local' ? '' : ` --name ${name}`}`})
  }
  const profile = (await loadConfig(factory.configDir)).profiles[name]
  if (!profile || !isLocalGatewayProfile({profile, baseUrl: profile.baseUrl})) {
    throw new UsageError(`Profile "${name}" is not the one gw sandbox start made for the local gateway ${name}`, `Start it again to register it: gw sandbox start --restart --detach${name === 'local' ? '' : ` --name ${name}`}`)
  }
  factory.useFlags({...factory.flags, profile: name})
}
