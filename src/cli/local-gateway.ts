import {GwError, UsageError} from '../errors.js'
import type {Factory} from './factory.js'

/**
 * `--name NAME` of a gw sandbox command: the local gateway gw sandbox start --name NAME started,
 * reached through the profile it registered (named after it, `local` without --name), as
 * start, stop and status mean it. A name no local gateway runs under is refused before anything is sent.
 */
export async function useLocalGateway(factory: Factory, asked: string | undefined): Promise<void> {
  if (asked === undefined) return
  const [{loadConfig}, {isLocalGatewayProfile}, {sandboxStatus}, {sandboxFiles}] = await Promise.all([
    import('../auth/config.js'),
    import('../auth/local-profile.js'),
    import('../sandbox/server/gateway-process.js'),
    import('../sandbox/server/runtime-file.js'),
  ])
  const status = await sandboxStatus(sandboxFiles(factory.dataDir, asked).runtime, factory.platform)
  if (status.state !== 'running') {
    throw new GwError('unexpected', 1, `The local gateway ${asked} is not running (gw sandbox status lists those that are)`, {hint: `Start it with: gw sandbox start --detach${asked === 'local' ? '' : ` --name ${asked}`}`})
  }
  // One name whatever its case: its profile has the name it was started with.
  const name = status.info.name ?? asked
  const profile = (await loadConfig(factory.configDir)).profiles[name]
  if (!profile || !isLocalGatewayProfile({profile, baseUrl: profile.baseUrl})) {
    throw new UsageError(`Profile "${name}" is not the one gw sandbox start made for the local gateway ${name}`, `Start it again to register it: gw sandbox start --restart --detach${name === 'local' ? '' : ` --name ${name}`}`)
  }
  factory.useFlags({...factory.flags, profile: name})
}
