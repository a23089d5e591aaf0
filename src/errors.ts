/**
 * Every failure gw reports is a GwError: its kind and exit code are the design.md §3/§4 contract.
 * GwCommand's reporter turns them into output and an exit status; a batch turns each row's into
 * its NDJSON line. The client and the operations throw errors that carry facts (the reference in
 * doubt, where a request stopped); src/output/hints.ts words what to do about them, in gw's terms
 * (commands, flags), which the client and the operations never name.
 */
export type ErrorKind =
  | 'usage'
  | 'declined'
  | 'auth'
  | 'not_found'
  | 'permission'
  | 'rejected'
  | 'outcome_unknown'
  | 'rate_limited'
  | 'interrupted'
  | 'gateway'
  | 'network'
  | 'unreadable'
  /** The machine: a file or stream gw could not write (a full disk, a broken pipe). */
  | 'io'
  | 'unexpected'

export interface GwErrorDetails {
  status?: number
  messages?: string[]
  requestId?: string
  hint?: string
  /** The gateway's record, printed on stdout as a result even though the command failed (a decline). */
  record?: Record<string, unknown>
  /**
   * A native call (the keychain) was given up but is still pending and would hold the process
   * open: once the error is reported, gw leaves.
   */
  abandonsPendingCall?: boolean
}

export class GwError extends Error {
  readonly kind: ErrorKind
  readonly exitCode: number
  readonly status?: number
  readonly messages: string[]
  readonly requestId?: string
  readonly hint?: string
  readonly record?: Record<string, unknown>
  readonly abandonsPendingCall: boolean

  constructor(kind: ErrorKind, exitCode: number, message: string, details: GwErrorDetails = {}) {
    super(message)
    this.name = new.target.name
    this.kind = kind
    this.exitCode = exitCode
    this.status = details.status
    this.messages = details.messages ?? [message]
    this.requestId = details.requestId
    this.hint = details.hint
    this.record = details.record
    this.abandonsPendingCall = details.abandonsPendingCall ?? false
  }
}

export class UsageError extends GwError {
  constructor(message: string, hint?: string) {
    super('usage', 2, message, {hint})
  }
}

export class DeclinedError extends GwError {
  constructor(message: string, details: GwErrorDetails) {
    super('declined', 3, message, details)
  }
}

export class AuthError extends GwError {
  constructor(message: string, details: GwErrorDetails = {}) {
    super('auth', 4, message, details)
  }
}

export class NotFoundError extends GwError {
  constructor(message: string, details: GwErrorDetails = {}) {
    super('not_found', 5, message, details)
  }
}

export class PermissionError extends GwError {
  constructor(message: string, details: GwErrorDetails = {}) {
    super('permission', 6, message, details)
  }
}

/**
 * The gateway reports a mode (X-Service-Mode, `test`) other than the environment gw took it for:
 * a live gateway behind a sandbox profile would have every live protection off, so gw stops
 * before sending anything more (design.md §6).
 */
export class ModeMismatchError extends PermissionError {
  readonly expected: 'sandbox' | 'live'
  readonly reported: 'sandbox' | 'live'
  /** The purchase or refund whose answer this was, when one was sent. */
  readonly inFlight?: MoneyInFlight

  constructor(message: string, modes: {expected: 'sandbox' | 'live'; reported: 'sandbox' | 'live'; inFlight?: MoneyInFlight}, details: GwErrorDetails = {}) {
    super(message, details)
    this.expected = modes.expected
    this.reported = modes.reported
    this.inFlight = modes.inFlight
  }
}

export class RejectedError extends GwError {
  constructor(message: string, details: GwErrorDetails = {}) {
    super('rejected', 7, message, details)
  }
}

/**
 * A purchase's or refund's reference is held by another transaction at the gateway (found under it,
 * and not the one asked for): nothing was sent under it now. The renderer words how to check it.
 */
export class ReferenceTakenError extends RejectedError {
  readonly noun: MoneyInFlight['noun']
  readonly reference: string
  /** The id of the transaction holding the reference, when its record gives one. */
  readonly holder?: string

  constructor(message: string, taken: MoneyInFlight & {id?: string}, details: GwErrorDetails = {}) {
    super(message, details)
    this.noun = taken.noun
    this.reference = taken.reference
    this.holder = taken.id
  }
}

/** What a batch row or a lost answer may have made at the gateway: a purchase, a refund, or (in a batch) a payment plan or direct debit. */
export type RecordNoun = 'purchase' | 'refund' | 'payment plan' | 'direct debit'

/** A purchase or refund (or a batch's payment plan or direct debit) that may or may not have reached the gateway. */
export interface MoneyInFlight {
  /** Which look-up command can check it. */
  noun: RecordNoun
  /** Its reference; for a follow-up (`action`), the id of the record it changes. */
  reference: string
  /** A follow-up in flight (a capture, a void...) names its record by id, not by a reference: what it does to it. */
  action?: FollowUpAction
}

/** What a follow-up does to the purchase or refund it names, as messages say it. */
export type FollowUpAction = 'capture' | 'void' | 'increment' | 'extension'

/**
 * A purchase or refund was sent and gw could not learn what became of it (design.md §5). The
 * renderer words what to run to check it, and "do not resend".
 */
export class OutcomeUnknownError extends GwError {
  readonly noun: MoneyInFlight['noun']
  readonly reference: string

  constructor(message: string, inFlight: MoneyInFlight, details: GwErrorDetails = {}) {
    super('outcome_unknown', 8, message, details)
    this.noun = inFlight.noun
    this.reference = inFlight.reference
  }
}

/**
 * The gateway kept asking gw to wait (429, or 503 with Retry-After) past gw's bound (api/retry.ts):
 * not processed, nothing made; exit 9 (design.md §4). `retryAfterMs`: the last wait it asked;
 * `notMade`: the purchase or refund the request would have made. The renderer words what to run.
 */
export class RateLimitedError extends GwError {
  readonly retryAfterMs?: number
  readonly notMade?: MoneyInFlight

  constructor(message: string, limit: {retryAfterMs?: number; notMade?: MoneyInFlight}, details: GwErrorDetails = {}) {
    super('rate_limited', 9, message, details)
    this.retryAfterMs = limit.retryAfterMs
    this.notMade = limit.notMade
  }
}

const SIGNAL_NUMBERS = {SIGHUP: 1, SIGINT: 2, SIGTERM: 15} as const
export type StopSignal = keyof typeof SIGNAL_NUMBERS
export const STOP_SIGNALS = Object.keys(SIGNAL_NUMBERS) as StopSignal[]

/**
 * Stopped by a signal (Ctrl-C is SIGINT): exit 128 + the signal's number, 130 for Ctrl-C. When a
 * purchase or refund was in flight, the renderer says how to check it before sending it again.
 */
export class InterruptedError extends GwError {
  readonly signal: StopSignal
  readonly inFlight?: MoneyInFlight

  constructor(signal: StopSignal = 'SIGINT', inFlight?: MoneyInFlight, details: GwErrorDetails = {}) {
    super('interrupted', 128 + SIGNAL_NUMBERS[signal], 'Interrupted.', details)
    this.signal = signal
    this.inFlight = inFlight
  }
}

/**
 * A file or stream gw must write and could not (a full disk, an I/O error, stdout's reader gone):
 * exit 1, or 141 when stdout's reader went away (design.md §4).
 */
export class WriteError extends GwError {
  constructor(
    message: string,
    override readonly cause: unknown,
    details: GwErrorDetails & {exitCode?: number} = {},
  ) {
    super('io', details.exitCode ?? 1, message, details)
  }
}

/**
 * A run of many (a batch's rows, a seed's steps) stopped because stdout could not be written:
 * exit 141 when its reader went away, 1 otherwise, saying what was not started and how to finish.
 */
export function stoppedByStdout(broken: NodeJS.ErrnoException | undefined, notStarted: string, hint: string): WriteError {
  const pipe = broken?.code === 'EPIPE'
  const why = pipe ? "stdout's reader went away" : `stdout could not be written (${broken?.code ?? broken?.message})`
  return new WriteError(`${why}: ${notStarted}`, broken, {exitCode: pipe ? 141 : 1, hint})
}

/** Gateway 5xx, unreachable host, or a body gw cannot read: exit 1. */
export class GatewayError extends GwError {
  constructor(kind: 'gateway' | 'network' | 'unreadable', message: string, details: GwErrorDetails = {}) {
    super(kind, 1, message, details)
  }
}

/**
 * A list asked for page after page did not page as it said it would: another page came than the
 * one asked for (`order`), pages added nothing new (`stuck`), or it never ended (`endless`): exit 1.
 * The renderer says what to do about each.
 */
export class PagingError extends GatewayError {
  constructor(
    message: string,
    readonly reason: 'order' | 'stuck' | 'endless' = 'order',
  ) {
    super('unreadable', message)
  }
}

/** Where a request stopped before it reached the gateway: nothing was sent. The renderer advises on the facts. */
export interface Unreached {
  baseUrl: string
  /** The proxy it went through (as shown, credentials hidden) and the variable that named it. */
  proxy?: {url: string; variable: string}
  /** The status the proxy refused to carry it with. */
  refusedWith?: number
  /** Whether TLS refused the gateway's (or the proxy's) certificate. */
  certificate: boolean
}

/** The gateway (or the proxy in front of it) could not be reached: nothing was sent, exit 1. */
export class UnreachableError extends GatewayError {
  readonly unreached: Unreached

  constructor(message: string, unreached: Unreached, details: GwErrorDetails = {}) {
    super('network', message, details)
    this.unreached = unreached
  }
}

/**
 * A purchase or refund gw stopped before sending it: `cause` says why (its look-up before sending
 * failed, or answered from the other environment). Nothing was sent, and nothing is in doubt.
 */
export class NotSentError extends Error {
  constructor(override readonly cause: GwError) {
    super(cause.message)
  }
}

/** A request other than money was sent and no answer came back: it may have reached the gateway, exit 1. */
export class NoAnswerError extends GatewayError {
  constructor(message: string, details: GwErrorDetails = {}) {
    super('network', message, details)
  }
}
