import type {Worker} from 'node:worker_threads'
import {controlOf, RingReader, sharedChannel, WAKE} from './jq-channel.js'
import type {JqReply, JqRequest} from './jq-worker.js'

/** Where a run's output goes: stdout's text as it comes (the run waits for the promise: the reader's pace), stderr's as well. */
export interface JqSink {
  stdout(text: string): Promise<void>
  stderr(text: string): void
}

/** How a run ended: jq's exit status, the record the expression failed on (1 for the run's first), or jq itself failing. */
export interface JqRunEnd {
  exitCode: number
  failure?: {record: number; error: unknown}
  crashed?: string
}

/** MiB of young generation jq's thread keeps: V8 13 and later grow it to 2 x 64 MiB on a machine with memory to spare. */
const JQ_YOUNG_GENERATION_MB = 4

/** Why a run never ended: the thread was stopped (a signal, stdout gone), or died. */
export class JqStopped extends Error {
  override name = 'JqStopped'
}

/**
 * jq in a worker thread (jq-worker.ts), as gw's main thread sees it: expressions checked, programs
 * run over documents one run at a time, each run's output read from the shared rings
 * (jq-channel.ts) as it comes and handed to a sink, whose pace the worker keeps. `stop()` ends the
 * thread at once, wherever jq is: a runaway expression never holds up gw. The thread keeps the
 * process alive only while it has work.
 */
export class JqThread {
  private readonly control: Int32Array
  private readonly stdout: RingReader
  private readonly stderr: RingReader
  private waiting?: {resolve(reply: JqReply): void; reject(error: Error): void}
  private sink?: JqSink
  /** The rings are read by one reader at a time, in order. */
  private reading: Promise<void> = Promise.resolve()
  private stopped?: Error

  private constructor(
    private readonly worker: Worker,
    shared: SharedArrayBuffer,
  ) {
    this.control = controlOf(shared)
    this.stdout = new RingReader(this.control, shared, 'stdout')
    this.stderr = new RingReader(this.control, shared, 'stderr')
    worker.on('message', (reply: JqReply) => this.received(reply))
    worker.on('error', (error) => this.end(new JqStopped(`jq's thread failed: ${error.message}`)))
    worker.on('exit', () => this.end(new JqStopped("jq's thread ended")))
    worker.unref()
  }

  /** A thread that loads jq on its first request (~30-60 ms: compiling jq's WebAssembly and its builtins, off this thread). */
  static async start(): Promise<JqThread> {
    const [{Worker}, {source}] = await Promise.all([import('node:worker_threads'), import('./jq-worker-source.js')])
    const shared = sharedChannel()
    // No stdout or stderr of its own: what jq prints comes through the rings only. Its young
    // generation held small, as gw's own is in a walk (bin/start.js favourMemory): each run's
    // text (up to RUN_BYTES, jq.ts) is garbage once jq has read it.
    const worker = new Worker(source, {eval: true, workerData: {shared}, stdout: true, stderr: true, resourceLimits: {maxYoungGenerationSizeMb: JQ_YOUNG_GENERATION_MB}})
    const thread = new JqThread(worker, shared)
    // As undici's parser is (bin/start.js): V8's baseline compiler only, or the process would wait
    // at exit for its optimising tier to compile jq's 0.9 MB again. Set once the thread has started,
    // before its first request has it compile jq: a V8 flag changed makes V8 refuse Node's own code
    // caches, and the thread's start would compile Node's modules from source (~47 ms, not ~23).
    worker.ref()
    await new Promise<void>((resolve) => {
      worker.once('online', resolve)
      worker.once('exit', resolve)
    })
    worker.unref()
    const setWasmBaselineOnly = (globalThis as Record<symbol, unknown>)[Symbol.for('gw.wasm-baseline-only')] as (() => void) | undefined
    setWasmBaselineOnly?.()
    return thread
  }

  /** jq's exit status and stderr for the expression compiled alone: 3 is a compile error. */
  async check(expression: string): Promise<{exitCode: number; stderr: string}> {
    const reply = await this.ask({kind: 'check', expression})
    if (reply.kind !== 'checked') throw new JqStopped(`jq's thread answered ${reply.kind} to a check`)
    return reply
  }

  /** `program` over the documents of `text`, its output handed to `sink` as it comes. */
  async run(text: string, program: string, flags: string[], sink: JqSink): Promise<JqRunEnd> {
    this.sink = sink
    try {
      const reply = await this.ask({kind: 'run', text, program, flags})
      if (reply.kind !== 'done') throw new JqStopped(`jq's thread answered ${reply.kind} to a run`)
      // All the run printed is in the rings once it says it is done.
      await this.read()
      return {exitCode: reply.exitCode, failure: reply.failure, crashed: reply.crashed}
    } finally {
      this.sink = undefined
    }
  }

  /** Ends the thread now, whatever jq is doing; what waits on it is told. */
  stop(): void {
    this.end(new JqStopped('jq was stopped'))
    void this.worker.terminate()
  }

  private ask(request: JqRequest): Promise<JqReply> {
    if (this.stopped) return Promise.reject(this.stopped)
    return new Promise<JqReply>((resolve, reject) => {
      this.waiting = {resolve, reject}
      // Busy, the thread keeps the process alive: a command waits for its output.
      this.worker.ref()
      this.tellWhenWritten()
      this.worker.postMessage(request)
    }).finally(() => {
      this.waiting = undefined
      if (!this.stopped) this.worker.unref()
    })
  }

  private received(reply: JqReply): void {
    if (reply.kind === 'data') {
      void this.read()
      return
    }
    this.waiting?.resolve(reply)
  }

  private end(error: Error): void {
    this.stopped ??= error
    this.waiting?.reject(this.stopped)
  }

  /** Asks the worker to post once it has written something (WAKE), unless it has already. */
  private tellWhenWritten(): boolean {
    Atomics.store(this.control, WAKE, 1)
    if (this.stdout.empty && this.stderr.empty) return true
    Atomics.store(this.control, WAKE, 0)
    return false
  }

  /** Reads both rings until they are empty, handing stdout's text to the sink and freeing its space once the sink has taken it. */
  private read(): Promise<void> {
    this.reading = this.reading.then(async () => {
      for (;;) {
        if (this.stopped) return
        const err = this.stderr.take()
        if (err) {
          this.sink?.stderr(err.text)
          this.stderr.free(err.upTo)
        }
        const out = this.stdout.take()
        if (out) {
          await this.sink?.stdout(out.text)
          this.stdout.free(out.upTo)
        }
        if (!err && !out && this.tellWhenWritten()) return
      }
    })
    return this.reading
  }
}
