import {createRequire} from 'node:module'
import {join} from 'node:path'
import {setFlagsFromString} from 'node:v8'
import {constants} from 'node:os'
import {inspect} from 'node:util'
import {Worker} from 'node:worker_threads'

/**
 * gw run in a worker thread of the test's own process, as `node bin/run.js ARGS` would run it: the
 * same entry (bin/run.js, then dist/gw.cjs from its code cache), its own argv, environment, stdin,
 * stdout, stderr and exit code. A thread runs one gw after another, each evaluating the bundle
 * afresh, and what a run leaves is undone as a process's exit would (gw-thread.cjs). A run in a
 * warm thread costs a third of a process, a new thread a little more than a process.
 * CONTRIBUTING.md ("gw in a thread") says where a thread and a process could differ and how each
 * is kept the same.
 */
export interface ThreadRun {
  env: NodeJS.ProcessEnv
  stdin: string
  /**
   * A local gateway, which runs until it is stopped:
   * - Its pid is one no process has, in place of the test's process's. It hands its pid out (its
   *   runtime file, its control answers), and nothing it is handed to (gw sandbox stop) may signal the test's process.
   * - It sets none of gw's V8 flags, so runs beside it still start under a process's (v8FlagsAsStarted).
   */
  gateway?: boolean
  /** A service that names its pid where others read it (gw listen's web hook): one no process has, as a local gateway's. */
  ownPid?: boolean
}

/** A run in progress: what it writes is handed on as it comes, and it can be signalled. */
export interface RunningThread {
  /** The run's exit code, once it has ended as a process ends. */
  ended: Promise<number>
  /** Whether it has ended. */
  hasEnded(): boolean
  /** A signal, as a process's listeners for it hear one; one it has no listener for ends it (128 + the signal's number). */
  signal(name: NodeJS.Signals): void
  /** Ends it at once, as SIGKILL would, its thread with it. */
  kill(): Promise<void>
  /** Its pid, where it has one of its own (a local gateway, `ownPid`). */
  pid?: number
}

const BOOT = join(import.meta.dirname, 'gw-thread.cjs')
const start = createRequire(import.meta.url)('../../bin/start.js') as {V8_DEFAULTS_AFTER: Record<string, string>}

/**
 * Threads waiting for a run: as many as ran at once, up to four (a file's local gateway, a test's
 * own, and a gw beside them take three; with two, a thread a run needed was made afresh most files).
 * A thread is retired after RUNS_A_THREAD runs, so that what a run might leave behind unseen cannot pile up.
 */
const idle: Worker[] = []
const MOST_IDLE = 4
const RUNS_A_THREAD = 200
const runsOf = new WeakMap<Worker, number>()
/** The runs in progress that may set V8's flags: all but local gateways. */
let flagSetters = 0
// Pids above Linux's largest (2^22) and odd, as no Windows pid is: no process has one.
let nextOwnPid = 2 ** 22 + 1

type Message = {stream: 'stdout' | 'stderr'; chunk: Uint8Array} | {exitCode: number}

/** Runs gw in a warm thread, handing on what it writes as it writes it. */
export function startGwInThread(gw: string, args: string[], run: ThreadRun, output: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): RunningThread {
  // A run alone starts under V8's flags as a process starts (v8FlagsAsStarted).
  if (flagSetters === 0) v8FlagsAsStarted()
  const worker = idle.pop() ?? newThread()
  worker.ref()
  const setsFlags = !run.gateway
  if (setsFlags) flagSetters++
  runsOf.set(worker, (runsOf.get(worker) ?? 0) + 1)
  let hasEnded = false
  let resolve: (code: number) => void = () => {}
  const ended = new Promise<number>((settle) => (resolve = settle))
  const end = (code: number) => {
    hasEnded = true
    worker.off('message', onMessage)
    worker.off('error', onError)
    worker.off('exit', onExit)
    if (setsFlags) flagSetters--
    resolve(code)
  }
  const onMessage = (message: Message) => {
    if ('stream' in message) output(message.stream, Buffer.from(message.chunk))
    else {
      end(message.exitCode)
      keep(worker)
    }
  }
  // What node prints for an uncaught exception, and its exit code: a process would have. The thread ends with it.
  const onError = (error: unknown) => output('stderr', Buffer.from(`${inspect(error)}\n\nNode.js ${process.version}\n`))
  // process.exit(), or an uncaught exception: every message the thread sent came before its exit.
  const onExit = (code: number) => end(code)
  worker.on('message', onMessage)
  worker.on('error', onError)
  worker.on('exit', onExit)
  const pid = run.gateway || run.ownPid ? (nextOwnPid += 2) : undefined
  worker.postMessage({gw, args, env: run.env, stdin: run.stdin, pid})
  return {
    pid,
    ended,
    hasEnded: () => hasEnded,
    signal: (name) => {
      if (!hasEnded) worker.postMessage({signal: name})
    },
    kill: async () => {
      if (hasEnded) return
      worker.off('exit', onExit)
      await worker.terminate()
      end(128 + constants.signals.SIGKILL)
    },
  }
}

/** Runs gw in a warm thread to its end, and collects what it wrote. */
export async function runGwInThread(gw: string, args: string[], run: ThreadRun & {timeoutMs: number}): Promise<{code: number; stdout: string; stderr: string}> {
  const written = {stdout: [] as Buffer[], stderr: [] as Buffer[]}
  const text = (stream: 'stdout' | 'stderr') => Buffer.concat(written[stream]).toString('utf8')
  const running = startGwInThread(gw, args, run, (stream, chunk) => written[stream].push(chunk))
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void running.kill()
      reject(new Error(`gw ${args.join(' ')} did not exit within ${run.timeoutMs} ms\nstdout: ${text('stdout')}\nstderr: ${text('stderr')}`))
    }, run.timeoutMs)
  })
  try {
    const code = await Promise.race([running.ended, timedOut])
    return {code, stdout: text('stdout'), stderr: text('stderr')}
  } finally {
    clearTimeout(timer)
  }
}

/** The ids of the threads waiting for a run: the harness's own test sees one that failed between runs go. */
export const idleThreadIds = (): number[] => idle.map((worker) => worker.threadId)

/** Ends the threads waiting for a run, so that the next run's thread is new and is kept after it (the harness's own test). */
export async function retireIdleThreads(): Promise<void> {
  await Promise.all(idle.splice(0).map((worker) => worker.terminate()))
}

function newThread(): Worker {
  // No execArgv of the test's (a spawned gw gets none): bin/run.js names its code cache after them.
  // The thread's own stdout and stderr are not gw's (gw-thread.cjs puts pipes in their place): what reaches them is the test's to see.
  const worker = new Worker(BOOT, {argv: [], execArgv: [], env: {}})
  // A failure between runs (what the last run left failing as it was ended) ends the thread alone: its process would have exited before it.
  worker.on('error', () => {})
  worker.on('exit', () => {
    const at = idle.indexOf(worker)
    if (at >= 0) idle.splice(at, 1)
  })
  return worker
}

function keep(worker: Worker): void {
  if (idle.length >= MOST_IDLE || (runsOf.get(worker) ?? 0) >= RUNS_A_THREAD) void worker.terminate()
  else {
    // An idle thread does not keep the test's process alive.
    worker.unref()
    idle.push(worker)
  }
}

/**
 * V8's flags are the process's, not a thread's: gw sets some as it runs (bin/start.js: WebAssembly
 * compiled by the baseline compiler alone, the young generation kept small). A gw process starts
 * without them, and V8 takes a code cache only under the flags it was made with. So they are set
 * back before a run that starts while no other gw runs (a local gateway sets none).
 */
function v8FlagsAsStarted(): void {
  const defaults = start.V8_DEFAULTS_AFTER[process.versions.v8.split('.').slice(0, 2).join('.')]
  if (defaults) setFlagsFromString(defaults)
  setFlagsFromString('--semi-space-growth-factor=2')
}
