import type {GwError, StopSignal} from '../errors.js'
import type {JournalState, Standing} from './journal-state.js'

/**
 * Why a batch started no more rows: a signal (Ctrl-C), or stdout that could not be written (its
 * reader went away, `| head -1`, or a full disk): the rows in flight finish into the journal.
 */
export type StopReason = StopSignal | 'stdout'

/** How the run ended: every row tried, or stopped early (a signal, the gateway refusing the credentials, stdout, a journal that cannot be written). */
export interface RunEnd {
  /** Rows this run never began: no line of theirs was printed. */
  notStarted: number
  /** What the journal holds once the run ends, counted as the next run counts it (journalState). */
  journal: JournalState
  stoppedBy?: StopReason
  stoppedByError?: GwError
  /** Lines an earlier run sent that the file asks otherwise now, in the file's order: neither sent nor looked up. */
  changedLines: number[]
}

/** What became of one row this run took: where the journal had it then, and where it has it once the row is done. */
export interface RowEnd {
  /** Whether the row was begun (a line of it printed): one taken once the batch was stopping was not. */
  began: boolean
  before: Standing
  /** Known once the row's last journal line is synced, or could not be: until then the row is not done. */
  after: Standing | Promise<Standing>
}

/**
 * The ends of a run's rows, each added once, as the row ends; what the run ends with is counted
 * from them and from the journal as the run found it. Only the counts are kept, never the rows,
 * so a batch of any size is counted in the same memory.
 */
export class RowEnds {
  private began = 0
  /** How the rows this run took changed the count of each standing. */
  private readonly moved: Record<Standing, number> = {answered: 0, inDoubt: 0, notStarted: 0}
  private failedUnsent = 0
  private readonly pending = new Set<Promise<void>>()

  add(end: RowEnd): void {
    if (end.began) this.began++
    const counted = Promise.resolve(end.after).then((after) => {
      this.moved[end.before]--
      this.moved[after]++
      // A row begun (and so reported) that the journal still has as not started failed with nothing made (unsent, or refused unprocessed by a rate limit): a later run tries it afresh.
      if (end.began && after === 'notStarted') this.failedUnsent++
    })
    const tracked = counted.finally(() => this.pending.delete(tracked))
    this.pending.add(tracked)
  }

  /** Once every row added is done: its result synced (or failed to be) and reported. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending)
  }

  /** The run's end: `earlier`, what the journal held of the `total` rows before this run, moved by the rows' ends; and how the run stopped. */
  end(earlier: JournalState, total: number, ending: Pick<RunEnd, 'stoppedBy' | 'stoppedByError' | 'changedLines'>): RunEnd {
    const answered = earlier.answered + this.moved.answered
    const inDoubt = earlier.inDoubt + this.moved.inDoubt
    return {notStarted: total - this.began, journal: {answered, inDoubt, notStarted: total - answered - inDoubt, failedUnsent: this.failedUnsent}, ...ending}
  }
}
