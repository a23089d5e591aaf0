import {InterruptedError, type MoneyInFlight, type StopSignal} from '../errors.js'
import {stopMeaning, type StopSignalName} from '../lib/platform.js'
import type {Io} from '../output/io.js'
import type {SoftStop} from '../batch/batch-deps.js'


/**
 * How a command stops on SIGINT, SIGTERM and SIGHUP, and on Windows Ctrl-Break, taken as SIGTERM (design.md §5). A purchase or refund in flight
 * is not abandoned: the first signal waits for its answer, which is shown, and gw then exits as
 * the signal says. A batch stops softly (a first signal starts no new rows, a second aborts its
 * requests, and it reports what it left in doubt). Anything else stops
 * at once: the request in flight is aborted, and a wait on stdin or a prompt, which nothing
 * aborts, is ended by `interrupted` rejecting.
 */
export class Stop {
  private readonly controller = new AbortController()
  /** Aborted with the signal's name: every request the client sends listens to it. */
  readonly signal = this.controller.signal
  /** Rejects with the error to report once a signal stops the command. */
  readonly interrupted: Promise<never>
  /** The signal waited through: it came while money was in flight, or once the work was done. */
  waitedThrough?: StopSignal
  private softStop?: SoftStop
  /** Set once the command's work is over and only what it shows is left. */
  private showing = false
  private unwatch = () => {}
  private readonly signalListeners: ((atOnce: boolean) => void)[] = []
  private reject: (error: InterruptedError) => void = () => {}

  constructor(private readonly context: {inFlight: () => MoneyInFlight | undefined; io: () => Io; signals: readonly StopSignalName[]}) {
    this.interrupted = new Promise<never>((_, reject) => (this.reject = reject))
    this.interrupted.catch(() => {})
  }

  /** What a batch does on a signal instead; undefined when the batch is over. */
  onSoftStop(handler: SoftStop | undefined): void {
    this.softStop = handler
  }

  /**
   * Told of every stop signal: whether it stops the command at once, or is waited through (a
   * purchase in flight, a batch's rows in flight). --jq's filter stops, or gives up once the command is done.
   */
  onSignal(listener: (atOnce: boolean) => void): void {
    this.signalListeners.push(listener)
  }

  /**
   * Listens for the stop signals until the returned function is called: all along, never a
   * listener at a time, since a signal that finds none (a second Ctrl-C while the first is handled)
   * ends the process as if gw had none.
   */
  watch(): () => void {
    for (const signal of this.context.signals) process.on(signal, this.received)
    this.unwatch = () => {
      for (const signal of this.context.signals) process.off(signal, this.received)
    }
    return this.unwatch
  }

  /**
   * The command's work is over, and what is left is showing its outcome: nothing waits on
   * `interrupted` now. A signal then lets the outcome be shown, and the exit status says it came.
   */
  workDone(): void {
    this.showing = true
  }

  /** A signal that came once this Stop no longer watched (only --jq's filter was left): the exit status still says so. */
  heard(signal: StopSignal): void {
    this.waitedThrough ??= signal
  }

  /** The exit status a signal waited through still says: the command was interrupted. */
  exitCode(): number | undefined {
    return this.waitedThrough && new InterruptedError(this.waitedThrough).exitCode
  }

  private readonly received = (caught: StopSignalName): void => {
    // Ctrl-Break, Windows' SIGTERM, is taken as SIGTERM.
    const signal: StopSignal = stopMeaning(caught)
    if (this.showing) {
      this.waitedThrough ??= signal
      this.tell(true)
      // A second signal, finding no listener, ends gw at once: a reader that never takes the outcome cannot hold it.
      this.unwatch()
      return
    }
    const soft = this.softStop?.(signal)
    if (soft === 'finish') {
      this.tell(false)
      return
    }
    if (soft === 'abort') {
      // Its requests end at once, and the batch with them: it reports, then exits as the signal says.
      this.tell(true)
      this.controller.abort(signal)
      return
    }
    const inFlight = this.context.inFlight()
    if (!soft && inFlight && this.waitedThrough === undefined) {
      this.waitedThrough = signal
      this.tell(false)
      void import('../output/hints.js').then(({waitingNotice}) => this.context.io().err(waitingNotice(signal, inFlight)))
      return
    }
    this.tell(true)
    // The client names one request in flight; a batch's own error names its several.
    const error = soft ?? new InterruptedError(signal, inFlight)
    this.controller.abort(signal)
    this.reject(error)
  }

  private tell(atOnce: boolean): void {
    for (const listener of this.signalListeners) listener(atOnce)
  }
}
