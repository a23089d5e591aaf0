import {spawn} from 'node:child_process'
import {closeSync, fchmodSync, mkdirSync, openSync} from 'node:fs'
import {dirname} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {realPath} from '../../lib/file-identity.js'
import {stopMeaning, type StopSignalName} from '../../lib/platform.js'
import type {Mode} from '../domain/mode.js'
import type {MerchantCredentials} from '../domain/ids.js'
import type {Dialect} from '../dialect.js'
import {readRuntimeFile, type RuntimeInfo} from './runtime-file.js'

// Process management behind `gw sandbox start --detach`: the detached gateway, what a start asks of
// one already running, and how a gateway in the foreground is closed.

/** What a `gw sandbox start` asked for, of what the runtime file tells of a running gateway. */
export interface StartRequest {
  port?: number
  host?: string
  mode?: Mode
  dialect?: Dialect
  processingWindowMs?: number
  stateFile?: string
  webhooks?: string[]
  merchants?: string[]
  /** Whether it keeps a request log (--request-log, --no-request-log). */
  requestLog?: boolean
  allowedHosts?: string[]
  allowedOrigins?: string[]
}

/**
 * Where a start asks for a gateway other than the one running: each as the flag would say it, with
 * what the running one has. Only what was asked is compared; port 0 (any free one) matches any.
 */
export function differencesFrom(info: RuntimeInfo, asked: StartRequest): string[] {
  const differences: string[] = []
  const differ = (flag: string, wanted: string, running: string) => differences.push(`${flag} ${wanted} (it has ${running || 'none'})`)
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((value, i) => value === [...b].sort()[i])
  if (asked.port !== undefined && asked.port !== 0 && asked.port !== info.port) differ('--port', String(asked.port), String(info.port))
  if (asked.host !== undefined && asked.host !== info.host) differ('--host', asked.host, info.host)
  if (asked.mode !== undefined && asked.mode !== info.mode) differ('--mode', asked.mode, info.mode)
  if (asked.dialect !== undefined && asked.dialect !== (info.dialect ?? 'contract')) differ('--dialect', asked.dialect, info.dialect ?? 'contract')
  if (asked.processingWindowMs !== undefined && asked.processingWindowMs !== info.processingWindowMs) differ('--processing-window-ms', String(asked.processingWindowMs), String(info.processingWindowMs ?? ''))
  if (asked.stateFile !== undefined && !sameFile(asked.stateFile, info.stateFile)) differ('--state', asked.stateFile, info.stateFile ?? '')
  if (asked.webhooks !== undefined && !same(asked.webhooks, info.webhooks ?? [])) differ('--webhook', asked.webhooks.join(' '), (info.webhooks ?? []).join(' '))
  if (asked.merchants !== undefined && !same(asked.merchants, info.merchants ?? [])) differ('--merchant', asked.merchants.join(' '), (info.merchants ?? []).join(' '))
  if (asked.allowedHosts !== undefined && !same(asked.allowedHosts, info.allowedHosts ?? [])) differ('--allow-host', asked.allowedHosts.join(' '), (info.allowedHosts ?? []).join(' '))
  if (asked.allowedOrigins !== undefined && !same(asked.allowedOrigins, info.allowedOrigins ?? [])) differ('--allow-origin', asked.allowedOrigins.join(' '), (info.allowedOrigins ?? []).join(' '))
  // The gateway that writes the runtime file keeps its log in a file, or none: null is none.
  if (asked.requestLog !== undefined && info.requestLog !== undefined && asked.requestLog !== (info.requestLog !== null)) {
    differences.push(asked.requestLog ? '--request-log (it keeps none)' : `--no-request-log (it keeps one in ${info.requestLog})`)
  }
  return differences
}

/** Whether two names are one file (design.md §5: a symlink to the state file is the state file). */
function sameFile(asked: string, running: string | null | undefined): boolean {
  if (!running) return false
  try {
    return realPath(asked) === realPath(running)
  } catch {
    // A name that cannot be followed (a loop of links) is only itself.
    return asked === running
  }
}

const POLL_MS = 50

export interface DetachOptions {
  /** The program that runs gw: node, or gw's single executable (cli/startup/itself.ts). */
  execPath: string
  /** Its arguments: node's entry script if any, then those of a foreground `sandbox start` that writes `runtimeFile`. */
  args: string[]
  runtimeFile: string
  /** The child's stdout and stderr are appended here. */
  logFile: string
  /** Merchants beyond TEST: they reach the child through its environment, since argv shows in ps. */
  merchants?: readonly MerchantCredentials[]
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
}

/**
 * Starts the sandbox in a detached process and resolves once it listens, which it announces by
 * writing the runtime file with its own pid. Rejects, naming the log file, if it exits or stalls first.
 */
export async function spawnDetached(options: DetachOptions): Promise<RuntimeInfo> {
  const {execPath, args, runtimeFile, logFile, merchants = [], env = process.env, timeoutMs = 10_000} = options
  mkdirSync(dirname(logFile), {recursive: true, mode: 0o700})
  const log = openSync(logFile, 'a', 0o600)
  // Its user's alone, as the runtime file is: an older gw's was 0644.
  fchmodSync(log, 0o600)
  const child = spawn(execPath, args, {detached: true, stdio: ['ignore', log, log], env: {...env, ...merchantsVariable(merchants)}})
  closeSync(log)
  child.unref()
  let exit: string | undefined
  child.once('error', (error) => {
    exit = `could not be started (${error.message})`
  })
  child.once('exit', (code, signal) => {
    exit = `exited (${signal ?? `code ${code}`}) before it was ready`
  })

  const deadline = Date.now() + timeoutMs
  for (;;) {
    const info = readRuntimeFile(runtimeFile)
    if (info && info.pid === child.pid) return info
    if (exit) throw new Error(`The sandbox ${exit}; see ${logFile}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`The sandbox did not start within ${timeoutMs} ms; see ${logFile}`)
    }
    await sleep(POLL_MS)
  }
}

/** Carries `--merchant` credentials to a detached sandbox: a process's environment, unlike its argv, is not shown by `ps`. */
export const MERCHANTS_VARIABLE = 'GW_SANDBOX_MERCHANTS'

/** The command line of a detached child: the parent's, less `--detach` and every `--merchant` with its value. */
export function detachedArguments(argv: readonly string[]): string[] {
  const kept: string[] = []
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string
    if (arg === '--merchant') index++
    else if (arg !== '--detach' && !arg.startsWith('--merchant=')) kept.push(arg)
  }
  return kept
}

export const merchantsVariable = (merchants: readonly MerchantCredentials[]): Record<string, string> => ({
  [MERCHANTS_VARIABLE]: JSON.stringify(merchants),
})

/**
 * The merchants a detaching parent passed in the environment. The variable is removed once
 * read, so nothing the sandbox starts later inherits the tokens.
 */
export function merchantsFromEnvironment(env: NodeJS.ProcessEnv = process.env): MerchantCredentials[] {
  const text = env[MERCHANTS_VARIABLE]
  delete env[MERCHANTS_VARIABLE]
  if (text === undefined) return []
  const merchants = JSON.parse(text) as unknown
  const valid =
    Array.isArray(merchants) &&
    merchants.every((merchant: Partial<MerchantCredentials> | null) => typeof merchant?.username === 'string' && typeof merchant.token === 'string')
  if (!valid) throw new Error(`${MERCHANTS_VARIABLE} must be a JSON list of {username, token}`)
  return merchants as MerchantCredentials[]
}

/**
 * Resolves once `close` has finished, with what stopped the gateway: the first of `signals`
 * (Ctrl-Break as SIGTERM), or `asked`, its own control API's stop (POST /_sandbox/stop), which
 * closes it as SIGTERM does. The handlers come off as soon as one arrives, so a second Ctrl-C
 * during a slow shutdown exits at once.
 */
export function closeOnStop(close: () => Promise<void>, {signals = ['SIGINT', 'SIGTERM'], asked}: {signals?: readonly StopSignalName[]; asked?: Promise<void>} = {}): Promise<NodeJS.Signals | 'asked'> {
  return new Promise((resolve, reject) => {
    let stopping = false
    const stop = (why: NodeJS.Signals | 'asked') => {
      if (stopping) return
      stopping = true
      for (const name of signals) process.off(name, onSignal)
      close().then(() => resolve(why), reject)
    }
    const onSignal = (received: StopSignalName) => stop(stopMeaning(received))
    for (const name of signals) process.on(name, onSignal)
    void asked?.then(() => stop('asked'))
  })
}
