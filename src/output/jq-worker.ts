/**
 * The worker thread --jq runs jq in (jq-thread.ts starts it; scripts/jq-worker.js builds this file,
 * jq-wasm inside it, into dist/jq.cjs). jq is jq's own C, compiled to WebAssembly, and an
 * expression may run for ever (`range(1e9)`, `last(repeat(1))`): in a thread of its own it never
 * holds up gw's event loop, so signals, a closed stdout and the batch's own work go on, and the main
 * thread ends it (Worker.terminate) whenever it must. jq's output comes out byte by byte through a
 * hook the build puts in jq-wasm (OUTPUT_HOOKS), into the rings of jq-channel.ts as it is printed.
 */
import {parentPort, workerData} from 'node:worker_threads'
import {type Jq, loadJq} from 'jq-wasm/inline'
import {controlOf, RingWriter, WAKE} from './jq-channel.js'

/** What the main thread asks: compile an expression only, or run a program over documents. */
export type JqRequest = {kind: 'check'; expression: string} | {kind: 'run'; text: string; program: string; flags: string[]}

/** What the worker answers. `ends`: where each ring stood when the run ended; `failure`: the failing record's number and jq's error. */
export type JqReply =
  | {kind: 'data'}
  | {kind: 'checked'; exitCode: number; stderr: string}
  | {kind: 'done'; exitCode: number; ends: {stdout: number; stderr: number}; failure?: {record: number; error: unknown}; crashed?: string}

/** What the program prints last on stderr (halt_error, no newline) when the expression fails on a record: jq-thread.ts's program. */
const FAILURE_MARK = '__gw_jq_failed '

const OUTPUT_HOOKS = Symbol.for('gw.jq-output')
const hooks: {stdout?: (byte: number) => void; stderr?: (byte: number) => void} = {}
;(globalThis as Record<symbol, unknown>)[OUTPUT_HOOKS] = hooks

const shared = (workerData as {shared: SharedArrayBuffer}).shared
const control = controlOf(shared)
const port = parentPort!
const wake = () => {
  if (Atomics.load(control, WAKE) === 1 && Atomics.compareExchange(control, WAKE, 1, 0) === 1) port.postMessage({kind: 'data'} satisfies JqReply)
}
const stdout = new RingWriter(control, shared, 'stdout', wake)
const stderr = new RingWriter(control, shared, 'stderr', wake)

let jq: Promise<Jq> | undefined
let requests: Promise<void> = Promise.resolve()

port.on('message', (request: JqRequest) => {
  // One at a time, in order: jq-wasm's runs share its one instance.
  requests = requests.then(() => answer(request))
})

async function answer(request: JqRequest): Promise<void> {
  const loaded = await (jq ??= loadJq())
  if (request.kind === 'check') {
    // No input at all: jq compiles the expression and has nothing to run it on.
    const {exitCode, stderr: message} = loaded.raw('', request.expression, [])
    port.postMessage({kind: 'checked', exitCode, stderr: message} satisfies JqReply)
    return
  }
  hooks.stdout = (byte) => stdout.push(byte)
  hooks.stderr = (byte) => stderr.push(byte)
  let exitCode = -1
  let crashed: string | undefined
  try {
    exitCode = loaded.raw(request.text, request.program, request.flags).exitCode
  } catch (error) {
    // jq aborted (out of its 256 MiB, say): nothing more can run in this instance.
    crashed = error instanceof Error ? error.message : String(error)
  } finally {
    hooks.stdout = undefined
    hooks.stderr = undefined
  }
  stdout.flush()
  const failure = failureIn(stderr.takeLine())
  port.postMessage({kind: 'done', exitCode, ends: {stdout: stdout.position, stderr: stderr.position}, failure, crashed} satisfies JqReply)
}

/**
 * The record the expression failed on and its error, from the end of the program's stderr (after
 * what the expression printed there itself, which is passed on).
 */
function failureIn(line: Uint8Array): {record: number; error: unknown} | undefined {
  const text = new TextDecoder().decode(line)
  const at = text.lastIndexOf(FAILURE_MARK)
  if (at !== -1) {
    try {
      const failure = JSON.parse(text.slice(at + FAILURE_MARK.length)) as {record: number; error: unknown}
      stderr.write(line.subarray(0, Buffer.byteLength(text.slice(0, at))))
      return failure
    } catch {
      // Not the program's words after all: the expression's own.
    }
  }
  stderr.write(line)
  return undefined
}
