import {join} from 'node:path'
import {MessageChannel, type MessagePort, receiveMessageOnPort, Worker} from 'node:worker_threads'

/**
 * Programs the tests run to their end (a shell, tmux, gw as a process), started by a small process
 * of their own (spawner-process.cjs) instead of the test's. Linux forks a process by copying its
 * page tables, and a test process holds 400-500 MB: each program started from it cost ~15 ms of
 * CPU, from the small one ~1 ms. The program's stdio are pipes to that process, as they were to
 * the test's, and what it wrote comes back whole when it has ended.
 */
export interface ProgramRun {
  file: string
  args: string[]
  env: NodeJS.ProcessEnv
  cwd?: string
  uid?: number
  gid?: number
  stdin?: string | Buffer
  timeoutMs: number
  /** The signal that ends a program still running after timeoutMs. */
  killSignal: NodeJS.Signals
}

export interface ProgramEnd {
  code: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  stdout: Buffer
  stderr: Buffer
}

type Answer = {id: number} & ({error: {message: string; code?: string}} | ProgramEnd)

/** What the spawner wrote as a Buffer arrives, through a thread's port, as a Uint8Array. */
const ended = ({code, signal, timedOut, stdout, stderr}: ProgramEnd): ProgramEnd => ({code, signal, timedOut, stdout: Buffer.from(stdout), stderr: Buffer.from(stderr)})

const SPAWNER = join(import.meta.dirname, 'spawner-process.cjs')

// A thread of this process holds the spawner, so that a synchronous run can wait on it (Atomics.wait)
// while the thread still hears the answer. It forks the spawner from this process, once unless it dies.
const THREAD = `
const {workerData} = require('node:worker_threads')
const {fork} = require('node:child_process')
const {script, runs, syncRuns, woken} = workerData
const sync = new Set()
const pending = new Set()
const answer = (message) => {
  pending.delete(message.id)
  if (!sync.delete(message.id)) return runs.postMessage(message)
  syncRuns.postMessage(message)
  Atomics.store(woken, 0, 1)
  Atomics.notify(woken, 0)
}
// A spawner gone (killed, out of memory) answers the runs it had with why, and the next run starts a new one.
const start = () => {
  const spawner = fork(script, [], {execArgv: [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc']})
  runs.postMessage({id: -2, pid: spawner.pid})
  spawner.on('message', answer)
  spawner.on('exit', (code, signal) => {
    const error = {message: 'the spawner (test/spawner-process.cjs) ended with ' + (signal ?? code)}
    for (const id of pending) answer({id, error})
    current = undefined
  })
  return spawner
}
let current = start()
const send = (run) => {
  pending.add(run.id)
  current ??= start()
  current.send(run)
}
runs.on('message', send)
syncRuns.on('message', (run) => {
  sync.add(run.id)
  send(run)
})
`

interface Spawner {
  runs: MessagePort
  syncRuns: MessagePort
  woken: Int32Array
  waiting: Map<number, (answer: Answer) => void>
}

let spawner: Spawner | undefined
let nextId = 0
let pid: number | undefined

/** The spawner's pid, once it has started: what its programs cost is its children's CPU (test/cpu-per-file.ts). */
export const spawnerPid = (): number | undefined => pid

function started(): Spawner {
  if (spawner) return spawner
  const runs = new MessageChannel()
  const syncRuns = new MessageChannel()
  const woken = new Int32Array(new SharedArrayBuffer(4))
  const thread = new Worker(THREAD, {
    eval: true,
    workerData: {script: SPAWNER, runs: runs.port2, syncRuns: syncRuns.port2, woken},
    transferList: [runs.port2, syncRuns.port2],
  })
  // Neither the thread nor its spawner keeps the test's process alive; a run waiting does (ref below).
  thread.unref()
  const waiting = new Map<number, (answer: Answer) => void>()
  runs.port1.on('message', (answer: Answer & {pid?: number}) => {
    if (answer.id === -2) pid = answer.pid
    else waiting.get(answer.id)?.(answer)
  })
  runs.port1.unref()
  spawner = {runs: runs.port1, syncRuns: syncRuns.port1, woken, waiting}
  return spawner
}

/** Runs a program to its end; rejects where it could not be started. */
export function runToEnd(run: ProgramRun): Promise<ProgramEnd> {
  const {runs, waiting} = started()
  const id = nextId++
  return new Promise((resolve, reject) => {
    waiting.set(id, (answer) => {
      waiting.delete(id)
      if (waiting.size === 0) runs.unref()
      if ('error' in answer) reject(Object.assign(new Error(`${run.file}: ${answer.error.message}`), {code: answer.error.code}))
      else resolve(ended(answer))
    })
    runs.ref()
    runs.postMessage({id, ...run})
  })
}

/** runToEnd, this thread waiting for the end (tmux's commands, each a few milliseconds). */
export function runToEndSync(run: ProgramRun): ProgramEnd {
  const {syncRuns, woken} = started()
  const id = nextId++
  Atomics.store(woken, 0, 0)
  syncRuns.postMessage({id, ...run})
  // The spawner answers by the run's bound; a thread gone would not, so the wait has one too.
  Atomics.wait(woken, 0, 0, run.timeoutMs + 30_000)
  let answer: Answer | undefined
  // An answer to a run whose wait ended before it came is passed over.
  do answer = receiveMessageOnPort(syncRuns)?.message as Answer | undefined
  while (answer && answer.id !== id)
  if (!answer || 'error' in answer) throw Object.assign(new Error(`${run.file}: ${answer?.error.message ?? 'no answer from the spawner'}`), {code: answer && 'error' in answer ? answer.error.code : undefined})
  return ended(answer)
}
