import {type ChildProcess, spawn} from 'node:child_process'
import {randomUUID} from 'node:crypto'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect} from 'vitest'
import {runToEnd} from '../spawner.js'
import {RUN_BOUND_MS} from '../until.js'
import {runGwInThread, startGwInThread} from './gw-thread.js'

const ROOT = join(import.meta.dirname, '..', '..')
export const GW = join(ROOT, 'bin', 'run.js')

export const CARDS = {
  visa: '4242424242424242',
  mastercard: '5123456789012346',
  declined: '4557012345678902',
} as const

export interface GwResult {
  code: number | null
  stdout: string
  stderr: string
  /** stdout parsed as JSON, when it is. */
  json: unknown
  /** stdout read as NDJSON, one record a line, as gw prints records to a pipe (empty when stdout is not NDJSON). */
  records: unknown[]
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv
  stdin?: string
  timeoutMs?: number
  cwd?: string
  /** Another user to run as (the tests run as root in CI). */
  uid?: number
  gid?: number
  /** A process of its own: for gw run at once with others of a test, which exclude each other by the kernel's locks (a lock is a process's). */
  process?: boolean
}

/** A home of its own for one test file: config, data and cache dirs gw cannot share with the machine's. */
export function isolatedHome(): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'gw-e2e-'))
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
  }
}

/** Environment for a child: the machine's PATH and node, nothing of the user's gw settings. */
export function baseEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // No update notice, nor its check of the registry (src/cli/update-notice.ts), but where a test asks for them (GW_NO_UPDATE_NOTIFIER: undefined).
  // A run under libfaketime keeps its date in what it spawns (CONTRIBUTING.md, Dates).
  const faked = {LD_PRELOAD: process.env.LD_PRELOAD, FAKETIME: process.env.FAKETIME}
  // The run's temporary folder (test/run-folder.ts; TEMP and TMP on Windows): what a spawned program leaves there goes with the run.
  const env: NodeJS.ProcessEnv = {PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, TEMP: process.env.TEMP, TMP: process.env.TMP, NODE_OPTIONS: '', GW_NO_UPDATE_NOTIFIER: '1', ...faked, ...extra}
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key]
  return env
}

/**
 * Runs the built gw and collects what it wrote: in a worker thread of this process
 * (test/e2e/gw-thread.ts), or as a process of its own where the process is what a test is about
 * (spawnsGw).
 */
export function runGw(args: string[], options: RunOptions = {}): Promise<GwResult> {
  if (spawnsGw(options, args)) return runProgram(process.execPath, [GW, ...args], options)
  return runGwInThread(GW, args, {env: baseEnv(options.env ?? {}), stdin: options.stdin ?? '', timeoutMs: options.timeoutMs ?? RUN_BOUND_MS}).then(({code, stdout, stderr}) =>
    gwResult(code, stdout, stderr),
  )
}

/**
 * The test files whose subject is the gw process itself (signals, the relaunch, the Node floor,
 * installs, terminals, other users, stopping, locks and descriptors across processes): their runGw
 * spawns gw. So does a run given `process`, a cwd (a thread cannot change its directory) or a user,
 * and every run with GW_TEST_SPAWN=1 (a thread and a process compared). Elsewhere a test spawns
 * the one gw whose process is its subject (a kill -9, strace, /dev/full): the runs around it are threads.
 */
export const PROCESS_FILES: readonly string[] = [
  'test/e2e/completion.test.ts',
  'test/e2e/cross-build.test.ts',
  'test/e2e/identity-overlay.test.ts',
  'test/e2e/install.test.ts',
  'test/e2e/node-floor.test.ts',
  'test/e2e/npm-package.test.ts',
  'test/e2e/other-users.test.ts',
  'test/e2e/package.test.ts',
  'test/e2e/sandbox-stop.test.ts',
  'test/e2e/start-path.test.ts',
  'test/e2e/stdin-copy.test.ts',
]

/**
 * Variables read from the process's own environment, not a thread's: a run given one is a process.
 * - DBUS_SESSION_BUS_ADDRESS: keytar, a native module, reads it, and in a thread its calls to the Secret Service hung (a keychain, or one not there).
 * - NODE_EXTRA_CA_CERTS: Node reads it once, as a process starts; a thread would not trust the CA it names.
 */
const PROCESS_VARIABLES = ['DBUS_SESSION_BUS_ADDRESS', 'NODE_EXTRA_CA_CERTS']

/** Whether a run is a process of its own (runGw, startListen): where the process is what its test is about, or a thread cannot take what it is given. */
export function spawnsGw(options: RunOptions, args: string[]): boolean {
  if (options.process || options.cwd !== undefined || options.uid !== undefined || options.gid !== undefined || process.env.GW_TEST_SPAWN === '1') return true
  if (!inThisZone(options.env ?? {})) return true
  // A local gateway in the foreground is a server with a pid of its own, which gw sandbox stop signals.
  if (args[0] === 'sandbox' && args[1] === 'start' && !args.includes('--detach')) return true
  if (PROCESS_VARIABLES.some((name) => options.env?.[name] !== undefined)) return true
  const file = expect.getState().testPath
  return file !== undefined && PROCESS_FILES.includes(relative(ROOT, file))
}

/**
 * Whether an environment's TZ, if any, is this process's own zone. A zone is the process's: a thread
 * given TZ keeps the process's, so a run given another must be a process of its own.
 */
export function inThisZone(env: NodeJS.ProcessEnv): boolean {
  if (env.TZ === undefined) return true
  try {
    return new Intl.DateTimeFormat('en', {timeZone: env.TZ}).resolvedOptions().timeZone === Intl.DateTimeFormat().resolvedOptions().timeZone
  } catch {
    // Not a zone Intl names (a POSIX rule, ':Area/City'): not known to be this one.
    return false
  }
}

/**
 * Runs a program with only the environment given (and PATH), and collects what it wrote, started
 * by the spawner (test/spawner.ts), whose forks cost a fifteenth of this process's. Give bash a
 * HOME of the test's: bash whose stdin is a socket (a pipe, as Node makes it) reads ~/.bashrc,
 * and the developer's took a second a run here.
 */
export async function runProgram(file: string, args: string[], options: RunOptions = {}): Promise<GwResult> {
  const timeoutMs = options.timeoutMs ?? RUN_BOUND_MS
  const run = {file, args, env: baseEnv(options.env ?? {}), cwd: options.cwd, uid: options.uid, gid: options.gid, stdin: options.stdin ?? '', timeoutMs, killSignal: 'SIGKILL' as const}
  const {code, timedOut, stdout, stderr} = await runToEnd(run)
  if (timedOut) throw new Error(`${file} ${args.join(' ')} did not exit within ${timeoutMs} ms\nstdout: ${stdout.toString()}\nstderr: ${stderr.toString()}`)
  return gwResult(code, stdout.toString(), stderr.toString())
}

function gwResult(code: number | null, stdout: string, stderr: string): GwResult {
  let json: unknown
  try {
    json = JSON.parse(stdout)
  } catch {
    json = undefined
  }
  return {code, stdout, stderr, json, records: ndjson(stdout)}
}

/** Lines of JSON, one value each; empty when any line is not JSON. */
export function ndjson(text: string): unknown[] {
  try {
    return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown)
  } catch {
    return []
  }
}

export interface Sandbox {
  url: string
  home: NodeJS.ProcessEnv
  /** What it wrote on stderr so far. */
  stderr(): string
  /** Environment that points gw at this sandbox as merchant TEST. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv
  gw(args: string[], options?: RunOptions): Promise<GwResult>
  control(method: string, path: string, body?: unknown): Promise<unknown>
  stop(): Promise<void>
}

/** A local gateway started as a process of its own (startSandboxProcess). */
export interface ProcessSandbox extends Sandbox {
  process: ChildProcess
}

/** A request to the gateway's API as the local gateway's log holds it. */
export interface LoggedRequest {
  method: string
  path: string
  status: number | null
}

/** Where the local gateway's request log stands now: what is logged after it was sent since (GET /_sandbox/requests). */
export async function requestLogCursor(sandbox: Sandbox): Promise<number> {
  return ((await sandbox.control('GET', '/_sandbox/requests?limit=1')) as {response: {next: number}}).response.next
}

/** The requests to the gateway's API answered since `cursor`, its control requests left out. */
export async function apiRequestsSince(sandbox: Sandbox, cursor: number): Promise<LoggedRequest[]> {
  return ((await sandbox.control('GET', `/_sandbox/requests?after=${cursor}&path=/v1.0/`)) as {response: {entries: LoggedRequest[]}}).response.entries
}

/**
 * The dialect of the local gateway this run of the suite tests against (vitest.config.ts runs the
 * suites of lists, money outcomes, recoveries and batches once in each): an assumption gw makes of
 * one gateway is caught by the other.
 */
export const DIALECT: 'contract' | 'live' = process.env.GW_TEST_DIALECT === 'live' ? 'live' : 'contract'

/**
 * The blocks of a file vitest.config.ts runs in both dialects, where they differ: a file that
 * uses describeOnce names every top-level block with one of these two
 * (test/unit/test-processes.test.ts). A block whose outcome a dialect can change (a list, a money
 * outcome, a recovery, a gateway's words) opts in to both runs; the rest (flags, how a value is
 * typed, output no dialect changes) runs in the contract dialect's alone.
 */
export const describeInBothDialects = describe
export const describeOnce = describe.skipIf(DIALECT === 'live')

/** What the two dialects of the local gateway say differently (src/sandbox/dialect.ts), as this run's answers it. */
export const ANSWERS =
  DIALECT === 'live'
    ? {purchaseNotFound: 'Could not find Purchase', refundAmount: (cents: number) => cents}
    : {purchaseNotFound: 'Purchase not found', refundAmount: (cents: number) => -cents}

/**
 * Starts `gw sandbox start --port 0` and waits for the URL it prints on stdout: in a thread of this
 * process, as runGw runs gw (gw-thread.ts), ~0.08 CPU-s less than a process. Its pid is one no
 * process has, so that gw sandbox stop asks it to stop and signals nothing; gw sandbox status, which
 * looks for that process, finds it gone. Given another time zone (inThisZone), or with
 * GW_TEST_SPAWN=1, it starts as a process (startSandboxProcess).
 */
export async function startSandbox(args: string[] = [], home: NodeJS.ProcessEnv = isolatedHome()): Promise<Sandbox> {
  if (process.env.GW_TEST_SPAWN === '1' || !inThisZone(home)) return startSandboxProcess(args, home)
  const output = gatewayOutput(() => void running.kill())
  const running = startGwInThread(GW, sandboxStartArgs(args), {env: baseEnv(home), stdin: '', gateway: true}, output.write)
  void running.ended.then(output.ended)
  return sandboxAt(await output.url, args, home, {
    stderr: () => output.written.stderr,
    ended: () => (running.hasEnded() ? 'ended' : 'still running'),
    stop: async () => {
      running.signal('SIGTERM')
      await running.ended
    },
  })
}

/**
 * Starts `gw sandbox start --port 0` as a process, for a test whose subject is the gateway's
 * process (its pid, its end, a kill, gw sandbox status) or two gateways' locks, which are a process's.
 */
export async function startSandboxProcess(args: string[] = [], home: NodeJS.ProcessEnv = isolatedHome()): Promise<ProcessSandbox> {
  const child = spawn(process.execPath, [GW, ...sandboxStartArgs(args)], {env: baseEnv(home), stdio: ['ignore', 'pipe', 'pipe']})
  const output = gatewayOutput(() => child.kill('SIGKILL'))
  child.stdout!.on('data', (chunk: Buffer) => output.write('stdout', chunk))
  child.stderr!.on('data', (chunk: Buffer) => output.write('stderr', chunk))
  child.on('exit', (code, signal) => output.ended(code ?? signal))
  const sandbox = sandboxAt(await output.url, args, home, {
    stderr: () => output.written.stderr,
    ended: () => (child.exitCode === null && child.signalCode === null ? `pid ${child.pid}, still running` : `pid ${child.pid}, exited with ${child.exitCode ?? child.signalCode}`),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  })
  return {...sandbox, process: child}
}

/**
 * What a starting gateway writes, kept, and the URL it prints on stdout once it listens. The URL
 * fails, with what it said on stderr, if it ends first or prints none within `boundMs`. Then
 * `giveUp` ends it, so that it does not run on beside the tests after.
 */
export function gatewayOutput(giveUp: () => void, boundMs = RUN_BOUND_MS) {
  const written = {stdout: '', stderr: ''}
  let heard = () => {}
  let ended: (how: number | string | null) => void = () => {}
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      giveUp()
      reject(new Error(`sandbox did not start within ${boundMs} ms: ${written.stderr}`))
    }, boundMs)
    heard = () => {
      // The URL once whole: a pipe may hand a line over in pieces.
      const match = /https?:\/\/[^\s]+(?=\s)/.exec(written.stdout)
      if (!match) return
      clearTimeout(timer)
      resolve(match[0])
    }
    ended = (how) => {
      clearTimeout(timer)
      reject(new Error(`sandbox exited with ${how}: ${written.stderr}`))
    }
  })
  return {
    written,
    url,
    write: (stream: 'stdout' | 'stderr', chunk: Buffer) => {
      written[stream] += chunk.toString()
      heard()
    },
    ended: (how: number | string | null) => ended(how),
  }
}

function sandboxStartArgs(args: string[]): string[] {
  const dialect = args.includes('--dialect') ? [] : ['--dialect', DIALECT]
  return ['sandbox', 'start', '--port', '0', ...dialect, ...args]
}

/** A started gateway's handle: how to reach it, run gw against it, and stop it. */
function sandboxAt(url: string, args: string[], home: NodeJS.ProcessEnv, gateway: {stderr(): string; ended(): string; stop(): Promise<void>}): Sandbox {
  // Credentials from the environment at this machine count as the sandbox's; a gateway answering as the live one must be said to be live.
  const mode = args.includes('live') && args[args.indexOf('live') - 1] === '--mode' ? {GW_ENVIRONMENT: 'live'} : {}
  const env = (extra: NodeJS.ProcessEnv = {}) => ({...home, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', ...mode, ...extra})
  return {
    url,
    home,
    stderr: gateway.stderr,
    env,
    gw: (gwArgs, options = {}) => runGw(gwArgs, {...options, env: env(options.env)}),
    async control(method, path, body) {
      const response = await fetch(url + path, {method, headers: {'content-type': 'application/json'}, body: body === undefined ? undefined : JSON.stringify(body)}).catch((err: unknown) => {
        // A gateway gone: how it ended, and what it said, for the test that failed on it.
        throw new Error(`The local gateway at ${url} (${gateway.ended()}) did not answer ${method} ${path}\nstderr: ${gateway.stderr()}`, {cause: err})
      })
      return response.json()
    },
    stop: gateway.stop,
  }
}

/**
 * The one way tests share a local gateway: called at a file's top level, the file's tests share it;
 * called in a describe block, that block's do. It is started before the first of them (then handed
 * to `started`), its faults cleared after each, stopped after the last. A test whose subject is a
 * gateway's start, restart or flags starts its own with startSandbox. asProcess: a gateway with a
 * process of its own (startSandboxProcess), for tests of gw sandbox status.
 */
export function sharedSandbox(started: (sandbox: Sandbox) => void | Promise<void>, args: string[] = [], {asProcess = false} = {}): void {
  let sandbox: Sandbox | undefined
  beforeAll(async () => {
    sandbox = await (asProcess ? startSandboxProcess(args) : startSandbox(args))
    await started(sandbox)
  })
  afterEach(async () => {
    await sandbox?.control('DELETE', '/_sandbox/faults')
  })
  afterAll(async () => {
    await sandbox?.stop()
  })
}

/**
 * Arms a 503 for every request of these methods under /v1.0/: a fault still armed afterwards
 * means no such request reached the gateway. Resolves with a count of the faults still armed.
 */
export async function armTrap(sandbox: Sandbox, methods: string[]): Promise<() => Promise<number>> {
  await sandbox.control('DELETE', '/_sandbox/faults')
  for (const method of methods) await sandbox.control('POST', '/_sandbox/faults', {method, path: '/v1.0/', action: 'status', status: 503})
  return async () => ((await sandbox.control('GET', '/_sandbox/faults')) as {response: unknown[]}).response.length
}

/** The error object gw writes as the last line of stderr with --json (design.md §3). */
export const errorJson = (result: GwResult): unknown => JSON.parse(result.stderr.trim().split('\n').at(-1)!)

/** A reference no other test uses. */
export function ref(prefix = 'e2e'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`
}

/**
 * A purchase made at the local gateway through its API as merchant TEST, not by a gw: for tests of
 * what gw does with it afterwards (a gw costs ~0.1 s of CPU, a request a millisecond). `fields`
 * are the API's own (amount in cents, reference, capture, currency, card_token...); the test Visa
 * pays unless a card_token is given.
 */
export async function purchasedAtGateway(sandbox: {url: string}, fields: Record<string, unknown> = {}): Promise<{id: string; reference: string} & Record<string, unknown>> {
  const card = 'card_token' in fields ? {} : {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123'}
  const answer = await fetch(`${sandbox.url}/v1.0/purchases`, {
    method: 'POST',
    headers: {'content-type': 'application/json', authorization: `Basic ${Buffer.from('TEST:TEST').toString('base64')}`},
    body: JSON.stringify({amount: 10000, reference: ref('order'), ...card, ...fields}),
  })
  const {successful, response, errors} = (await answer.json()) as {successful: boolean; response: {id: string; reference: string} & Record<string, unknown>; errors: unknown}
  if (answer.status !== 200 || !successful) throw new Error(`the local gateway made no purchase (HTTP ${answer.status}): ${JSON.stringify(errors)}`)
  return response
}

/** The test Visa as `--card -` reads it from stdin. */
export const CARD_JSON = JSON.stringify({card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123'})

/** The questions gw asks for a card on a terminal, answered with the test Visa. */
export const CARD_ANSWERS: [string, string][] = [
  ['Name on the card', 'Jane Citizen'],
  ['Card number', CARDS.visa],
  ['Expiry (MM/YY)', '12/2030'],
  ['CVV', '123'],
]

export function cardArgs(number: string = CARDS.visa, expiry = '12/2030'): string[] {
  return ['--card-holder', 'Jane Citizen', '--card-number', number, '--card-expiry', expiry, '--cvv', '123']
}

/**
 * The README's quick-start line after its `npm ci && `, as a newcomer runs it from a clone, but
 * with the local gateway on a free port: 8787 may be held by the reader's own gw.
 */
export function quickStartCommands(): string {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8')
  const line = /## Quick start[\s\S]*?```sh\n(.+)\n```/.exec(readme)?.[1] ?? ''
  if (!line.startsWith('npm ci && ./bin/run.js sandbox start --detach && ')) throw new Error(`The README's quick start changed shape: ${line}`)
  return line.replace(/^npm ci && /, '').replace('./bin/run.js sandbox start --detach', './bin/run.js sandbox start --detach --port 0')
}
