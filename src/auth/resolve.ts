import {AuthError, UsageError} from '../errors.js'
import {configFile, type Environment, loadConfig, type Profile} from './config.js'
import {isLoopbackHost} from '../lib/loopback.js'
import {insecureCredentialsFile, type TokenStores} from './token-store.js'
import {checkBaseUrl, refuseCredentialsInUrl, refusePlainHttpToken, shownUrl} from './url-safety.js'

export const LOCAL_GATEWAY_URL = 'http://127.0.0.1:8787'

export type CredentialSource = 'flag' | 'GW_PROFILE' | 'environment' | 'active'

/** Where the token in force comes from. */
export type SecretStorage = 'keychain' | 'file' | 'config' | 'environment'

/** Who gw talks to, as whom, and why: everything but the token, so gw status never needs to read it. */
export interface Target {
  baseUrl: string
  username: string
  environment: Environment
  profileName?: string
  profile?: Profile
  source: CredentialSource
  secretStorage: SecretStorage
  /** Where exactly, for people: the keychain entry, the file's path, or the variable. */
  secretLocation: string
  connectTimeoutMs?: number
  responseTimeoutMs?: number
}

export interface Credentials extends Target {
  token: string
}

const NO_CREDENTIALS_HINT =
  'Start the local gateway with `gw sandbox start --detach` (it sets up a profile), or set GW_USERNAME and GW_TOKEN (and GW_BASE_URL).'

export interface ResolveOptions {
  profileFlag?: string
  env: NodeJS.ProcessEnv
  configDir: string
}

/** The target and its token: from the environment, the profile itself (the local demo token), or the profile's store. */
export async function resolveCredentials(options: ResolveOptions & {tokens: TokenStores}): Promise<Credentials> {
  return withToken(await resolveTarget(options), options.tokens)
}

export async function withToken({token: envToken, ...target}: Target & {token?: string}, tokens: TokenStores): Promise<Credentials> {
  refusePlainHttpToken(target)
  if (envToken !== undefined) return {...target, token: envToken}
  const name = target.profileName!
  if (target.profile?.publicToken) return {...target, token: target.profile.publicToken}
  const store = await tokens(target.profile?.tokenStorage ?? 'keychain')
  const token = await store.get(name)
  if (!token) throw new AuthError(`Profile ${name} has no token in ${store.location}`, {hint: `Log in again: gw login --profile ${name}`})
  return {...target, token}
}

/**
 * design.md §6: --profile, then GW_PROFILE, then GW_USERNAME/GW_TOKEN from the environment,
 * then the active profile. Environment credentials beat the active profile so CI never picks up
 * whatever profile a machine happens to have active.
 */
export async function resolveTarget(options: ResolveOptions): Promise<Target & {token?: string}> {
  const {env} = options
  const timeouts = {
    connectTimeoutMs: timeoutFromEnv(env, 'GW_CONNECT_TIMEOUT_MS'),
    responseTimeoutMs: timeoutFromEnv(env, 'GW_RESPONSE_TIMEOUT_MS'),
  }
  const named = options.profileFlag ? {name: options.profileFlag, source: 'flag' as const} : env.GW_PROFILE ? {name: env.GW_PROFILE, source: 'GW_PROFILE' as const} : undefined
  if (!named && (env.GW_USERNAME || env.GW_TOKEN)) {
    if (!env.GW_USERNAME || !env.GW_TOKEN) {
      throw new AuthError(`${env.GW_USERNAME ? 'GW_TOKEN' : 'GW_USERNAME'} is not set`, {hint: 'Set both GW_USERNAME and GW_TOKEN, or neither to use a profile.'})
    }
    const baseUrl = env.GW_BASE_URL || LOCAL_GATEWAY_URL
    checkBaseUrl(baseUrl, 'GW_BASE_URL', 'Give the user in GW_USERNAME and the token in GW_TOKEN, and GW_BASE_URL without them.')
    return {
      baseUrl,
      username: env.GW_USERNAME,
      token: env.GW_TOKEN,
      environment: environmentOf(baseUrl, env.GW_ENVIRONMENT),
      source: 'environment',
      secretStorage: 'environment',
      secretLocation: 'environment variable GW_TOKEN',
      ...timeouts,
    }
  }
  const config = await loadConfig(options.configDir)
  const name = named?.name ?? config.activeProfile
  if (!name) throw new AuthError('No credentials: no profile is active and GW_USERNAME/GW_TOKEN are not set', {hint: NO_CREDENTIALS_HINT})
  const profile = config.profiles[name]
  if (!profile) {
    const known = Object.keys(config.profiles)
    throw new UsageError(`No profile named ${name}`, known.length > 0 ? `Profiles: ${known.join(', ')}.` : NO_CREDENTIALS_HINT)
  }
  refuseCredentialsInUrl(profile.baseUrl, `The base URL of profile ${name},`, `Log in again with the base URL alone, the token kept in the token store: gw login --profile ${name} --base-url URL (without user:token@).`)
  return {
    baseUrl: profile.baseUrl,
    username: profile.username,
    environment: profile.environment,
    profileName: name,
    profile,
    source: named?.source ?? 'active',
    ...secretPlace(options.configDir, name, profile),
    ...timeouts,
  }
}

/**
 * design.md §6: credentials from the environment alone guard real money unless GW_ENVIRONMENT
 * says sandbox or the gateway is on this machine (the local one); what the gateway then reports
 * is checked against this on every answer.
 */
export function environmentOf(baseUrl: string, declared: string | undefined): Environment {
  if (declared === 'sandbox' || declared === 'live') return declared
  if (declared !== undefined && declared !== '') throw new UsageError(`GW_ENVIRONMENT must be sandbox or live, got "${declared}"`)
  let host: string
  try {
    host = new URL(baseUrl).hostname
  } catch {
    throw new UsageError(`GW_BASE_URL must be a URL such as https://gateway.example.com, got "${shownUrl(baseUrl)}"`)
  }
  return isLoopbackHost(host) ? 'sandbox' : 'live'
}

function secretPlace(configDir: string, name: string, profile: Profile): Pick<Target, 'secretStorage' | 'secretLocation'> {
  if (profile.publicToken) return {secretStorage: 'config', secretLocation: `${configFile(configDir)} (the local gateway's public demo token)`}
  if (profile.tokenStorage === 'file') return {secretStorage: 'file', secretLocation: insecureCredentialsFile(configDir)}
  return {secretStorage: 'keychain', secretLocation: `OS keychain, service gw, account ${name}`}
}

function timeoutFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name]
  if (value === undefined || value === '') return undefined
  const ms = Number(value)
  if (!Number.isInteger(ms) || ms <= 0) throw new UsageError(`${name} must be a whole number of milliseconds, got ${value}`, `For example ${name}=30000 for 30 s, or leave it unset for gw's own; gw help environment lists every variable gw reads.`)
  return ms
}
