import {UsageError} from '../errors.js'
import {changeConfig, type Config, loadConfig, type Profile} from './config.js'
import {environmentOf, LOCAL_GATEWAY_URL, type Target} from './resolve.js'
import {shownUrl} from './url-safety.js'
import type {TokenStores} from './token-store.js'

/** A profile as gw profile list/show and gw status print it: never the token, only where it is. */
export interface ProfileRecord extends Record<string, unknown> {
  name: string
  active: boolean
  environment: string
  base_url: string
  username: string
  read_only: boolean
  secret: 'keychain' | 'file' | 'config' | 'environment'
}

export function profileRecord(name: string, profile: Profile, activeName: string | undefined): ProfileRecord {
  return {
    name,
    active: name === activeName,
    environment: profile.environment,
    // One written by hand may carry credentials: never shown (url-safety.ts).
    base_url: shownUrl(profile.baseUrl),
    username: profile.username,
    read_only: profile.readOnly ?? false,
    secret: profile.publicToken ? 'config' : (profile.tokenStorage ?? 'keychain'),
  }
}

/** Every profile, and the environment's credentials as one more row when GW_USERNAME/GW_TOKEN are set. */
export async function listProfiles(configDir: string, env: NodeJS.ProcessEnv = process.env): Promise<ProfileRecord[]> {
  const config = await loadConfig(configDir)
  const rows = Object.entries(config.profiles).map(([name, profile]) => profileRecord(name, profile, config.activeProfile))
  if (env.GW_USERNAME && env.GW_TOKEN) {
    rows.push({name: '(environment)', active: false, environment: environmentOf(env.GW_BASE_URL || LOCAL_GATEWAY_URL, env.GW_ENVIRONMENT), base_url: shownUrl(env.GW_BASE_URL ?? ''), username: env.GW_USERNAME, read_only: false, secret: 'environment'})
  }
  return rows
}

export async function showProfile(configDir: string, name: string): Promise<ProfileRecord> {
  const config = await loadConfig(configDir)
  return profileRecord(name, known(config, name), config.activeProfile)
}

export async function useProfile(configDir: string, name: string): Promise<ProfileRecord> {
  return changeConfig(configDir, (config) => {
    const profile = known(config, name)
    config.activeProfile = name
    return profileRecord(name, profile, name)
  })
}

/** The profile and its token both go; the active marker with it. */
export async function removeProfile(configDir: string, name: string, tokens: TokenStores): Promise<void> {
  await changeConfig(configDir, async (config) => {
    await deleteToken(name, known(config, name), tokens)
    delete config.profiles[name]
    if (config.activeProfile === name) delete config.activeProfile
  })
}

/**
 * The token goes; the profile's settings stay, so gw login --profile NAME asks only for a new
 * token. Returns where each token was removed from.
 */
export async function logout(configDir: string, names: string[], tokens: TokenStores): Promise<string[]> {
  const config = await loadConfig(configDir)
  const removed: string[] = []
  for (const name of names) removed.push(`${name}: ${await deleteToken(name, known(config, name), tokens)}`)
  return removed
}

/** The profile meant when none is named: the one in force, which must be a profile. */
export function profileInForce(target: Target): string {
  if (!target.profileName) {
    throw new UsageError('The credentials in force come from GW_USERNAME/GW_TOKEN, not from a profile: there is no profile in force', 'Unset GW_USERNAME and GW_TOKEN, or name a profile with --profile.')
  }
  return target.profileName
}

export async function profileNames(configDir: string): Promise<string[]> {
  return Object.keys((await loadConfig(configDir)).profiles)
}

async function deleteToken(name: string, profile: Profile, tokens: TokenStores): Promise<string> {
  if (profile.publicToken) return 'public demo token, nothing to remove'
  const store = await tokens(profile.tokenStorage ?? 'keychain')
  await store.delete(name)
  return `token removed from ${store.location}`
}

function known(config: Config, name: string): Profile {
  const profile = config.profiles[name]
  if (profile) return profile
  const names = Object.keys(config.profiles)
  throw new UsageError(`No profile named ${name}`, names.length > 0 ? `Profiles: ${names.join(', ')}.` : 'Create one with gw login.')
}
