import {isLoopbackUrl} from '../loopback.js'
import {loadConfig, type Profile, saveConfig} from './config.js'
import {fileTokenStore, legacyCredentialsFile} from './token-store.js'

export const LOCAL_PROFILE = 'local'
const DEMO_MERCHANT = 'TEST'

/**
 * The quick start needs no login: the local gateway registers itself as profile `local` with the
 * public demo credentials, active unless the user already chose another profile. The demo token is
 * published, not a secret, so it stays in the profile: no keychain needed to try gw.
 */
export async function saveLocalProfile(configDir: string, baseUrl: string, mode: 'sandbox' | 'live'): Promise<{activated: boolean}> {
  const config = await loadConfig(configDir)
  config.profiles[LOCAL_PROFILE] = {environment: mode, baseUrl, username: DEMO_MERCHANT, publicToken: DEMO_MERCHANT}
  const activeExists = config.activeProfile !== undefined && config.profiles[config.activeProfile] !== undefined
  if (!activeExists) config.activeProfile = LOCAL_PROFILE
  await saveConfig(configDir, config)
  // The interim store kept the demo token as if it were a secret; the profile holds it now.
  await fileTokenStore(legacyCredentialsFile(configDir)).delete(LOCAL_PROFILE)
  return {activated: !activeExists}
}

/**
 * A profile gw sandbox start wrote for a local gateway: the demo token kept in it (no other
 * profile has one), at an address on this machine.
 */
export function isLocalGatewayProfile(target: {profile?: Profile; baseUrl: string}): boolean {
  return target.profile?.publicToken !== undefined && isLoopbackUrl(target.baseUrl)
}
