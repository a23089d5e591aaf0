import type {GatewayClient} from '../api/client.js'
import {AuthError, ModeMismatchError, NotFoundError, UsageError} from '../errors.js'
import type {Io} from '../output/io.js'
import type {Prompter} from '../output/prompter.js'
import {changeConfig, type Config, type Environment, loadConfig, type TokenStore, type TokenStorage} from './config.js'
import {KeychainUnavailableError} from './keychain.js'
import {profileRecord, type ProfileRecord} from './profiles.js'
import {environmentOf} from './resolve.js'
import type {TokenStores} from './token-store.js'
import {gatewayRoot} from '../api/base-url.js'
import {baseUrlProblem, checkBaseUrl as checkGivenUrl, refusePlainHttpToken} from './url-safety.js'

export interface LoginFlags {
  profile?: string
  environment?: Environment
  baseUrl?: string
  username?: string
  tokenStdin: boolean
  readOnly: boolean
  insecureStorage: boolean
  /** Make the profile the active one: true, false, or undefined to decide (activation). */
  activate?: boolean
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
 * first, and the mode it reports decides the profile's environment; only then are the token
 * stored and the profile saved and made active. Undefined when the person at the terminal chose
 * the environment variables over a plain file, for want of a keychain: nothing is saved then.
 */
export async function login(flags: LoginFlags, context: LoginContext): Promise<ProfileRecord | undefined> {
  const {io} = context
  const config = await loadConfig(context.configDir)
  const ask = io.canPrompt() ? await context.prompter() : undefined
  const storage = await tokenStorage(flags, context, ask)
  if (!storage) return undefined
  const {store, kind} = storage
  const name = flags.profile ?? (ask ? await ask.text('Profile name', {default: DEFAULT_PROFILE, validate: notBlank}) : DEFAULT_PROFILE)
  const existing = config.profiles[name]
  const given = flags.baseUrl ?? (ask ? await ask.text('Gateway base URL', {default: existing?.baseUrl, validate: validUrl}) : required(existing?.baseUrl, '--base-url'))
  const baseUrl = checkBaseUrl(given)
  // The token is tried against the gateway before its mode is known: over plain http only to this machine, or to a gateway said to be a sandbox.
  refusePlainHttpToken({baseUrl, environment: flags.environment ?? environmentOf(baseUrl, undefined), profileName: name})
  if (baseUrl !== given.trim().replace(/\/+$/, '')) io.err(`The base URL is saved as ${baseUrl}: gw adds /v1.0 to every path itself.\n`)
  const username = flags.username ?? (ask ? await ask.text('Username', {default: existing?.username, validate: notBlank}) : required(existing?.username, '--username'))
  const token = flags.tokenStdin ? (await io.readStdin()).trim() : ask ? await ask.secret('API token', notBlank) : missingToken()
  if (token === '') throw new UsageError('--token-stdin read an empty token', 'Pipe the token in, for example: printenv GATEWAY_TOKEN | gw login --token-stdin ...')

  const reported = await checkCredentials(baseUrl, username, token, context)
  const environment = await environmentFor(flags.environment, reported, {baseUrl, existing: existing?.environment, ask})

  await store.set(name, token)
  // Switching to the keychain: the plain-file copy must not outlive it.
  if (existing?.tokenStorage === 'file' && kind === 'keychain') await (await context.tokens('file')).delete(name)
  const active = activeOf(config, name)
  // Asked before config.json is locked: another gw must not wait on a person.
  const activate = await activation(flags.activate, {name, environment, active, ask})
  const saved = await changeConfig(context.configDir, (latest) => {
    latest.profiles[name] = {environment, baseUrl, username, ...(flags.readOnly ? {readOnly: true} : {}), ...(kind === 'file' ? {tokenStorage: 'file' as const} : {})}
    if (activate) latest.activeProfile = name
    return {profile: latest.profiles[name], active: latest.activeProfile}
  })
  if (reported && !flags.environment) {
    io.err(reported === 'live' ? `The gateway at ${baseUrl} reports live mode: profile ${name} is saved as a live profile (real money: confirmations, no card data in arguments).\n` : `The gateway at ${baseUrl} reports sandbox mode: profile ${name} is saved as a sandbox profile.\n`)
  }
  if (saved.active !== name) {
    const still = saved.active ? `still use profile ${saved.active}` : 'use no profile until one is active'
    io.err(`Profile ${name} was not made active: commands without --profile ${still}. Give --profile ${name}, or make it active with gw profile use ${name}.\n`)
  }
  return profileRecord(name, saved.profile, saved.active)
}

/** The profile active now, when it is one (a profile being logged in again counts, whether or not it was saved before). */
function activeOf(config: Config, name: string): string | undefined {
  const active = config.activeProfile
  return active !== undefined && (active === name || config.profiles[active] !== undefined) ? active : undefined
}

/**
 * Whether the profile saved becomes the active one. A sandbox profile does, as it always has. A
 * live one only with --activate or when the person at the terminal says so (without a terminal it
 * is saved, not switched to): a read that silently goes live is the habit Stripe's CLI avoids.
 * Logging in again to the active profile keeps it active.
 */
async function activation(flag: boolean | undefined, {name, environment, active, ask}: {name: string; environment: Environment; active?: string; ask?: Prompter}): Promise<boolean> {
  if (flag !== undefined) return flag
  if (environment !== 'live' || active === name) return true
  if (!ask) return false
  const keep = `No: ${active ? `keep ${active} active` : 'leave no profile active'}; give --profile ${name} for live work`
  const make = `Yes: make ${name} active (commands without --profile then work on real money)`
  return (await ask.choose(`Make the live profile ${name} the active one?`, [keep, make] as const, keep)) === make
}

const FILE_CHOICE = 'Keep the token in a file only I can read (--insecure-storage)'
const ENVIRONMENT_CHOICE = 'Give the credentials in environment variables instead (nothing is saved)'

/**
 * Where the token will go. On a terminal the keychain is tried before anything is asked: without
 * one, the person chooses a plain file or the environment variables (design.md §6), rather than
 * learning of it after typing the token. Undefined when they chose the environment variables.
 */
async function tokenStorage(flags: LoginFlags, context: LoginContext, ask: Prompter | undefined): Promise<{store: TokenStore; kind: TokenStorage} | undefined> {
  const kind: TokenStorage = flags.insecureStorage ? 'file' : 'keychain'
  const store = await context.tokens(kind)
  if (!ask || kind === 'file') return {store, kind}
  try {
    await store.get(flags.profile ?? DEFAULT_PROFILE)
    return {store, kind}
  } catch (err) {
    // A keychain call that hangs is still pending and would hold gw open: that one is only reported.
    if (!(err instanceof KeychainUnavailableError) || err.abandonsPendingCall) throw err
    context.io.err(`${err.message}\n`)
    const choice = await ask.choose('Where should gw keep the token instead?', [FILE_CHOICE, ENVIRONMENT_CHOICE] as const, FILE_CHOICE)
    if (choice === FILE_CHOICE) return {store: await context.tokens('file'), kind: 'file'}
    context.io.err(
      'Nothing was saved. Set these in the environment gw runs in (the token from wherever you keep secrets, not typed on a command line):\n' +
        '  GW_USERNAME=your-username  GW_TOKEN=your-api-token  GW_BASE_URL=https://gateway.example.com\n' +
        '  GW_ENVIRONMENT=sandbox or live (credentials from the environment count as live unless the gateway is on this machine)\n',
    )
    return undefined
  }
}

/**
 * The profile's environment: what the gateway reports, and a --environment that says otherwise is
 * refused (a live gateway behind a sandbox profile would have every live protection off). With no
 * mode reported, the flag, or the question, or live unless the gateway is on this machine.
 */
async function environmentFor(
  flag: Environment | undefined,
  reported: Environment | undefined,
  {baseUrl, existing, ask}: {baseUrl: string; existing?: Environment; ask?: Prompter},
): Promise<Environment> {
  if (flag && reported && flag !== reported) {
    throw new ModeMismatchError(`The gateway at ${baseUrl} reports ${reported} mode, not ${flag}: nothing was saved`, {expected: flag, reported}, {
      hint: `Run gw login again with --environment ${reported}, or check --base-url.`,
    })
  }
  if (flag ?? reported) return (flag ?? reported)!
  const guess = existing ?? environmentOf(baseUrl, undefined)
  return ask ? ask.choose('Environment (the gateway does not say)', ['sandbox', 'live'] as const, guess) : guess
}

/** Tries the credentials; returns the mode the gateway reported with its answer, if it did. */
async function checkCredentials(baseUrl: string, username: string, token: string, context: LoginContext): Promise<Environment | undefined> {
  const client = await context.clientFor({baseUrl, username, token})
  try {
    await client.purchases.get(PROBE_ID)
  } catch (err) {
    if (err instanceof AuthError) {
      throw new AuthError(`The gateway at ${baseUrl} refused username ${username} with that token: nothing was saved`, {status: err.status, requestId: err.requestId, hint: 'Check the username and the API token and run gw login again.'})
    }
    if (!(err instanceof NotFoundError)) throw err
  } finally {
    await client.close()
  }
  return client.reportedMode
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`${flag} is needed: there is no terminal to ask on`, 'Without a terminal give --base-url, --username and the token on stdin with --token-stdin.')
  return value
}

function missingToken(): never {
  throw new UsageError('The API token is needed: there is no terminal to ask on', 'Pipe it in with --token-stdin (a token is never taken as an argument: arguments stay in shell history).')
}

function checkBaseUrl(value: string): string {
  checkGivenUrl(value, '--base-url', 'Give the base URL alone: gw keeps the token in the token store (asked for, or --token-stdin), and --username names the user.')
  return gatewayRoot(value)
}

/** Asked on a terminal: said before the rest is asked; a value that may hold a token is never echoed whole. */
function validUrl(value: string): string | true {
  return baseUrlProblem(value) ?? true
}

function notBlank(value: string): string | true {
  return value.trim() === '' ? 'must not be blank' : true
}
