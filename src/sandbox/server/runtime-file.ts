import {mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {NotYoursError} from '../../lib/not-yours.js'
import {readOwnFile} from '../../lib/own-file.js'
import type {Platform} from '../../lib/platform.js'
import type {ProcessFacts} from '../../lib/processes.js'
import type {Dialect} from '../dialect.js'
import type {Mode} from '../domain/mode.js'
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
  /** Absent in files of older versions, which answered as the contract does. */
  dialect?: Dialect
  /** Its processing window, faults aside (GET /_sandbox/clock says it, and gw believes it only of a gateway that proves it holds controlToken); absent in older files. */
  processingWindowMs?: number
  /** --rate-limit, each merchant's requests a second (null: none), and --latency in ms (0: none); absent in older files. */
  rateLimit?: number | null
  latencyMs?: number
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
  /** Its --name as it was given (`Shop`), which names its profile; absent in older files. */
  name?: string
  /** The secret its stop, and beyond loopback its controls, take (guard.ts); absent in older files. */
  controlToken?: string
  /** Its process as the system told it at start (lib/processes.ts), to tell it from one that has its pid later; absent in older files, and on Windows. */
  process?: ProcessFacts
  /** Beyond loopback, whether merchant TEST is let in (--open-test-merchant); absent in older files. */
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
export function sandboxFiles(dataDir: string, name: string = DEFAULT_SANDBOX, base = baseName(name)): SandboxFiles {
  return {runtime: join(dataDir, `${base}.json`), log: join(dataDir, `${base}.log`), requestLog: join(dataDir, `${base}-requests.ndjson`)}
}

/**
 * sandboxFiles, or those an older gw made under the name as it was typed (`sandbox-Shop.json`),
 * where no file has the name in lower case. A file system that folds case (APFS, NTFS) opens the
 * older file by the lower-case name itself; elsewhere the folder is looked through.
 */
export function findSandboxFiles(dataDir: string, name: string, platform: Pick<Platform, 'foldsCase'>): SandboxFiles {
  const files = sandboxFiles(dataDir, name)
  if (platform.foldsCase || !absent(files.runtime)) return files
  const wanted = `${baseName(name)}.json`
  const older = entriesOf(dataDir).find((entry) => entry.toLowerCase() === wanted)
  return older ? sandboxFiles(dataDir, name, older.slice(0, -'.json'.length)) : files
}

/** Whether there is no file of this name: one that cannot be looked at (another user's folder) may be there. */
function absent(path: string): boolean {
  try {
    statSync(path)
    return false
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT'
  }
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
  const found = new Map<string, {name: string; runtime: string}>()
  for (const entry of entriesOf(dataDir).sort()) {
    const name = entry === 'sandbox.json' ? DEFAULT_SANDBOX : /^sandbox-(.+)\.json$/.exec(entry)?.[1]
    if (name === undefined || !SANDBOX_NAME.test(name)) continue
    const key = nameKey(name)
    // The file under the lower-case name is the one a gateway of today writes.
    if (found.has(key) && entry !== `${baseName(name)}.json`) continue
    const recorded = readRuntimeFile(join(dataDir, entry))?.name
    found.set(key, {name: recorded !== undefined && nameKey(recorded) === key ? recorded : name, runtime: join(dataDir, entry)})
  }
  return [...found.values()].sort((a, b) => Number(nameKey(b.name) === DEFAULT_SANDBOX) - Number(nameKey(a.name) === DEFAULT_SANDBOX) || a.name.localeCompare(b.name))
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
    const info = JSON.parse(text) as Partial<RuntimeInfo> | null
    return Number.isInteger(info?.pid) && typeof info?.url === 'string' ? {info: info as RuntimeInfo} : {missing: true}
  } catch {
    return {missing: true}
  }
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
