import {loadConfig, saveConfig} from './config.js'
import type {TokenStore} from './token-store.js'

export const LOCAL_PROFILE = 'local'

/**
 * The quick start needs no login: the local gateway registers itself as profile `local` with the
 * public demo credentials, active unless the user already chose another profile.
 */
export async function saveLocalProfile(configDir: string, tokens: TokenStore, baseUrl: string, mode: 'sandbox' | 'live'): Promise<{activated: boolean}> {
  const config = await loadConfig(configDir)
  config.profiles[LOCAL_PROFILE] = {environment: mode, baseUrl, username: 'TEST'}
  const activeExists = config.activeProfile !== undefined && config.profiles[config.activeProfile] !== undefined
  if (!activeExists) config.activeProfile = LOCAL_PROFILE
  await saveConfig(configDir, config)
  await tokens.set(LOCAL_PROFILE, 'TEST')
  return {activated: !activeExists}
}
