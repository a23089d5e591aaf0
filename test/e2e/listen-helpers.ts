import {type ChildProcess, spawn} from 'node:child_process'
import {closeSync, openSync} from 'node:fs'
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {startGwInThread} from './gw-thread.js'
import {baseEnv, GW, spawnsGw} from './helpers.js'
import {RUN_BOUND_MS} from '../until.js'

/** A running `gw listen`: its URL, what it printed so far, and ways to post to it and stop it. */
export interface Listener {
  url: string
  /** Its pid, which its web hook's name gives: a process's, or in a thread one no process has. */
  pid: number
  /** Its process, where it runs as one (`process: true`): a test of its stdout's reader going away closes it. */
  process?: ChildProcess
  stdout(): string
  stderr(): string
  /** Its exit code once it ends (null for a process a signal ended). */
  exited(): Promise<number | null>
  /** Resolves once stdout holds `lines` lines. */
  waitForLines(lines: number, timeoutMs?: number): Promise<string[]>
  /** Resolves once stdout or stderr matches. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<void>
  /** stderr and an HTTP answer travel separately: wait for a warning rather than expect it already there. */
  waitForStderr(pattern: RegExp | string, timeoutMs?: number): Promise<void>
  post(body: unknown, headers?: Record<string, string>): Promise<number>
  stop(signal?: NodeJS.Signals): Promise<{code: number | null; stdout: string; stderr: string}>
}

/** How a listener runs: a process, or a thread of this process (gw-thread.ts), alike to the test. */
interface Running {
  pid: number
  process?: ChildProcess
  ended: Promise<number | null>
  hasEnded(): boolean
  signal(name: NodeJS.Signals): void
}

/**
 * Starts the built `gw listen --port 0 ...` (or the --port given) and waits for the notice on stderr
 * that says where it listens. It runs in a thread, as runGw runs gw, with a pid no process has; as a
 * process where runGw would spawn gw (spawnsGw), or given `process`.
 */
export async function startListen(args: string[], {env = {}, stdin, process: asProcess, stdoutTo}: {env?: NodeJS.ProcessEnv; stdin?: string; process?: boolean; stdoutTo?: string} = {}): Promise<Listener> {
  const argv = ['listen', ...(args.includes('--port') ? [] : ['--port', '0']), ...args]
  let stdout = ''
  let stderr = ''
  const changed = new Set<() => void>()
  const notify = () => changed.forEach((check) => check())
  const output = (stream: 'stdout' | 'stderr', chunk: Buffer) => {
    if (stream === 'stdout') stdout += chunk.toString()
    else stderr += chunk.toString()
    notify()
  }
  const running = stdoutTo !== undefined || spawnsGw({env, process: asProcess}, argv) ? listenerProcess(argv, env, stdin, output, stdoutTo) : listenerThread(argv, env, stdin, output)
  void running.ended.then(notify)

  const waitFor = <T>(what: string, ready: () => T | undefined, timeoutMs = RUN_BOUND_MS) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = ready()
        if (value !== undefined) return done(() => resolve(value))
        if (running.hasEnded()) done(() => reject(new Error(`gw listen exited before ${what}\nstdout: ${stdout}\nstderr: ${stderr}`)))
      }
      const timer = setTimeout(() => done(() => reject(new Error(`timed out waiting for ${what}\nstdout: ${stdout}\nstderr: ${stderr}`))), timeoutMs)
      const done = (settle: () => void) => {
        clearTimeout(timer)
        changed.delete(check)
        settle()
      }
      changed.add(check)
      check()
    })

  const url = await waitFor('the listening notice', () => /Listening for web hooks on (\S+) \(/.exec(stderr)?.[1])
  return {
    url,
    pid: running.pid,
    process: running.process,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: () => running.ended,
    waitForLines: (lines, timeoutMs = RUN_BOUND_MS) =>
      waitFor(`${lines} lines on stdout`, () => {
        const all = stdout.split('\n').filter(Boolean)
        return all.length >= lines && stdout.endsWith('\n') ? all : undefined
      }, timeoutMs),
    waitForStdout: (pattern, timeoutMs = RUN_BOUND_MS) => waitFor(`stdout to match ${pattern}`, () => (pattern.test(stdout) ? true : undefined), timeoutMs).then(() => undefined),
    waitForStderr: (pattern, timeoutMs = RUN_BOUND_MS) => waitFor(`stderr to match ${pattern}`, () => ((typeof pattern === 'string' ? stderr.includes(pattern) : pattern.test(stderr)) ? true : undefined), timeoutMs).then(() => undefined),
    post: async (body, headers = {}) => {
      const response = await fetch(url, {method: 'POST', headers: {'content-type': 'application/json', 'x-service-mode': 'Sandbox', ...headers}, body: typeof body === 'string' ? body : JSON.stringify(body)})
      await response.arrayBuffer()
      return response.status
    },
    stop: async (signal = 'SIGINT') => {
      if (!running.hasEnded()) running.signal(signal)
      return {code: await running.ended, stdout, stderr}
    },
  }
}

/** gw listen as a process; its stdout `stdoutTo` (a file, /dev/full) where given, else a pipe this test reads. */
function listenerProcess(argv: string[], env: NodeJS.ProcessEnv, stdin: string | undefined, output: (stream: 'stdout' | 'stderr', chunk: Buffer) => void, stdoutTo?: string): Running {
  const file = stdoutTo === undefined ? undefined : openSync(stdoutTo, 'w')
  const child = spawn(process.execPath, [GW, ...argv], {env: baseEnv(env), stdio: ['pipe', file ?? 'pipe', 'pipe']})
  if (file === undefined) child.stdout!.on('data', (chunk: Buffer) => output('stdout', chunk))
  else closeSync(file)
  child.stderr!.on('data', (chunk: Buffer) => output('stderr', chunk))
  // Its exit once what it wrote is read: a check then sees all of it.
  const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  let closed = false
  void ended.then(() => (closed = true))
  // gw listen may stop without reading stdin: closing it then is no failure (see runProgram).
  child.stdin!.on('error', () => {})
  child.stdin!.end(stdin ?? '')
  return {pid: child.pid!, process: child, ended, hasEnded: () => closed, signal: (name) => child.kill(name)}
}

function listenerThread(argv: string[], env: NodeJS.ProcessEnv, stdin: string | undefined, output: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): Running {
  const running = startGwInThread(GW, argv, {env: baseEnv(env), stdin: stdin ?? '', ownPid: true}, output)
  return {
    pid: running.pid!,
    ended: running.ended,
    hasEnded: () => running.hasEnded(),
    // SIGKILL has no listener to hear it: the thread ends at once, as the process would.
    signal: (name) => (name === 'SIGKILL' ? void running.kill() : running.signal(name)),
  }
}

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/** A small HTTP server that records what it receives and answers with `answer`: the merchant's app, or a fake gateway. */
export interface Recorder {
  url: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

/** How the recorder answers a request: after `delayMs`, or once `until` settles (an answer a test holds until it lets it go). */
export interface RecordedAnswer {
  status: number
  body?: unknown
  delayMs?: number
  until?: Promise<void>
}

export async function startRecorder(answer: (request: RecordedRequest) => RecordedAnswer = () => ({status: 200})): Promise<Recorder> {
  const requests: RecordedRequest[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request = {method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8')}
      requests.push(request)
      const {status, body, delayMs = 0, until} = answer(request)
      const send = () => void res.writeHead(status, {'content-type': 'application/json'}).end(body === undefined ? '' : JSON.stringify(body))
      if (until) void until.then(send)
      else setTimeout(send, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}

/** A charge:successful delivery shaped as the contract's §6 describes. */
export function chargeSuccessful(ids: {subscription?: string; customer?: string; purchase?: string} = {}) {
  return {
    event: 'charge:successful',
    payload: [
      {
        subscription: {id: ids.subscription ?? '071-S-AAAA1111', frequency: 'Daily', start_date: '2026-11-01', end_date: null, reference: 'sub-1', customer: {id: ids.customer ?? '071-C-BBBB2222', email: 'jane@example.com', first_name: 'Jane', last_name: 'Citizen', reference: 'cust-1'}},
        response: {successful: true, response: {id: ids.purchase ?? '071-P-CCCC3333', amount: 1000, decimal_amount: 10.0, currency: 'AUD', message: 'Approved', successful: true, source: 'Recurring'}, errors: [], test: true},
      },
    ],
  }
}
