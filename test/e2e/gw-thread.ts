import {createRequire} from 'node:module'
import {join} from 'node:path'
import {setFlagsFromString} from 'node:v8'
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
  timeoutMs: number
}

const BOOT = join(import.meta.dirname, 'gw-thread.cjs')
const start = createRequire(import.meta.url)('../../bin/start.js') as {V8_DEFAULTS_AFTER: Record<string, string>}

/**
 * Threads waiting for a run: as many as ran at once, up to two. A thread is retired after
 * RUNS_A_THREAD runs, so that what a run might leave behind unseen cannot pile up.
 */
const idle: Worker[] = []
const MOST_IDLE = 2
const RUNS_A_THREAD = 200
const runsOf = new WeakMap<Worker, number>()
let running = 0

type Message = {stream: 'stdout' | 'stderr'; chunk: Uint8Array} | {exitCode: number}

export function runGwInThread(gw: string, args: string[], run: ThreadRun): Promise<{code: number; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    // A run alone starts under V8's flags as a process starts (v8FlagsAsStarted).
    if (running === 0) v8FlagsAsStarted()
    const worker = idle.pop() ?? newThread()
    worker.ref()
    running++
    runsOf.set(worker, (runsOf.get(worker) ?? 0) + 1)
    const written = {stdout: [] as Buffer[], stderr: [] as Buffer[]}
    const text = (stream: 'stdout' | 'stderr') => Buffer.concat(written[stream]).toString('utf8')
    const ended = (code: number) => {
      clearTimeout(timer)
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      running--
      resolve({code, stdout: text('stdout'), stderr: text('stderr')})
    }
    const onMessage = (message: Message) => {
      if ('stream' in message) written[message.stream].push(Buffer.from(message.chunk))
      else {
        ended(message.exitCode)
        keep(worker)
      }
    }
    // What node prints for an uncaught exception, and its exit code: a process would have. The thread ends with it.
    const onError = (error: unknown) => written.stderr.push(Buffer.from(`${inspect(error)}\n\nNode.js ${process.version}\n`))
    // process.exit(), or an uncaught exception: every message the thread sent came before its exit.
    const onExit = (code: number) => ended(code)
    const timer = setTimeout(() => {
      worker.off('exit', onExit)
      void worker.terminate()
      running--
      reject(new Error(`gw ${args.join(' ')} did not exit within ${run.timeoutMs} ms\nstdout: ${text('stdout')}\nstderr: ${text('stderr')}`))
    }, run.timeoutMs)
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
    worker.postMessage({gw, args, env: run.env, stdin: run.stdin})
  })
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
 * back before a run that starts while no other runs.
 */
function v8FlagsAsStarted(): void {
  const defaults = start.V8_DEFAULTS_AFTER[process.versions.v8.split('.').slice(0, 2).join('.')]
  if (defaults) setFlagsFromString(defaults)
  setFlagsFromString('--semi-space-growth-factor=2')
}
