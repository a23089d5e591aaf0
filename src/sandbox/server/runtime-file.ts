import {mkdirSync, readdirSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {NotYoursError} from '../../lib/not-yours.js'
import {readOwnFile} from '../../lib/own-file.js'
import type {ProcessFacts} from '../../lib/processes.js'
import type {Dialect} from '../dialect.js'
import type {Mode} from '../domain/mode.js'
import {WEB_HOOK_ORDERS, type WebHookOrder} from '../domain/web-hook-order.js'
import {DEFAULT_SANDBOX, SANDBOX_NAME} from './names.js'

/**
 * A running local gateway announces itself in a runtime file in gw's data folder, which status
 * and stop read: readable by its user alone (0600, in a 0700 folder), since it holds the gateway's
 * control token. Every path comes from the caller (oclif's dataDir).
 */
export interface RuntimeInfo {
  pid: number
  url: string
  host: string
  port: number
  mode: Mode
  dialect: Dialect
  /** Its processing window, faults aside (GET /_sandbox/clock says it, and gw believes it only of a gateway that proves it holds controlToken). */
  processingWindowMs: number
  /** --rate-limit, each merchant's requests a second (null: none), and --latency in ms (0: none). */
  rateLimit: number | null
  latencyMs: number
  /** --web-hook-order: the order its lists of web hooks come in. */
  webHookOrder: WebHookOrder
  stateFile: string | null
  startedAt: string
  /** Addresses given with --webhook, and merchants beyond TEST by name (never their tokens). */
  webhooks: string[]
  merchants: string[]
  /** The file of its request log (gw sandbox logs); null when it keeps none or only in memory. */
  requestLog: string | null
  /** --allow-host and --allow-origin; absent when none was given. */
  allowedHosts?: string[]
  allowedOrigins?: string[]
  /** Its --name as it was given (`Shop`), which names its profile; absent for the default one. */
  name?: string
  /** The secret its stop, and beyond loopback its controls, take (guard.ts). */
  controlToken: string
  /** Its process as the system told it at start (lib/processes.ts), to tell it from one that has its pid later; absent on Windows. */
  process?: ProcessFacts
  /** Beyond loopback, whether merchant TEST is let in (--open-test-merchant); absent when it is not. */
  openTestMerchant?: boolean
}

export interface SandboxFiles {
  /** Its runtime file: pid, port, mode; what status and stop read. */
  runtime: string
  /** A detached gateway's output. */
  log: string
  /** Its request log when it has no state file to keep it beside. */
  requestLog: string
}

/** A local gateway's name is one name whatever its case: `--name Shop` and `--name shop` are one gateway, on every system. */
export const nameKey = (name: string) => name.toLowerCase()

/** The names of a gateway's files without their ending: `sandbox` for the default one, `sandbox-NAME` for another. */
const baseName = (name: string) => (nameKey(name) === DEFAULT_SANDBOX ? 'sandbox' : `sandbox-${nameKey(name)}`)

/**
 * Where a local gateway of this name keeps its files in gw's data folder, each gateway its own,
 * so that several run side by side: `sandbox.json` for the default one, `sandbox-NAME.json` for
 * another, the name in lower case.
 */
export function sandboxFiles(dataDir: string, name: string = DEFAULT_SANDBOX): SandboxFiles {
  const base = baseName(name)
  return {runtime: join(dataDir, `${base}.json`), log: join(dataDir, `${base}.log`), requestLog: join(dataDir, `${base}-requests.ndjson`)}
}

function entriesOf(dataDir: string): string[] {
  try {
    return readdirSync(dataDir)
  } catch {
    return []
  }
}

/** Every local gateway that left a runtime file in gw's data folder, by name (one whatever its case), the default one first. */
export function runtimeFilesIn(dataDir: string): {name: string; runtime: string}[] {
  const found: {name: string; runtime: string}[] = []
  for (const entry of entriesOf(dataDir)) {
    const name = entry === 'sandbox.json' ? DEFAULT_SANDBOX : /^sandbox-(.+)\.json$/.exec(entry)?.[1]
    // A gateway names its files in lower case.
    if (name === undefined || !SANDBOX_NAME.test(name) || entry !== `${baseName(name)}.json`) continue
    const recorded = readRuntimeFile(join(dataDir, entry))?.name
    found.push({name: recorded !== undefined && nameKey(recorded) === name ? recorded : name, runtime: join(dataDir, entry)})
  }
  return found.sort((a, b) => Number(nameKey(b.name) === DEFAULT_SANDBOX) - Number(nameKey(a.name) === DEFAULT_SANDBOX) || a.name.localeCompare(b.name))
}

/** Atomic, so a reader never sees half a file; its user's alone (0600), in a folder made 0700. */
export function writeRuntimeFile(file: string, info: RuntimeInfo): void {
  mkdirSync(dirname(file), {recursive: true, mode: 0o700})
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify(info, null, 2)}\n`, {mode: 0o600})
  renameSync(temporary, file)
}

/** What a runtime file holds: a gateway's, none, or one this user cannot read or must not trust (another's, the code says why). */
export type RuntimeRead = {info: RuntimeInfo} | {missing: true} | {unreadable: string}

export function readRuntime(file: string): RuntimeRead {
  let text: string | undefined
  try {
    // It holds the gateway's control key: only a file of the user's own is believed (lib/own-file.ts).
    text = readOwnFile(file)
  } catch (err) {
    if (err instanceof NotYoursError) return {unreadable: err.problem}
    const code = (err as NodeJS.ErrnoException).code ?? String(err)
    return code === 'ENOTDIR' ? {missing: true} : {unreadable: code}
  }
  if (text === undefined) return {missing: true}
  try {
    const info = JSON.parse(text) as unknown
    return isRuntimeInfo(info) ? {info} : {missing: true}
  } catch {
    return {missing: true}
  }
}

/** Whether a runtime file's JSON has every field a gateway writes in it: one that lacks any is no gateway's, read as none. */
function isRuntimeInfo(value: unknown): value is RuntimeInfo {
  if (value === null || typeof value !== 'object') return false
  const info = value as Record<keyof RuntimeInfo, unknown>
  const is = (type: string) => (field: unknown) => typeof field === type
  const text = is('string')
  const orNull = (check: (field: unknown) => boolean) => (field: unknown) => field === null || check(field)
  const texts = (field: unknown) => Array.isArray(field) && field.every(text)
  const checks: [unknown, (field: unknown) => boolean][] = [
    [info.pid, Number.isInteger],
    [info.url, text],
    [info.host, text],
    [info.port, Number.isInteger],
    [info.mode, text],
    [info.dialect, text],
    [info.processingWindowMs, is('number')],
    [info.rateLimit, orNull(is('number'))],
    [info.latencyMs, is('number')],
    [info.webHookOrder, (field) => WEB_HOOK_ORDERS.includes(field as WebHookOrder)],
    [info.stateFile, orNull(text)],
    [info.startedAt, text],
    [info.webhooks, texts],
    [info.merchants, texts],
    [info.requestLog, orNull(text)],
    [info.controlToken, text],
  ]
  return checks.every(([field, check]) => check(field))
}

/** The runtime file's content, or undefined when there is none, or it is not one, or it cannot be read. */
export function readRuntimeFile(file: string): RuntimeInfo | undefined {
  const read = readRuntime(file)
  return 'info' in read ? read.info : undefined
}

/** With `pid`, only a file that process wrote is removed: a newer sandbox may have replaced it. */
export function removeRuntimeFile(file: string, pid?: number): void {
  if (pid !== undefined && readRuntimeFile(file)?.pid !== pid) return
  rmSync(file, {force: true})
}
