import {spawn} from 'node:child_process'
import {closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {realPath} from '../../lib/file-identity.js'
import {isRunning} from '../../lib/lock-file.js'
import type {Mode} from '../domain/mode.js'
import {DEFAULT_SANDBOX, SANDBOX_NAME} from './names.js'
import type {MerchantCredentials} from '../domain/ids.js'
import type {Dialect} from '../dialect.js'

/**
 * Process management behind `gw sandbox start --detach`, `stop` and `status`. A running sandbox
 * announces itself in a runtime file; every path comes from the caller (oclif's dataDir).
 */
export interface RuntimeInfo {
  pid: number
  url: string
  host: string
  port: number
  mode: Mode
  /** Absent in files of older versions, which answered as the contract does. */
  dialect?: Dialect
  /** Its processing window, faults aside, and the key GET /_sandbox/clock proves it holds (gw believes what it says only then); absent in older files. */
  processingWindowMs?: number
  proofKey?: string
  stateFile: string | null
  startedAt: string
  /** Addresses given with --webhook, and merchants beyond TEST by name (never their tokens); absent in files of older versions. */
  webhooks?: string[]
  merchants?: string[]
  /** The file of its request log (gw sandbox logs); null when it keeps none or only in memory; absent in older files. */
  requestLog?: string | null
  /** --allow-host and --allow-origin; absent in older files. */
  allowedHosts?: string[]
  allowedOrigins?: string[]
}

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

export type SandboxStatus = {state: 'running'; info: RuntimeInfo} | {state: 'stale'; info: RuntimeInfo} | {state: 'stopped'}

export interface SandboxFiles {
  /** Its runtime file: pid, port, mode; what status and stop read. */
  runtime: string
  /** A detached gateway's output. */
  log: string
  /** Its request log when it has no state file to keep it beside. */
  requestLog: string
}

/**
 * Where a local gateway of this name keeps its files in gw's data folder, each gateway its own,
 * so that several run side by side: `sandbox.json` for the default one, `sandbox-NAME.json` for another.
 */
export function sandboxFiles(dataDir: string, name: string = DEFAULT_SANDBOX): SandboxFiles {
  const base = name === DEFAULT_SANDBOX ? 'sandbox' : `sandbox-${name}`
  return {runtime: join(dataDir, `${base}.json`), log: join(dataDir, `${base}.log`), requestLog: join(dataDir, `${base}-requests.ndjson`)}
}

/** Every local gateway that left a runtime file in gw's data folder, running or not, by name: the default one first. */
export function knownSandboxes(dataDir: string): {name: string; status: SandboxStatus}[] {
  let entries: string[]
  try {
    entries = readdirSync(dataDir)
  } catch {
    return []
  }
  const names = entries.flatMap((entry) => {
    if (entry === 'sandbox.json') return [DEFAULT_SANDBOX]
    const name = /^sandbox-(.+)\.json$/.exec(entry)?.[1]
    return name !== undefined && SANDBOX_NAME.test(name) && name !== DEFAULT_SANDBOX ? [name] : []
  })
  return names
    .sort((a, b) => Number(b === DEFAULT_SANDBOX) - Number(a === DEFAULT_SANDBOX) || a.localeCompare(b))
    .map((name) => ({name, status: sandboxStatus(sandboxFiles(dataDir, name).runtime)}))
    .filter(({status}) => status.state !== 'stopped')
}

const POLL_MS = 50

/** Atomic, so a reader never sees half a file; the user's alone (0600): it holds the proof key. */
export function writeRuntimeFile(file: string, info: RuntimeInfo): void {
  mkdirSync(dirname(file), {recursive: true})
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify(info, null, 2)}\n`, {mode: 0o600})
  renameSync(temporary, file)
}

/** The runtime file's content, or undefined when there is none or it is not one. */
export function readRuntimeFile(file: string): RuntimeInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as Partial<RuntimeInfo> | null
    return Number.isInteger(info?.pid) && typeof info?.url === 'string' ? (info as RuntimeInfo) : undefined
  } catch {
    return undefined
  }
}

/** With `pid`, only a file that process wrote is removed: a newer sandbox may have replaced it. */
export function removeRuntimeFile(file: string, pid?: number): void {
  if (pid !== undefined && readRuntimeFile(file)?.pid !== pid) return
  rmSync(file, {force: true})
}

/** `stale`: a runtime file remains but its process is gone (killed, or the machine restarted). */
export function sandboxStatus(file: string): SandboxStatus {
  const info = readRuntimeFile(file)
  if (!info) return {state: 'stopped'}
  return isRunning(info.pid) ? {state: 'running', info} : {state: 'stale', info}
}

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
  mkdirSync(dirname(logFile), {recursive: true})
  const log = openSync(logFile, 'a')
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

export interface StopOptions {
  /** How long SIGTERM gets before SIGKILL. */
  graceMs?: number
  /** How long to wait for SIGKILL to take effect. */
  killWaitMs?: number
}

export type StopResult = 'stopped' | 'killed' | 'not-running'

/** SIGTERM, then SIGKILL once the grace period is over; rejects if the process outlives both. */
export async function stopProcess(pid: number, {graceMs = 5000, killWaitMs = 2000}: StopOptions = {}): Promise<StopResult> {
  if (!signal(pid, 'SIGTERM')) return 'not-running'
  if (await exited(pid, graceMs)) return 'stopped'
  signal(pid, 'SIGKILL')
  if (await exited(pid, killWaitMs)) return 'killed'
  throw new Error(`Process ${pid} is still running after SIGKILL`)
}

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
}

async function exited(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false
    await sleep(POLL_MS)
  }
  return true
}

/**
 * Resolves with the first of `signals` once `close` has finished. The handlers come off as
 * soon as one signal arrives, so a second Ctrl-C during a slow shutdown exits at once.
 */
export function closeOnSignal(
  close: () => Promise<void>,
  signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'],
): Promise<NodeJS.Signals> {
  return new Promise((resolve, reject) => {
    const onSignal = (received: NodeJS.Signals) => {
      for (const name of signals) process.off(name, onSignal)
      close().then(() => resolve(received), reject)
    }
    for (const name of signals) process.on(name, onSignal)
  })
}
