import {DeclinedError, GwError, InterruptedError, WriteError} from '../errors.js'
import type {GwRecord} from '../api/schemas/record.js'
import {toGwError} from './to-gw-error.js'
import {PAGER_FAILED, PAGER_QUIT} from '../output/pager.js'
import type {Factory} from './factory.js'

/** What a command's operate() may return besides a record or a list: the exit status of a service that stopped, or of a batch (its worst row's). */
export class ExitStatus {
  constructor(readonly code: number) {}
}

/** Several look-ups, some failed: exits with the worst code among them. */
export class SomeFailed extends GwError {
  constructor(message: string, worst: GwError) {
    super(worst.kind, worst.exitCode, message)
  }
}

/**
 * Where a result is rendered and an error becomes output and an exit code (style.md §3): the one
 * place that sets the process's exit status.
 */
export class Reporter {
  /** Whether an error about writing was reported already (a batch's, naming its journal). */
  private writeErrorReported = false
  /** The error reported, if one was: stdout's failure is not told again when it caused it. */
  private reported?: unknown

  constructor(
    private readonly f: Factory,
    /** The command as typed (`gw purchase get`) and its flags, for a usage error's hint and the closest flag. */
    private readonly command: {name: () => string; flags: string[]},
  ) {}

  /** A record or a list (an array), rendered by where stdout goes (design.md §3); or an exit status. */
  async result(result: unknown): Promise<void> {
    if (result instanceof ExitStatus) process.exitCode = result.code
    else if (result !== undefined && result !== null) await this.render(result as GwRecord | GwRecord[])
  }

  private async render(result: GwRecord | GwRecord[]): Promise<void> {
    const {renderList, renderRecord} = await import('../output/render.js')
    const {io, columns, render} = this.f
    if (Array.isArray(result)) await renderList(io, result, columns, render)
    else await renderRecord(io, result, columns, render)
  }

  /** An error's message and hint on stderr (and a decline's record on stdout), and its exit code. */
  async error(err: unknown): Promise<void> {
    const {io, columns, render, flags} = this.f
    const error = toGwError(err, {name: this.command.name(), flags: this.command.flags})
    this.reported = err
    const {renderError, renderRecord} = await import('../output/render.js')
    if (error instanceof WriteError) this.writeErrorReported = true
    // A decline is a processed transaction: its record is the result, on stdout like any other.
    if (error.record) await renderRecord(io, error.record, columns, render)
    renderError(io, error, {json: flags.json && !(error instanceof SomeFailed), hint: await this.declineHint(error)})
    if (error.kind === 'unexpected' && flags.verbose && err instanceof Error && err.stack) io.err(err.stack + '\n')
    process.exitCode = error.exitCode
    // A signal or an abandoned native call may leave a wait behind (stdin, a prompt, the keychain)
    // that would hold the process open: once the error is reported, gw leaves.
    // A pager still shows the output: gw leaves once its reader has.
    if (error instanceof InterruptedError || error.abandonsPendingCall) void io.close().then(() => setTimeout(() => process.exit(), 100).unref())
  }

  /**
   * A person at a terminal trying the local gateway is told which of its rules declined a purchase;
   * a script (a pipe, --json) is not, nor is anyone at a gateway that does not name itself local
   * (X-Sandbox-Instance), whose own reasons gw cannot know.
   */
  private async declineHint(error: GwError): Promise<string | undefined> {
    const {io, flags} = this.f
    if (!(error instanceof DeclinedError) || !error.record || !io.isStdoutTTY || flags.json || !this.f.localGateway()) return undefined
    return (await import('../output/hints.js')).localDeclineHint(error.record)
  }

  /**
   * stdout that could not be written: a reader gone (`| head -1`) is silent with exit 141, as gh,
   * git and coreutils leave (design.md §4); any other failure (`> /dev/full`) one short line on
   * stderr and exit 1, never the silent 0 of a result that reached no one.
   */
  async brokenStdout(): Promise<void> {
    const {io, flags} = this.f
    await io.flushOut()
    const broken = io.outFailure()
    // The reader quitting the pager (q in less) is no failure.
    if (!broken || this.writeErrorReported || broken.code === PAGER_QUIT) return
    const {renderError} = await import('../output/render.js')
    // --jq's filter failed on a record (output/jq.ts): its own error, not stdout's.
    if (broken instanceof GwError) {
      if (this.reported instanceof Error && this.reported.cause === broken) return
      renderError(io, broken, {json: flags.json})
      // A decline whose record it failed on still exits 3.
      if (this.reported === undefined) process.exitCode = broken.exitCode
      return
    }
    if (broken.code === 'EPIPE') {
      process.exitCode = 141
      return
    }
    const error = new WriteError(broken.code === PAGER_FAILED ? broken.message : `stdout could not be written (${broken.code ?? broken.message}): what was printed there is incomplete`, broken, {exitCode: 1})
    renderError(io, error, {json: flags.json})
    process.exitCode = error.exitCode
  }

  /** The exit status a signal waited through during a purchase still says the command was interrupted. */
  interruptedBy(code: number | undefined): void {
    if (code !== undefined) process.exitCode = code
  }
}
