import type {GatewayClient} from '../api/client.js'
import {AuthError, NotFoundError, UsageError} from '../errors.js'
import type {Io} from '../output/io.js'
import type {Prompter} from '../output/prompt.js'
import {type Environment, loadConfig, saveConfig} from './config.js'
import {profileRecord, type ProfileRecord} from './profiles.js'
import type {TokenStores} from './token-store.js'

export interface LoginFlags {
  profile?: string
  environment?: Environment
  baseUrl?: string
  username?: string
  tokenStdin: boolean
  readOnly: boolean
  insecureStorage: boolean
}

export interface LoginContext {
  configDir: string
  io: Io
  prompter: () => Promise<Prompter>
  tokens: TokenStores
  clientFor: (credentials: {baseUrl: string; username: string; token: string}) => Promise<GatewayClient>
}

const DEFAULT_PROFILE = 'default'
// Any id will do: a 404 means the gateway accepted the credentials, a 401 that it did not.
const PROBE_ID = 'gw-login-check'

/**
 * gw login: what the flags leave out is asked on a terminal (the token masked) or, without one,
 * must be given (the token on stdin, never in argv). The credentials are tried against the gateway
 * first; only then are the token stored and the profile saved and made active.
 */
export async function login(flags: LoginFlags, context: LoginContext): Promise<ProfileRecord> {
  const {io} = context
  const config = await loadConfig(context.configDir)
  const tokenStorage = flags.insecureStorage ? 'file' : 'keychain'
  const store = await context.tokens(tokenStorage)
  const ask = io.canPrompt() ? await context.prompter() : undefined
  // A read before the first question: with no keychain gw says so now, not after the token was typed.
  if (ask) await store.get(flags.profile ?? DEFAULT_PROFILE)
  const name = flags.profile ?? (ask ? await ask.text('Profile name', {default: DEFAULT_PROFILE, validate: notBlank}) : DEFAULT_PROFILE)
  const existing = config.profiles[name]
  const environment = flags.environment ?? (ask ? await ask.choose('Environment', ['sandbox', 'live'] as const, existing?.environment ?? 'sandbox') : (existing?.environment ?? 'sandbox'))
  const baseUrl = checkBaseUrl(flags.baseUrl ?? (ask ? await ask.text('Gateway base URL', {default: existing?.baseUrl, validate: validUrl}) : required(existing?.baseUrl, '--base-url')))
  const username = flags.username ?? (ask ? await ask.text('Username', {default: existing?.username, validate: notBlank}) : required(existing?.username, '--username'))
  const token = flags.tokenStdin ? (await io.readStdin()).trim() : ask ? await ask.secret('API token', notBlank) : missingToken()
  if (token === '') throw new UsageError('--token-stdin read an empty token', 'Pipe the token in, for example: printenv GATEWAY_TOKEN | gw login --token-stdin ...')

  await checkCredentials(baseUrl, username, token, context)

  await store.set(name, token)
  // Switching to the keychain: the plain-file copy must not outlive it.
  if (existing?.tokenStorage === 'file' && tokenStorage === 'keychain') await (await context.tokens('file')).delete(name)
  config.profiles[name] = {environment, baseUrl, username, ...(flags.readOnly ? {readOnly: true} : {}), ...(flags.insecureStorage ? {tokenStorage: 'file' as const} : {})}
  config.activeProfile = name
  await saveConfig(context.configDir, config)
  return profileRecord(name, config.profiles[name]!, name)
}

async function checkCredentials(baseUrl: string, username: string, token: string, context: LoginContext): Promise<void> {
  const client = await context.clientFor({baseUrl, username, token})
  try {
    await client.purchases.get(PROBE_ID)
  } catch (err) {
    if (err instanceof NotFoundError) return
    if (err instanceof AuthError) {
      throw new AuthError(`The gateway at ${baseUrl} refused username ${username} with that token: nothing was saved`, {status: err.status, requestId: err.requestId, hint: 'Check the username and the API token and run gw login again.'})
    }
    throw err
  } finally {
    await client.close()
  }
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`${flag} is needed: there is no terminal to ask on`, 'Without a terminal give --base-url, --username and the token on stdin with --token-stdin.')
  return value
}

function missingToken(): never {
  throw new UsageError('The API token is needed: there is no terminal to ask on', 'Pipe it in with --token-stdin (a token is never taken as an argument: arguments stay in shell history).')
}

function checkBaseUrl(value: string): string {
  const problem = validUrl(value)
  if (problem !== true) throw new UsageError(`--base-url ${problem}`)
  return value.trim().replace(/\/+$/, '')
}

function validUrl(value: string): string | true {
  try {
    const url = new URL(value.trim())
    return url.protocol === 'http:' || url.protocol === 'https:' ? true : `must be an http or https URL, got "${value}"`
  } catch {
    return `must be a URL such as https://gateway.example.com, got "${value}"`
  }
}

function notBlank(value: string): string | true {
  return value.trim() === '' ? 'must not be blank' : true
}
