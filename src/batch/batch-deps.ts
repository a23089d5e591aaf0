import type {InterruptedError, StopSignal} from '../errors.js'
import type {MadeRecordsPlace} from '../lists/refunds-of-purchase.js'
import type {Deps} from '../operations/deps.js'
import type {Io} from '../output/io.js'

/** The batch's flags as its run takes them (cli/flags.ts batch). */
export interface BatchFlags {
  input: string
  concurrency?: number
  'skip-invalid': boolean
  'dry-run': boolean
  journal?: string
  verify?: boolean
  /** The rows are a new batch (batch-name.ts), though an earlier batch had the same: begun in the journal given. */
  'new-batch'?: boolean
}

/** What a batch is about to send, for its one confirmation: `300 refunds`, `2950.00 AUD; 12.00 NZD`. */
export interface BatchPlan {
  /** What a row is called (`purchase`, `capture`): kinds.ts rowWords. */
  noun: string
  rows: number
  totals: string
}

/**
 * What a signal does to a batch:
 * - `finish`: the rows in flight finish, no more start (the first signal);
 * - `abort`: the requests in flight are aborted, and the batch ends with its summary (the second);
 * - an error: gw stops with it at once (a third).
 */
export type SoftStop = (signal: StopSignal) => 'finish' | 'abort' | InterruptedError

/**
 * What a batch's run works with (gh's options struct): the command line builds it from its Factory
 * (cli/batch-deps.ts). Where gw's data is and which gateway and merchant the batch is for (a
 * target that rejects with a GwError when there is no profile); how it prints; and its deps.
 */
export interface BatchDeps extends MadeRecordsPlace {
  readonly io: Io
  /** --json: the summary as JSON too. */
  readonly json: boolean
  /** --json FIELDS or --fields: the fields of each row's record its line carries. */
  readonly fields?: string[]
  /** Deps whose client asks as a command's does: --dry-run's look-ups. */
  deps(): Promise<Deps>
  /**
   * The batch's one confirmation, told what it sends (a read-only profile refuses it, a live one
   * has it confirmed once), then the deps its rows are sent with: their client sends every row unasked.
   */
  confirmed(plan: () => Promise<BatchPlan>): Promise<Deps>
  /** What a signal does while the rows run; undefined once they are done. */
  onSoftStop(handler: SoftStop | undefined): void
}
