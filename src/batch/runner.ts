import {AuthError, GwError, ModeMismatchError, NotSentError, RateLimitedError} from '../errors.js'
import {type Clock, systemClock, type Waiting, type WindowMs} from '../money/window.js'
import type {Sent} from '../operations/money.js'
import {type Journal, rowChanges} from './journal.js'
import {type Intent, intentEntry, type Result} from './journal-entries.js'
import {restoredIntent} from './journal-names.js'
import {journalState, type Standing, standingOf} from './journal-state.js'
import {GatewaySlots, LOOK_AHEAD, rateLimited, STOPPED, unjournaledAnswers, unreachable} from './gateway-slots.js'
import {type InDoubtWait, INTENT_FRESH_MS, lookUpInDoubt} from './in-doubt.js'
import {changedRow, decidedRow, failedRow, fromJournal, missingRow, resultEntry, type RowReport} from './row-reports.js'
import {rowWords} from './row-words.js'
import {type RowEnd, RowEnds, type RunEnd, type StopReason} from './run-end.js'
import type {RowSender} from './kinds.js'
import type {ValidRow} from './rows.js'

export interface RunOptions<Input, Body extends object> {
  /** The rows to send, read as they are needed: a file of any size is never held. */
  rows: AsyncIterable<ValidRow<Input>>
  /** How many rows there are, for what was not started. */
  total: number
  sender: RowSender<Input, Body>
  journal: Journal
  concurrency: number
  onRow: (report: RowReport) => void
  /** design.md §5's processing window (money/window.ts), or how to learn it from the gateway. */
  windowMs?: WindowMs
  clock?: Clock
  /** Told when a row in doubt begins to wait for a gateway that may still be processing it, and with undefined when that ends; `sentThisRun`: the wait is for this run's own request, whose answer was lost (not sent again after it), rather than an earlier run's (sent once it is over). */
  onWaiting?: (row: {row: number; reference: string}, waiting: Waiting | undefined, sentThisRun?: boolean) => void
  /** The run of the gateway's data the last answer came from (X-Sandbox-Instance), journaled with each result. */
  gatewayInstance?: () => string | undefined
  /** --verify: each row the journal has approved or declined is looked up at the gateway before it is reported; one it lacks is reported missing, never sent. */
  verify?: boolean
  /** Resolves once the output (stdout, --jq's filter) has taken what was reported, or `stop` aborts: no row starts while it is behind. */
  ready?: (stop: AbortSignal) => Promise<void>
}

/**
 * The batch's rows over the client's one keep-alive pool, at most `concurrency` requests in
 * flight. A row's journal writes are kept off that path: while `concurrency` rows are at the
 * gateway, more have their intents synced, ready to go (LOOK_AHEAD); and a row's result is synced
 * while the next row is already being sent. Only a synced intent lets a row be sent, and only a
 * synced result lets it be reported.
 */
export class BatchRunner<Input, Body extends object> {
  private stopSignal?: StopReason
  private stopError?: GwError
  /** Aborted once the batch stops starting rows: a row waiting for the gateway stops waiting. */
  private readonly halted = new AbortController()
  private readonly clock: Clock
  /** The batch's way to the gateway: a rate-limited row's client asks it to journal the row again (run-batch.ts). */
  readonly gateway: GatewaySlots
  /** Each row's end, added once: what the run ends with is counted from them. */
  private readonly ends = new RowEnds()
  private readonly changedLines: number[] = []
  /** Rows whose request stopped before it was sent (NotSentError), or that the gateway's rate limit refused unprocessed: taken back, never in doubt. */
  private readonly unsent = new WeakSet<RowReport>()

  constructor(private readonly options: RunOptions<Input, Body>) {
    this.gateway = new GatewaySlots(options.concurrency, this.halted.signal, () => this.clock.now())
    this.clock = options.clock ?? systemClock
  }

  /** Ctrl-C or SIGTERM, or stdout gone: start no new rows; those in flight finish and are journaled. */
  stop(reason: StopReason): void {
    this.stopSignal ??= reason
    this.halted.abort()
  }

  /**
   * The one way a failure stops the batch (a journal that cannot be written, the credentials
   * refused, the wrong gateway, the gateway unreachable): no row starts after it, and the rows in
   * flight finish into the journal. The first error stands: it is what the batch exits with.
   */
  private stopWith(error: GwError): void {
    this.stopError ??= error
    this.halted.abort()
  }

  /** Stopped by a signal, stdout or an error alike. */
  private get stopping(): boolean {
    return this.halted.signal.aborted
  }

  async run(): Promise<RunEnd> {
    const {rows, total, concurrency, journal} = this.options
    // One reader of the rows for every worker: an async generator hands its rows out one at a time.
    const next = rows[Symbol.asyncIterator]()
    const worker = async () => {
      while (!this.stopping) {
        // A row taken once the batch is stopping is left unstarted by runRow.
        await this.options.ready?.(this.halted.signal)
        const row = await next.next()
        if (row.done) return
        this.ends.add(await this.runRow(row.value))
      }
    }
    await Promise.all(Array.from({length: LOOK_AHEAD * concurrency}, worker))
    await this.ends.settled()
    // The journal keeps the earlier runs' entries alone: what they held of the rows, before this run.
    return this.ends.end(journalState(journal, total), total, {stoppedBy: this.stopSignal, stoppedByError: this.stopError, changedLines: this.changedLines})
  }

  /** One row, start to end: where it stood in the journal and where it stands now; not begun when the batch stopped first. */
  private async runRow(row: ValidRow<Input>): Promise<RowEnd> {
    const {journal, sender, onRow} = this.options
    const done = journal.results.get(row.reference)
    const intent = restoredIntent(journal.intents.get(row.reference), sender.asked(row.input))
    const before = standingOf(intent, done)
    const unmoved = (began: boolean): RowEnd => ({began, before, after: before})
    // Sent by an earlier run as the file asked then: what it asks now is neither sent nor looked up.
    const changes = rowChanges(intent, sender.asked(row.input))
    if (changes.length > 0) {
      this.changedLines.push(row.line)
      onRow(changedRow(row, changes, done, intent!.line))
      return unmoved(true)
    }
    // A row answered for sure in an earlier run is reported from the journal; one in doubt
    // (sent with no answer recorded, or whose answer was unknown or a failure) is looked up first.
    if (before === 'answered') {
      // A refusal (exit 7) left nothing at the gateway to look up.
      if (this.options.verify && intent && done!.exit_code !== 7) return unmoved(await this.verify(row, done!, intent.request as Body))
      onRow(fromJournal(row, done!))
      return unmoved(true)
    }
    let body: Body
    if (intent) {
      body = intent.request as Body
      const earlier = await lookUpInDoubt<RowReport>(row, intent, () => this.atGatewayCounted(row, body, () => sender.findEarlier(body)), sender.money(body), this.waitFor(row))
      if (earlier && 'stillInDoubt' in earlier) {
        onRow(earlier.stillInDoubt)
        return unmoved(true)
      }
      if (earlier) return this.finish(row, earlier.found, before, intent)
    } else {
      let request: Body | typeof STOPPED
      try {
        request = sender.asksFirst(row.input) ? await this.askedFirst(row, () => sender.request(row.input, row.row)) : await sender.request(row.input, row.row)
      } catch (err) {
        // Nothing was sent, so nothing is journaled: a later run tries the row afresh.
        onRow(this.failed(row, err, sender.unsentMoney?.(row.input) ?? {}))
        return unmoved(true)
      }
      if (request === STOPPED) return unmoved(false)
      body = request
    }
    let synced: Intent
    try {
      synced = await this.journalIntent(row, body)
    } catch (err) {
      // Not sent. A commit that failed may have reached the disk all the same: taken back, so that the journal says what this run says.
      onRow(this.failed(row, err, sender.money(body)))
      return this.withdraw(row, before, true)
    }
    const report = await this.atGatewayCounted(row, body, async () => {
      // Long in the queue (or, in gateway.sending, rate limited and sent again): journaled again, so that a rerun counts the processing window from when it truly left. Not journaled, it is not sent (nor was it processed), and is taken back.
      const journalAgain = () => this.journalIntent(row, body).catch((err: unknown) => Promise.reject(new NotSentError(err as GwError)))
      const intent = this.clock.now() - Date.parse(synced.sent_at) > INTENT_FRESH_MS ? await journalAgain() : synced
      // The journal commits on a thread of its own while answers come: how far it may lag them (unjournaledAnswers).
      await this.options.journal.caughtUp(unjournaledAnswers(this.options.concurrency))
      return this.gateway.sending(row.reference, intent, journalAgain, () => sender.send(body, {onWait: (waiting) => this.options.onWaiting?.({row: row.row, reference: row.reference}, waiting, true)}))
    })
    if (report === STOPPED) return this.withdraw(row, before, false)
    if (this.unsent.has(report!)) {
      onRow(report!)
      return this.withdraw(row, before, true)
    }
    return this.finish(row, report!, before, synced)
  }

  /** What a row asks the gateway before its request can be made, in a request slot: its failure counted there, as a lost answer is (atGatewayCounted). */
  private askedFirst<T>(row: ValidRow<Input>, ask: () => Promise<T>): Promise<T | typeof STOPPED> {
    return this.gateway.run(() =>
      ask().catch((err: unknown) => {
        if (this.gateway.lost(this.failed(row, err, {}))) this.stopWith(unreachable(rowWords(this.options.sender).row))
        throw err
      }),
    )
  }

  /** Synced before the row is sent, with the time it leaves; a failure stops the batch. */
  private async journalIntent(row: ValidRow<Input>, body: Body): Promise<Intent> {
    try {
      const entry = intentEntry(row, body as Record<string, unknown>, this.options.sender.asked(row.input), this.clock.now())
      await this.options.journal.intent(entry)
      return entry
    } catch (err) {
      this.stopWith(err as GwError)
      throw err
    }
  }

  /** How the row waits for the gateway while it may still be processing the row's earlier request. */
  private waitFor(row: ValidRow<Input>): InDoubtWait {
    const {windowMs, onWaiting} = this.options
    return {windowMs, clock: this.clock, stop: this.halted.signal, onWait: (waiting) => onWaiting?.({row: row.row, reference: row.reference}, waiting)}
  }

  /**
   * A request for the row in a slot, decided (undefined: the gateway has nothing under its
   * reference), or failed. A lost answer is counted before the slot is let go: a row waiting for
   * the slot must see the 8th loss in a row, and not start.
   */
  private atGatewayCounted(row: ValidRow<Input>, body: Body, request: () => Promise<Sent | undefined>): Promise<RowReport | undefined | typeof STOPPED> {
    return this.gateway.run(async () => {
      let report: RowReport
      try {
        const sent = await request()
        if (!sent) return undefined
        report = this.decided(row, sent)
      } catch (err) {
        report = this.failed(row, err instanceof NotSentError ? err.cause : err, this.options.sender.money(body))
        // Rate limited past gw's wait: the gateway said it did not process the request, so nothing was made.
        if (err instanceof NotSentError || err instanceof RateLimitedError) this.unsent.add(report)
      }
      if (this.gateway.lost(report)) this.stopWith(unreachable(rowWords(this.options.sender).row))
      return report
    })
  }

  /**
   * --verify: a row the journal has approved or declined, looked up by its reference before it is
   * reported (the live gateway names no instance of its data to check the journal by). Found, it
   * is reported as found; not found, it is reported missing and not sent: the journal's word and
   * the gateway's differ, and which is right is for a person to find out. Nothing is journaled.
   */
  private async verify(row: ValidRow<Input>, done: Result, body: Body): Promise<boolean> {
    const {sender, onRow} = this.options
    const report = await this.gateway.run(async () => {
      try {
        const sent = await sender.findEarlier(body, done.record)
        return sent ? this.decided(row, sent) : missingRow(row, done, {...rowWords(sender), noun: sender.noun})
      } catch (err) {
        return this.failed(row, err, sender.money(body))
      }
    })
    if (report === STOPPED) return false
    onRow(report)
    return true
  }

  /**
   * Journaled but not sent (the batch stopped, its request stopped before it left, or its intent's
   * commit failed, which may have reached the disk all the same): taken back, so that the next run
   * counts it not started, as this one does, and sends it at once. Until that is on disk it is in
   * doubt; if that cannot be written, it stands as the file holds it. `began`: it was reported.
   */
  private async withdraw(row: ValidRow<Input>, before: Standing, began: boolean): Promise<RowEnd> {
    try {
      await this.options.journal.withdraw(row.reference)
      return {began, before, after: 'notStarted'}
    } catch (err) {
      this.stopWith(err as GwError)
      return {began, before, after: (await this.options.journal.holds(row.reference)) ? 'inDoubt' : 'notStarted'}
    }
  }

  /** Syncs the row's result and then reports it, without holding up the next row; `synced`, its intent on disk, stands until an answer that stands does. */
  private finish(row: ValidRow<Input>, report: RowReport, before: Standing, synced: Intent): RowEnd {
    const journaled = this.journalResult(row, report)
    // Stopped at once (a second Ctrl-C): in doubt, its result written or not; reported now, so that what gw says before it exits names it.
    if (report.error?.kind === 'interrupted') {
      this.options.onRow(report)
      return {began: true, before, after: 'inDoubt'}
    }
    const after = journaled.then((journaled) => {
      this.options.onRow(report)
      return standingOf(synced, journaled)
    })
    return {began: true, before, after}
  }

  /** The result as journaled; undefined when it could not be, and the row stays in doubt. */
  private async journalResult(row: ValidRow<Input>, report: RowReport): Promise<Result | undefined> {
    const result = resultEntry(row.reference, report, this.options.gatewayInstance?.())
    try {
      await this.options.journal.result(result)
      return result
    } catch (err) {
      // The answer came and is reported; only its journal line is missing, so a re-run looks it up.
      this.stopWith(err as GwError)
      return undefined
    }
  }

  /** A row whose purchase or refund was decided; an answer from the wrong gateway stops the batch. */
  private decided(row: ValidRow<Input>, sent: Sent): RowReport {
    const {wrongGateway} = sent
    // Every row is stopped with the mismatch; the rows name the money, the ending need not again.
    if (wrongGateway) this.stopWith(new ModeMismatchError(wrongGateway.message, {expected: wrongGateway.expected, reported: wrongGateway.reported}, {status: wrongGateway.status, requestId: wrongGateway.requestId}))
    return decidedRow(row, sent, (record) => this.options.sender.money(sent.body as Body, record))
  }

  private failed(row: ValidRow<Input>, err: unknown, money: {amount?: number; currency?: string}): RowReport {
    // The credentials refused, an answer from the other environment than the profile's (which may move real money), or a rate limit past gw's wait: every other row would meet the same.
    if (err instanceof AuthError || err instanceof ModeMismatchError) this.stopWith(err)
    else if (err instanceof RateLimitedError) this.stopWith(rateLimited(rowWords(this.options.sender).row, err))
    return failedRow(row, err, money)
  }
}
