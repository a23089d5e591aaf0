import {STOP_SIGNALS, type StopSignal, UsageError} from '../errors.js'
import {stopMeaning, type StopSignalName} from '../lib/platform.js'
import {maskCardNumbersIn} from '../safety/redact.js'
import {type Io, withStdinTTY} from './io.js'
import {JqStopped, type JqThread} from './jq-thread.js'
import {sanitize} from '../safety/sanitize.js'

/**
 * `--jq EXPR`, as gh's: the JSON gw prints goes through jq, each record on its own, and what the
 * expression makes is printed instead; strings raw (gh's way), anything else as JSON, pretty on
 * a terminal (control characters made visible), one line each in a pipe. jq itself (1.8, from
 * jq-wasm: jq's own C compiled to WebAssembly, bundled apart, so it needs no jq on the machine and
 * works in the one file executable) runs in a worker thread (jq-thread.ts), started only when
 * --jq is given: an expression that never ends (`range(1e9)`, `last(repeat(1))`) never holds up
 * gw, its output streams to the reader at the reader's pace, and a signal or a reader gone ends it.
 */
export interface JqFilter {
  readonly expression: string
  readonly thread: JqThread
}

/**
 * The expression, checked: one jq cannot compile is refused (exit 2) before anything is sent.
 * Starting the thread and loading jq in it is ~30-60 ms, paid only by --jq.
 */
export async function jqFilter(expression: string): Promise<JqFilter> {
  const {JqThread} = await import('./jq-thread.js')
  const thread = await JqThread.start()
  const checked = await thread.check(expression)
  if (checked.exitCode === 3) {
    thread.stop()
    throw new UsageError(`--jq: ${jqMessage(checked.stderr)}`, 'The expression is jq\'s (jqlang.org/manual): for example --jq .id, or --jq \'select(.amount > 1000) | .reference\'.')
  }
  return {expression, thread}
}

/** jq's stderr without its `jq: error (at /dev/stdin:0): ` prefixes and its count of compile errors. */
function jqMessage(stderr: string): string {
  return stderr
    .replace(/^jq: error(?: \(at [^)]*\))?: /gm, '')
    .replace(/^jq: \d+ compile errors?\n?$/m, '')
    .trimEnd()
}

/** A record the expression failed on: the first, after which nothing more is printed (exit 2). */
export class JqFailure extends UsageError {
  // As stdout's own failures carry one (EPIPE): Io.outFailure reports either.
  readonly code = 'EJQ'
}

/** What the program prints to stderr when the expression fails on a record (jq-worker.ts reads it back). */
const FAILURE_MARK = '__gw_jq_failed '

/**
 * The expression over every document of a run, one at a time, numbered: the first error stops the
 * run (halt_error) naming its record, so that nothing after a record the expression failed on is
 * printed, as jq alone would go on to the next. On lines of its own: a comment in the expression
 * ends at its line.
 */
function program(expression: string): string {
  return `foreach inputs as $__gw_doc (0; . + 1; . as $__gw_record | $__gw_doc | try (\n${expression}\n) catch ("${FAILURE_MARK}" + ({record: $__gw_record, error: .} | tojson) | halt_error))`
}

/** Writes joined into one run of jq while it was busy, up to this much: jq starts afresh (~4 ms) for each run. */
const RUN_BYTES = 1024 * 1024
/** A line of output longer than this is printed in parts, its card numbers masked part by part. */
const LINE_BYTES = 64 * 1024

/** A write waiting for the filter: its text, and who waits for it to be printed. */
interface Pending {
  text: string
  written?: (written: boolean) => void
}

export interface FilterOptions {
  /**
   * Told of each stop signal (factory.ts, the command's Stop): one that stops the command at once
   * stops jq with it; one the command waits through (a purchase in flight, a batch's rows in
   * flight) leaves it running until the command is done, then gives it a moment to print.
   */
  onSignal?(listener: (atOnce: boolean) => void): void
  /** A stop signal came once the command was done and only jq was left running: the exit status says so. */
  interruptedLate?(signal: StopSignal): void
  /** The signals that ask gw to stop here (lib/platform.ts); SIGINT, SIGTERM and SIGHUP when not given. */
  signals?: readonly StopSignalName[]
}

/**
 * stdout through the filter: what gw writes there (whole JSON documents, one or more a write,
 * always compact: this Io tells every renderer it writes to a pipe) goes through jq, and jq's
 * output to the real stdout, as jq prints it, at the reader's pace. Writes made while jq is busy
 * wait in order, and run together; `outReady` holds a writer until jq has taken what waits. The
 * first record the expression fails on stops the output as a closed pipe would (lists stop
 * paging, batches start no new row); the reporter says why.
 */
export function filteredIo(io: Io, filter: JqFilter, options: FilterOptions = {}): Io {
  // Pretty on a terminal (jq-wasm prints no colour), one line each elsewhere; strings raw either way.
  const flags = ['-n', '--unbuffered', '-r', ...(io.isStdoutTTY ? [] : ['-c'])]
  const shown = (text: string) => {
    const masked = maskCardNumbersIn(text)
    return io.isStdoutTTY ? sanitize(masked, {keepColors: true}) : masked
  }
  const queue: Pending[] = []
  let running = false
  let runs = 0
  let records = 0
  let failure: JqFailure | undefined
  /** jq was stopped by a signal: nothing more is printed, and that is the signal's to report. */
  let interrupted = false
  /** The run jq was on when a signal the command waits through came; 0 for none. */
  let runAtSignal: number | undefined
  let line = ''
  const listeners: ((err: NodeJS.ErrnoException) => void)[] = []
  /** Writers waiting for jq to take what waits (outReady), and for it to be done (flushOut, close). */
  const taken: (() => void)[] = []
  const idle: (() => void)[] = []

  const stopped = () => failure !== undefined || interrupted || io.outFailure() !== undefined
  const settle = () => {
    if (queue.length === 0 || stopped()) for (const resolve of taken.splice(0)) resolve()
    if ((queue.length === 0 && !running) || stopped()) for (const resolve of idle.splice(0)) resolve()
  }
  /** Everything waiting is dropped, unprinted: the output has ended. */
  const dropAll = () => {
    for (const pending of queue.splice(0)) pending.written?.(false)
    settle()
  }
  const fail = (error: JqFailure) => {
    failure ??= error
    for (const listener of listeners.splice(0)) listener(failure)
  }
  const stopJq = () => {
    interrupted = true
    filter.thread.stop()
    dropAll()
  }
  // The reader gone (or the disk full): jq has no one to print for.
  io.onOutClosed(() => {
    filter.thread.stop()
    dropAll()
  })
  options.onSignal?.((atOnce) => {
    if (atOnce) stopJq()
    else runAtSignal ??= running ? runs : 0
  })

  const print = async (text: string) => {
    if (text === '' || stopped()) return
    io.out(shown(text))
    await io.outReady()
  }
  const sink = {
    async stdout(text: string) {
      line += text
      // Whole lines, so that a card number is never cut in two; a line too long to hold goes in parts.
      const end = line.length > LINE_BYTES ? line.length : line.lastIndexOf('\n') + 1
      const whole = line.slice(0, end)
      line = line.slice(end)
      await print(whole)
    },
    stderr: (text: string) => io.err(maskCardNumbersIn(text)),
  }

  const work = async () => {
    if (running) return
    running = true
    try {
      while (queue.length > 0 && !stopped()) {
        const batch: Pending[] = []
        let size = 0
        while (queue.length > 0 && (batch.length === 0 || size + queue[0]!.text.length <= RUN_BYTES)) {
          size += queue[0]!.text.length
          batch.push(queue.shift()!)
        }
        settle()
        runs++
        const text = batch.map((pending) => pending.text).join('')
        const first = records
        // Records are written a line each; only gw api's body may be one record on several lines, and it is the only write.
        records += text.split('\n').length - 1
        const ok = await runOnce(text, first)
        for (const pending of batch) pending.written?.(ok && !stopped())
      }
    } finally {
      running = false
      if (stopped()) dropAll()
      settle()
    }
  }

  /** One run of jq over `text`, whose first record is the output's `first + 1`: whether it ended well. */
  const runOnce = async (text: string, first: number): Promise<boolean> => {
    let end
    try {
      end = await filter.thread.run(text, program(filter.expression), flags, sink)
    } catch (error) {
      if (error instanceof JqStopped) return false
      throw error
    }
    await print(line)
    line = ''
    if (end.failure) fail(new JqFailure(`--jq: ${errorText(end.failure.error)} (record ${first + end.failure.record} of the output; nothing after it was printed)`))
    else if (end.crashed) fail(new JqFailure(`--jq: jq failed (${end.crashed}); nothing after record ${first} of the output was printed`))
    // halt_error, or jq unable to read what gw gave it: its own words went to stderr.
    else if (end.exitCode !== 0) fail(new JqFailure(`--jq: jq stopped with exit status ${end.exitCode}; nothing after record ${first} of the output was printed`))
    return end.failure === undefined && end.exitCode === 0 && !end.crashed
  }

  const enqueue = (pending: Pending) => {
    if (stopped()) return pending.written?.(false)
    queue.push(pending)
    void work()
  }
  const whenIdle = () => new Promise<void>((resolve) => (idle.push(resolve), settle()))
  /** jq done; or a stop signal, which the command (its own watch over) leaves to the filter once it is closing. */
  const idleOrSignal = async () => {
    let heard: StopSignal | undefined
    const stop = (signal: StopSignalName) => {
      heard ??= stopMeaning(signal)
      stopJq()
    }
    const signals = options.signals ?? STOP_SIGNALS
    for (const signal of signals) process.once(signal, stop)
    try {
      await whenIdle()
    } finally {
      for (const signal of signals) process.off(signal, stop)
    }
    if (heard === undefined) return
    io.err('--jq was stopped before it had printed all the output: gw was interrupted.\n')
    options.interruptedLate?.(heard)
  }

  return withStdinTTY({
    ...io,
    // Every renderer asks: a pipe gets compact JSON, which is what jq reads here.
    isStdoutTTY: false,
    color: false,
    out(text) {
      enqueue({text})
    },
    outWritten(text) {
      return new Promise<boolean>((written) => enqueue({text, written}))
    },
    onOutClosed(listener) {
      // Told once, whichever comes first: the filter failing or stdout's reader going away.
      let told = false
      const once = (err: NodeJS.ErrnoException) => {
        if (!told) listener(err)
        told = true
      }
      if (failure) once(failure)
      else listeners.push(once)
      io.onOutClosed(once)
    },
    outFailure: () => failure ?? io.outFailure(),
    async outReady() {
      await new Promise<void>((resolve) => (taken.push(resolve), settle()))
      if (!stopped()) await io.outReady()
    },
    async flushOut() {
      await whenIdle()
      await io.flushOut()
    },
    async close() {
      if (runAtSignal !== undefined && !stopped()) {
        // Interrupted: jq gets a moment to print what the command finished meanwhile, unless it
        // has been on one run since the signal came (an expression that does not end).
        const onRunFromBefore = running && runs === runAtSignal
        const done = onRunFromBefore || (await Promise.race([whenIdle().then(() => true), delay(GRACE_MS).then(() => false)]))
        if (onRunFromBefore || !done) {
          stopJq()
          io.err('--jq was stopped before it had printed all the output: gw was interrupted.\n')
        }
      }
      await idleOrSignal()
      filter.thread.stop()
      await io.close()
    },
  }, () => io.isStdinTTY)
}

/** How long an interrupted command's filter may take to print what is left (jq takes ~4 ms a run). */
const GRACE_MS = 1000

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}

/** A jq error as jq words it: a string as it is, anything else as JSON. */
function errorText(error: unknown): string {
  return typeof error === 'string' ? error : `${JSON.stringify(error)} (not a string)`
}
