import {spawn} from 'node:child_process'
import {closeSync, constants, fstatSync, mkdirSync, openSync, readSync} from 'node:fs'
import {dirname} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {realPath} from '../../lib/file-identity.js'
import {openOwnFileSync} from '../../lib/own-file.js'
import {stopMeaning, type StopSignalName} from '../../lib/platform.js'
import type {Mode} from '../domain/mode.js'
import type {MerchantCredentials} from '../domain/ids.js'
import type {Dialect} from '../dialect.js'
import type {WebHookOrder} from '../domain/web-hook-order.js'
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
  rateLimit?: number
  latencyMs?: number
  webHookOrder?: WebHookOrder
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
  if (asked.dialect !== undefined && asked.dialect !== info.dialect) differ('--dialect', asked.dialect, info.dialect)
  if (asked.processingWindowMs !== undefined && asked.processingWindowMs !== info.processingWindowMs) differ('--processing-window-ms', String(asked.processingWindowMs), String(info.processingWindowMs))
  if (asked.rateLimit !== undefined && asked.rateLimit !== info.rateLimit) differ('--rate-limit', String(asked.rateLimit), String(info.rateLimit ?? ''))
  if (asked.latencyMs !== undefined && asked.latencyMs !== info.latencyMs) differ('--latency', String(asked.latencyMs), String(info.latencyMs || ''))
  if (asked.webHookOrder !== undefined && asked.webHookOrder !== info.webHookOrder) differ('--web-hook-order', asked.webHookOrder, info.webHookOrder)
  if (asked.stateFile !== undefined && !sameFile(asked.stateFile, info.stateFile)) differ('--state', asked.stateFile, info.stateFile ?? '')
  if (asked.webhooks !== undefined && !same(asked.webhooks, info.webhooks)) differ('--webhook', asked.webhooks.join(' '), info.webhooks.join(' '))
  if (asked.merchants !== undefined && !same(asked.merchants, info.merchants)) differ('--merchant', asked.merchants.join(' '), info.merchants.join(' '))
  if (asked.allowedHosts !== undefined && !same(asked.allowedHosts, info.allowedHosts ?? [])) differ('--allow-host', asked.allowedHosts.join(' '), (info.allowedHosts ?? []).join(' '))
  if (asked.allowedOrigins !== undefined && !same(asked.allowedOrigins, info.allowedOrigins ?? [])) differ('--allow-origin', asked.allowedOrigins.join(' '), (info.allowedOrigins ?? []).join(' '))
  // The gateway that writes the runtime file keeps its log in a file, or none: null is none.
  if (asked.requestLog !== undefined && asked.requestLog !== (info.requestLog !== null)) {
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
 * Why a detached gateway did not start: what it said (its error and hint, as a foreground start
 * would have printed them) when it said anything, its exit code, and the log that holds the rest.
 */
export class DetachedStartError extends Error {
  override name = 'DetachedStartError'

  constructor(
    message: string,
    readonly logFile: string,
    /** The error the gateway printed before it exited, as it printed it. */
    readonly told?: {message: string; hint?: string},
    /** Its exit code, when it exited with one. */
    readonly exitCode?: number,
  ) {
    super(message)
  }
}

/**
 * Starts the sandbox in a detached process and resolves once it listens, which it announces by
 * writing the runtime file with its own pid. Rejects (DetachedStartError) if it exits or stalls
 * first, with the error it printed into its log, so that the terminal hears it as the foreground would.
 */
export async function spawnDetached(options: DetachOptions): Promise<RuntimeInfo> {
  const {execPath, args, runtimeFile, logFile, merchants = [], env = process.env, timeoutMs = 10_000} = options
  mkdirSync(dirname(logFile), {recursive: true, mode: 0o700})
  // The user's own (never through another's link), and its user's alone as the runtime file is (one left readable by others made 0600).
  const {fd: log} = openOwnFileSync(logFile, constants.O_WRONLY | constants.O_APPEND)
  // What this start writes there begins here: the child's error, if it fails, is read back from it.
  const from = fstatSync(log).size
  const child = spawn(execPath, args, {detached: true, stdio: ['ignore', log, log], env: {...env, ...merchantsVariable(merchants)}})
  closeSync(log)
  child.unref()
  let exit: {why: string; code?: number} | undefined
  child.once('error', (error) => {
    exit = {why: `could not be started (${error.message})`}
  })
  child.once('exit', (code, signal) => {
    exit = {why: `exited (${signal ?? `code ${code}`}) before it was ready`, ...(code === null ? {} : {code})}
  })

  const deadline = Date.now() + timeoutMs
  for (;;) {
    const info = readRuntimeFile(runtimeFile)
    if (info && info.pid === child.pid) return info
    if (exit) throw new DetachedStartError(`The local gateway ${exit.why}; see ${logFile}`, logFile, errorIn(appended(logFile, from)), exit.code)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new DetachedStartError(`The local gateway did not start within ${timeoutMs} ms; see ${logFile}`, logFile)
    }
    await sleep(POLL_MS)
  }
}

/** What was written to a file after its first `from` bytes (at most the last 64 KiB of it); '' when it cannot be read. */
function appended(file: string, from: number): string {
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    const size = fstatSync(fd).size
    const start = Math.max(from, size - 65_536)
    const bytes = Buffer.alloc(Math.max(0, size - start))
    readSync(fd, bytes, 0, bytes.length, start)
    return bytes.toString('utf8')
  } catch {
    return ''
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** The last error a gw printed (`Error: ...`, then `Hint: ...`), colours taken off; undefined when it printed none. */
export function errorIn(output: string): {message: string; hint?: string} | undefined {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split(/\r?\n/)
  const at = lines.findLastIndex((line) => line.startsWith('Error: '))
  if (at === -1) return undefined
  const hint = lines[at + 1]?.startsWith('Hint: ') ? lines[at + 1]!.slice('Hint: '.length) : undefined
  return {message: lines[at]!.slice('Error: '.length), ...(hint ? {hint} : {})}
}

/** Carries `--merchant` credentials to a detached sandbox: a process's environment, unlike its argv, is not shown by `ps`. */
export const MERCHANTS_VARIABLE = 'GW_SANDBOX_MERCHANTS'

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
