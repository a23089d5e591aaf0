import {isLoopbackUrl} from '../lib/loopback.js'
import {changeConfig, loadConfig, type Profile} from './config.js'

export const LOCAL_PROFILE = 'local'
const DEMO_MERCHANT = 'TEST'

/**
 * The quick start needs no login: a local gateway registers itself as a profile (`local`, or the
 * name it was started with) with the public demo credentials, active unless the user already chose
 * another profile. The demo token is published, not a secret, so it stays in the profile: no
 * keychain needed to try gw.
 */
export async function saveLocalProfile(configDir: string, baseUrl: string, mode: 'sandbox' | 'live', name: string = LOCAL_PROFILE): Promise<{activated: boolean}> {
  const activeExists = await changeConfig(configDir, (config) => {
    config.profiles[name] = {environment: mode, baseUrl, username: DEMO_MERCHANT, publicToken: DEMO_MERCHANT}
    const exists = config.activeProfile !== undefined && config.profiles[config.activeProfile] !== undefined
    if (!exists) config.activeProfile = name
    return exists
  })
  return {activated: !activeExists}
}

/** The profile of this name when it is one a person made (gw login): a local gateway must not take its name, and its credentials with it. */
export async function othersProfile(configDir: string, name: string): Promise<Profile | undefined> {
  const profile = (await loadConfig(configDir)).profiles[name]
  return profile && !isLocalGatewayProfile({profile, baseUrl: profile.baseUrl}) ? profile : undefined
}

/**
 * A profile gw sandbox start wrote for a local gateway: the demo token kept in it (no other
 * profile has one), at an address on this machine.
 */
export function isLocalGatewayProfile(target: {profile?: Profile; baseUrl: string}): boolean {
  return target.profile?.publicToken !== undefined && isLoopbackUrl(target.baseUrl)
}
