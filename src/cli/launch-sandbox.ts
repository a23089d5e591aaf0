import {ownerWords} from '../lib/not-yours.js'
import {absolutePath} from '../lib/file-identity.js'
import {GwError, PermissionError, UsageError} from '../errors.js'
import {isLoopbackHost, isLoopbackUrl, reachableUrl} from '../lib/loopback.js'
import type {Platform} from '../lib/platform.js'
import type {Io} from '../output/io.js'
import {renderWarning} from '../output/warning.js'
import {closeOnStop, DetachedStartError, differencesFrom, merchantsFromEnvironment, spawnDetached, type StartRequest} from '../sandbox/server/daemon.js'
import {sandboxStatus} from '../sandbox/server/gateway-process.js'
import {nameKey, removeRuntimeFile, type RuntimeInfo, sandboxFiles, type SandboxFiles} from '../sandbox/server/runtime-file.js'
import {stopSandbox} from '../sandbox/server/stopping.js'
import type {MerchantCredentials} from '../sandbox/domain/ids.js'
import type {Mode} from '../sandbox/domain/mode.js'
import {DEFAULT_SANDBOX} from '../sandbox/server/names.js'
import type {RunningSandbox} from '../sandbox/server/server.js'
import type {Dialect} from '../sandbox/dialect.js'
import type {WebHookOrder} from '../sandbox/domain/web-hook-order.js'
import {flagsGiven, type FlagTable, tokens, wordsOf} from './startup/argv.js'

/**
 * `gw sandbox start` from its flags to a gateway listening: in the foreground until a signal, in
 * a detached process of its own, or the one already running when it is the one asked for. Local
 * gateways run side by side by name (--name), each with its own port, files (sandbox/server/daemon.ts
 * sandboxFiles) and profile, named after it; of those started under one name, only the first
 * running owns the runtime file that status and stop read, and the profile.
 */
export interface LaunchRequest {
  /** `local` when not given: the default gateway, profile local. One name whatever its case: that of the one running wins. */
  name: string
  port: number
  host: string
  /** Beyond loopback, let merchant TEST in with its published token. */
  openTestMerchant?: boolean
  /** --allow-host and --allow-origin: guard.ts. */
  allowedHosts: string[]
  allowedOrigins: string[]
  mode: Mode
  dialect: Dialect
  /** As given: relative to the working directory, or absolute. */
  stateFile?: string
  /** Merchants beyond TEST, and addresses that get every web hook event of TEST; undefined when not given. */
  merchants?: MerchantCredentials[]
  webhooks?: string[]
  webhookBackoffMs?: number
  requestLog: boolean
  /** The most it takes to process a request, which it tells gw (GET /_sandbox/clock). */
  processingWindowMs: number
  /** Each merchant's API requests a second, past which they are answered 429; none when not given. */
  rateLimit?: number
  /** How long each API answer waits, as over a network; none when not given. */
  latencyMs?: number
  /** The order its lists of web hooks come in. */
  webHookOrder: WebHookOrder
  detach: boolean
  restart: boolean
  /** This process is the background one a `--detach` start spawned: its parent registers the profile and reports. */
  detachedChild: boolean
  verbose: boolean
  /** The command line: which flags it gave in so many words, and what a detached start runs again in the background. */
  argv: readonly string[]
  /** The command's flags, as argv is read with them (`--merchant A:x B:y` gives two merchants). */
  grammar: FlagTable
}

export interface LaunchContext {
  io: Io
  /** oclif's dataDir: the runtime file, the detached gateway's output and its request log. */
  dataDir: string
  /** oclif's configDir, where profile local is saved. */
  configDir: string
  platform: Platform
}

/** How a foreground gateway ended: Ctrl-C is how it is meant to stop, 130 as design.md §4 says, quietly. */
export type Launched = {exitCode: number} | undefined

export async function launchSandbox(asked: LaunchRequest, ctx: LaunchContext): Promise<Launched> {
  const files = sandboxFiles(ctx.dataDir, asked.name)
  const running = await sandboxStatus(files.runtime, ctx.platform)
  if (running.state === 'theirs') {
    throw new PermissionError(`The local gateway${named(asked.name)} of ${files.runtime} belongs to ${ownerWords(running.owner)}: gw starts none under a name another user's gateway holds`, {hint: 'Start it with another --name, or keep your gw data folder to yourself (GW_DATA_DIR).'})
  }
  // `--name shop` while `Shop` runs is that gateway, and its profile is Shop.
  const name = running.state === 'running' ? (running.info.name ?? asked.name) : asked.name
  // The default gateway has its own port; another takes a free one unless told which.
  const request = {...asked, name, ...(nameKey(name) !== DEFAULT_SANDBOX && !flagsGiven(asked.argv, asked.grammar).has('port') ? {port: 0} : {})}
  await refuseOthersProfile(request.name, ctx.configDir)
  if (running.state === 'running' && !request.detachedChild) {
    const differences = differencesFrom(running.info, askedFor(request))
    if (request.restart) await stopRunning(running.info, files.runtime, ctx)
    else if (differences.length > 0) {
      throw new UsageError(
        `The local gateway${named(request.name)} already running at ${running.info.url} (pid ${running.info.pid}) is not the one asked for: ${differences.join(', ')}`,
        `Stop it first with gw sandbox stop${nameFlag(request.name)}, or add --restart to stop it and start one with these flags${request.name === DEFAULT_SANDBOX ? "; or run another beside it with --name NAME" : ''}.`,
      )
    } else if (request.detach) {
      await registerProfile(running.info, request.name, ctx)
      ctx.io.err(`The local gateway${named(request.name)} is already running at ${running.info.url} (pid ${running.info.pid}).\n`)
      ctx.io.out(running.info.url + '\n')
      return undefined
    }
  }
  if (request.detach) return startDetached(request, ctx, files)
  return startForeground(request, ctx, files)
}

/** The same start in the foreground, in a process of its own that outlives this one. */
async function startDetached(request: LaunchRequest, ctx: LaunchContext, files: SandboxFiles): Promise<Launched> {
  const gw = (await import('./startup/itself.js')).gwItself()
  const args = [...gw.args, 'sandbox', 'start', ...detachedArguments(request.argv, request.grammar), '--detached-child']
  // Merchant tokens go through the environment (spawnDetached): argv is visible to every user in ps.
  const info = await spawnDetached({execPath: gw.file, args, runtimeFile: files.runtime, logFile: files.log, merchants: request.merchants ?? []}).catch((err: unknown) =>
    Promise.reject(detachedFailure(err)),
  )
  await registerProfile(info, request.name, ctx)
  const requests = info.requestLog ? `; requests logged to ${info.requestLog} (gw sandbox logs)` : ''
  ctx.io.err(`Local gateway${named(request.name)} running in the background at ${info.url} (pid ${info.pid}, ${info.mode} mode, ${info.dialect} dialect); its output in ${files.log}${requests}. Stop it with: gw sandbox stop${nameFlag(request.name)}\n`)
  if (!info.stateFile) ctx.io.err(`${IN_MEMORY}\n`)
  warnBeyondLoopback(request, info.controlToken, files.runtime, ctx.io)
  ctx.io.out(info.url + '\n')
  return undefined
}

async function startForeground(request: LaunchRequest, ctx: LaunchContext, files: SandboxFiles): Promise<Launched> {
  const [{startSandbox}, {requestLogBeside}] = await Promise.all([import('../sandbox/server/server.js'), import('../sandbox/server/request-log.js')])
  const ownsRuntimeFile = (await sandboxStatus(files.runtime, ctx.platform)).state !== 'running'
  const merchants = request.detachedChild ? merchantsFromEnvironment() : (request.merchants ?? [])
  const stateFile = request.stateFile && absolutePath(request.stateFile)
  // Another gateway without a state file of its own keeps its log in memory: gw's data folder holds the first one's.
  const requestLogFile = stateFile ? requestLogBeside(stateFile) : ownsRuntimeFile ? files.requestLog : undefined
  const sandbox: RunningSandbox = await startSandbox({
    port: request.port,
    host: request.host,
    allowedHosts: request.allowedHosts,
    allowedOrigins: request.allowedOrigins,
    openTestMerchant: request.openTestMerchant,
    stateFile,
    mode: request.mode,
    dialect: request.dialect,
    merchants,
    webhooks: request.webhooks ?? [],
    webhookBackoffMs: request.webhookBackoffMs,
    requestLog: request.requestLog ? {file: requestLogFile} : false,
    processingWindowMs: request.processingWindowMs,
    rateLimit: request.rateLimit,
    latencyMs: request.latencyMs,
    webHookOrder: request.webHookOrder,
    runtimeFile: ownsRuntimeFile ? files.runtime : undefined,
    name: request.name,
    platform: ctx.platform,
    log: request.verbose ? (line) => ctx.io.err(line + '\n') : undefined,
  }).catch((err: unknown) => Promise.reject(startFailure(err, request)))

  if (!request.detachedChild && ownsRuntimeFile) await registerProfile({url: sandbox.url, host: request.host, mode: request.mode, openTestMerchant: request.openTestMerchant}, request.name, ctx)
  else if (!ownsRuntimeFile) {
    ctx.io.err(
      `Another local gateway${named(request.name)} is running (gw sandbox status); profile "${request.name}" stays pointed at it. Reach this one with GW_BASE_URL=${sandbox.url} GW_USERNAME=TEST GW_TOKEN=TEST, or start it with --name NAME for a profile of its own.\n`,
    )
  }
  const names = ['TEST', ...merchants.map((merchant) => merchant.username)].join(', ')
  const logged = !request.requestLog ? '; no request log' : requestLogFile ? `; request log ${requestLogFile}` : '; request log in memory'
  const state = request.stateFile ? `; state in ${request.stateFile}` : `; ${IN_MEMORY.charAt(0).toLowerCase()}${IN_MEMORY.slice(1, -1)}`
  ctx.io.err(`Local gateway${named(request.name)} listening on ${sandbox.url} (${request.mode} mode, ${request.dialect === 'live' ? "answering as the live gateway's recordings do" : 'answering as the contract says'}${manners(request)}; merchants ${names}${state}${logged}). Ctrl-C stops it.\n`)
  ctx.io.out(sandbox.url + '\n')
  if (!request.detachedChild) warnBeyondLoopback(request, sandbox.controlToken, ownsRuntimeFile ? files.runtime : undefined, ctx.io)
  const stopped = await closeOnStop(() => sandbox.close(), {signals: ctx.platform.serviceSignals, asked: sandbox.stopAsked})
  ctx.io.err(stopped === 'asked' ? 'Local gateway stopped: gw sandbox stop asked it to.\n' : 'Local gateway stopped.\n')
  return {exitCode: stopped === 'SIGINT' ? 130 : 0}
}

/** The live gateway's manners it was given, as its start says them: `, at most 100 requests a second a merchant, answers 150 ms late, web hooks listed newest first`. */
function manners({rateLimit, latencyMs, webHookOrder}: Pick<LaunchRequest, 'rateLimit' | 'latencyMs' | 'webHookOrder'>): string {
  const limit = rateLimit === undefined ? '' : `, at most ${rateLimit} requests a second a merchant`
  return `${limit}${latencyMs ? `, answers about ${latencyMs} ms late` : ''}${webHookOrder === 'newest' ? ', web hooks listed newest first' : ''}`
}

/** What a local gateway without --state keeps, said when it starts: gw sandbox stop says it again as it loses them. */
const IN_MEMORY = 'Its records are kept in memory only and are gone when it stops: --state FILE keeps them.'

/** Why the gateway could not start, as the user can act on it: a state file or an address it cannot have. */
function startFailure(err: unknown, {host, port}: Pick<LaunchRequest, 'host' | 'port'>): unknown {
  const {name, message, code, hint} = err as Error & {code?: string; hint?: string}
  if (name === 'StateFileError') return new UsageError(message, hint ?? 'Pick another --state file: gw never overwrites a file it cannot read.')
  if (code === 'EADDRINUSE') return new UsageError(`Port ${port} on ${host} is already in use`, 'Is a local gateway already running (gw sandbox status)? Or pick another --port, 0 for any free one.')
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL') return new UsageError(`Cannot listen on ${host}:${port} (${code})`, 'Pick another --host or --port.')
  // getaddrinfo's: a name no resolver knows (a typo, a trailing dot after an address), or none to ask.
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NONAME') {
    return new UsageError(`--host ${host} names no address gw can find (${code}): the local gateway cannot listen there`, 'Give an address of this machine: 127.0.0.1 (the default), 0.0.0.0 for every address, or a name that resolves to one of its own.')
  }
  return err
}

/**
 * A detached start that failed, as the foreground would have said it: the gateway's own error and
 * hint, from its log, with its exit code; else what became of it, naming the log.
 */
function detachedFailure(err: unknown): unknown {
  if (!(err instanceof DetachedStartError)) return err
  if (!err.told) return new GwError('unexpected', 1, err.message, {hint: `Its output is in ${err.logFile}.`})
  const code = err.exitCode ?? 1
  const kind = code === 2 ? 'usage' : code === 6 ? 'permission' : 'unexpected'
  return new GwError(kind, code, err.told.message, {hint: err.told.hint ?? `Its output is in ${err.logFile}.`})
}

async function stopRunning(info: RuntimeInfo, runtimeFile: string, {io, platform}: LaunchContext): Promise<void> {
  const stopped = await stopSandbox(info, platform)
  if (stopped.result === 'theirs' || stopped.result === 'unknown') {
    throw new UsageError(`The local gateway at ${info.url} (pid ${info.pid}) could not be stopped to start it again`, `Stop it first: gw sandbox stop${nameFlag(info.name ?? DEFAULT_SANDBOX)} says why.`)
  }
  removeRuntimeFile(runtimeFile, info.pid)
  io.err(`Stopped the local gateway at ${info.url} to start it again.\n`)
}

/**
 * The local gateway as its profile (local, or its name), made active when no other profile is,
 * as merchant TEST at an address of this machine. Beyond loopback, where TEST is refused without
 * --open-test-merchant, gw sends the gateway's control token with TEST's credentials from here
 * (cli/local-gateway-keys.ts): the profile is the user's alone. On an address of another machine
 * that gw would reach over the network, no profile.
 */
async function registerProfile(info: Pick<RuntimeInfo, 'url' | 'host' | 'mode' | 'openTestMerchant'>, name: string, {configDir, io}: LaunchContext): Promise<void> {
  const shut = !isLoopbackHost(info.host) && !info.openTestMerchant
  if (shut && !isLoopbackUrl(reachableUrl(info.url))) {
    io.err(`No profile "${name}" is registered: merchant TEST is refused beyond loopback. Reach it as a merchant of yours: GW_BASE_URL=${reachableUrl(info.url)} GW_USERNAME=USER GW_TOKEN=... gw ...\n`)
    return
  }
  if (shut) io.err(`Profile "${name}" reaches it as merchant TEST from this machine only: gw sends its control token with TEST's credentials, and TEST alone is refused.\n`)
  const {saveLocalProfile} = await import('../auth/local-profile.js')
  const {activated} = await saveLocalProfile(configDir, reachableUrl(info.url), info.mode, name)
  if (activated) io.err(`Profile "${name}" is now active: gw commands talk to this gateway as merchant TEST.\n`)
  else if (name !== DEFAULT_SANDBOX) io.err(`Profile "${name}" talks to this gateway as merchant TEST: gw --profile ${name} ...\n`)
}

/** A local gateway takes its name for its profile: never one a person made, with its credentials. */
async function refuseOthersProfile(name: string, configDir: string): Promise<void> {
  const {othersProfile} = await import('../auth/local-profile.js')
  const profile = await othersProfile(configDir, name)
  if (!profile) return
  throw new UsageError(`Profile "${name}" is yours (${profile.environment}, ${profile.baseUrl}): a local gateway named ${name} would take its place. Nothing was started`, 'Start it with another --name.')
}

/**
 * Listening beyond loopback: what that exposes, and the control token its controls then take,
 * which only this user can read again (in the runtime file, 0600).
 */
function warnBeyondLoopback(request: LaunchRequest, controlToken: string, runtimeFile: string | undefined, io: Io): void {
  if (isLoopbackHost(request.host)) return
  const controls = 'its controls (/_sandbox/: reset, with the --state file; faults; the clock; sample events; every merchant\'s request log)'
  const open = request.openTestMerchant
    ? `and --open-test-merchant lets anyone who reaches it in as merchant TEST, whose token (TEST) is published: they can read and make TEST's records and use ${controls}`
    : `where its merchants need their own credentials (merchant TEST, whose token is published, is refused; --open-test-merchant lets it in) and ${controls} need the control token (your own gw sends it from this machine; a merchant's credentials reach only that merchant's sample events and requests)`
  renderWarning(io, `listening on ${request.host} makes the local gateway reachable from other machines, ${open}.`)
  io.err(`Its control token (for /_sandbox/ as Authorization: Bearer TOKEN${runtimeFile ? `; kept in ${runtimeFile}, readable by you alone` : ''}): ${controlToken}\n`)
}

/** ` rehearsal`, to follow "local gateway" in a message about one that has a name of its own. */
const named = (name: string) => (name === DEFAULT_SANDBOX ? '' : ` ${name}`)
/** The --name a command needs to reach this gateway again. */
const nameFlag = (name: string) => (name === DEFAULT_SANDBOX ? '' : ` --name ${name}`)

/**
 * The command line of a detached child: the parent's, less --detach and every --merchant with all
 * its values, which travel in the environment (merchantsVariable): argv is shown by ps.
 */
export function detachedArguments(argv: readonly string[], grammar: FlagTable): string[] {
  return tokens(argv, grammar).flatMap((token) => (token.kind === 'flag' && (token.name === 'detach' || token.name === 'merchant') ? [] : wordsOf(token)))
}

function askedFor(request: LaunchRequest): StartRequest {
  // The flags given in so many words: a default left as it is matches whatever gateway is running, and a named gateway takes a free port.
  const given = flagsGiven(request.argv, request.grammar)
  return {
    ...(given.has('port') ? {port: request.port} : {}),
    ...(given.has('host') ? {host: request.host} : {}),
    ...(given.has('allow-host') ? {allowedHosts: request.allowedHosts} : {}),
    ...(given.has('allow-origin') ? {allowedOrigins: request.allowedOrigins} : {}),
    ...(given.has('mode') ? {mode: request.mode} : {}),
    ...(given.has('dialect') ? {dialect: request.dialect} : {}),
    ...(given.has('processing-window-ms') ? {processingWindowMs: request.processingWindowMs} : {}),
    ...(given.has('web-hook-order') ? {webHookOrder: request.webHookOrder} : {}),
    ...(request.rateLimit === undefined ? {} : {rateLimit: request.rateLimit}),
    ...(request.latencyMs === undefined ? {} : {latencyMs: request.latencyMs}),
    ...(request.stateFile === undefined ? {} : {stateFile: absolutePath(request.stateFile)}),
    ...(request.webhooks ? {webhooks: request.webhooks} : {}),
    ...(request.merchants ? {merchants: request.merchants.map((merchant) => merchant.username)} : {}),
    ...(given.has('request-log') ? {requestLog: request.requestLog} : {}),
  }
}
