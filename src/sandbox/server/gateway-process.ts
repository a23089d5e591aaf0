import {request} from 'node:http'
import {dirname} from 'node:path'
import type {Platform} from '../../lib/platform.js'
import {readRuntime, runtimeFilesIn, type RuntimeInfo} from './runtime-file.js'

// Whether the process a runtime file names is that local gateway still: a pid outlives its process
// (a kill -9, a restart of the machine) and comes round again as another program's, which gw must
// never report as the gateway, nor signal.

export type SandboxStatus =
  | {state: 'running'; info: RuntimeInfo}
  /** Its process is gone; or its pid is another program's now (`now`, its command line). */
  | {state: 'stale'; info: RuntimeInfo; now?: string}
  /** Another user's gateway: its runtime file, or its process, is theirs. */
  | {state: 'theirs'; owner: string; info?: RuntimeInfo}
  | {state: 'stopped'}

/** Who has a runtime file's pid now: the gateway, nobody, another program (its command line), another user, or no one can tell. */
export type Holder = 'gateway' | 'gone' | 'theirs' | 'unknown' | {other: string}

/** What a runtime file says of its gateway, its process checked (whose pid it is now). */
export async function sandboxStatus(file: string, platform: Platform): Promise<SandboxStatus> {
  const read = readRuntime(file)
  if ('missing' in read) return {state: 'stopped'}
  // Readable by its user alone (0600, in a 0700 folder): another's.
  if ('unreadable' in read) return {state: 'theirs', owner: ownerOf(file, platform)}
  const {info} = read
  if (!platform.ownsFile(file)) return {state: 'theirs', owner: ownerOf(file, platform), info}
  const holder = await holderOf(info, platform)
  if (holder === 'gone') return {state: 'stale', info}
  if (holder === 'theirs') return {state: 'theirs', owner: platform.processOwner(info.pid) ?? ownerOf(file, platform), info}
  if (typeof holder === 'object') return {state: 'stale', info, now: holder.other}
  return {state: 'running', info}
}

/** Every local gateway that left a runtime file in gw's data folder, running or not (sandboxStatus), by name: the default one first. */
export async function knownSandboxes(dataDir: string, platform: Platform): Promise<{name: string; runtime: string; status: SandboxStatus}[]> {
  const found = await Promise.all(runtimeFilesIn(dataDir).map(async ({name, runtime}) => ({name, runtime, status: await sandboxStatus(runtime, platform)})))
  return found.filter(({status}) => status.state !== 'stopped')
}

/** The owner of a file, or of the nearest folder above it this user can see (a 0700 folder hides what is in it). */
function ownerOf(file: string, platform: Platform): string {
  for (let path = file; ; path = dirname(path)) {
    const owner = platform.fileOwner(path)
    if (owner !== undefined) return owner
    if (dirname(path) === path) return 'another user'
  }
}

/**
 * Whose the runtime file's pid is now. Its process's start and command line, as the system
 * tells them, against those the gateway wrote at its start (Linux, macOS); where it wrote none
 * (Windows, where asking costs a second), the gateway is asked on its port with its control
 * token, and one that does not answer (a hung one) is known by its command line.
 */
export async function holderOf(info: RuntimeInfo, platform: Platform): Promise<Holder> {
  const whose = platform.whoseProcess(info.pid)
  if (whose !== 'mine') return whose === 'none' ? 'gone' : 'theirs'
  if (info.process) {
    const facts = platform.processFacts(info.pid)
    if (!facts) return 'unknown'
    return facts.started === info.process.started ? 'gateway' : {other: facts.command}
  }
  const answer = await askGateway(info, 'GET', '/_sandbox/process')
  if (answer?.status === 200 && pidIn(answer.body) === info.pid) return 'gateway'
  const facts = platform.processFacts(info.pid)
  if (!facts) return 'unknown'
  return /\bsandbox\b.*\bstart\b/.test(facts.command) ? 'gateway' : {other: facts.command}
}

/** This process as the system tells it, for a stop to know it by later (holderOf); Windows tells it only slowly (a PowerShell), and is asked on its port instead. */
export function ownProcess(platform: Platform): Pick<RuntimeInfo, 'process'> {
  if (platform.os === 'win32') return {}
  const facts = platform.processFacts(process.pid)
  return facts ? {process: facts} : {}
}

/** The pid a control's answer names (`response.pid`). */
export function pidIn(body: unknown): number | undefined {
  const pid = (body as {response?: {pid?: unknown}} | undefined)?.response?.pid
  return typeof pid === 'number' ? pid : undefined
}

/** How long a local gateway gets to answer its own controls: it is on this machine. */
const ASK_TIMEOUT_MS = 5000

/**
 * A control request to the gateway a runtime file names, with its control token, on this machine:
 * at its address, or loopback where it listens on every address (0.0.0.0, ::). Resolves with its
 * status and JSON; undefined when nothing answers there, or not in time.
 */
export function askGateway(info: RuntimeInfo, method: 'GET' | 'POST', path: string): Promise<{status: number; body: unknown} | undefined> {
  const host = info.host === '0.0.0.0' ? '127.0.0.1' : info.host === '::' || info.host === '[::]' ? '::1' : info.host.replace(/^\[|\]$/g, '')
  const body = method === 'POST' ? '{}' : undefined
  return new Promise((resolve) => {
    const asked = request(
      {
        host,
        port: info.port,
        method,
        path,
        timeout: ASK_TIMEOUT_MS,
        headers: {
          Host: `${host.includes(':') ? `[${host}]` : host}:${info.port}`,
          Authorization: `Bearer ${info.controlToken}`,
          ...(body === undefined ? {} : {'Content-Type': 'application/json', 'Content-Length': String(body.length)}),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          resolve({status: res.statusCode ?? 0, body: json})
        })
        res.on('error', () => resolve(undefined))
      },
    )
    asked.on('timeout', () => asked.destroy())
    asked.on('error', () => resolve(undefined))
    asked.end(body)
  })
}
