/**
 * Every failure gw reports is a GwError: its kind and exit code are the design.md §3/§4 contract,
 * and the command base class is the one place that turns them into output and an exit status.
 */
export type ErrorKind =
  | 'usage'
  | 'declined'
  | 'auth'
  | 'not_found'
  | 'permission'
  | 'rejected'
  | 'outcome_unknown'
  | 'interrupted'
  | 'gateway'
  | 'network'
  | 'unreadable'
  | 'unexpected'

export interface GwErrorDetails {
  status?: number
  messages?: string[]
  requestId?: string
  hint?: string
  /** The gateway's record, printed on stdout as a result even though the command failed (a decline). */
  record?: Record<string, unknown>
}

export class GwError extends Error {
  readonly kind: ErrorKind
  readonly exitCode: number
  readonly status?: number
  readonly messages: string[]
  readonly requestId?: string
  readonly hint?: string
  readonly record?: Record<string, unknown>

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

export class RejectedError extends GwError {
  constructor(message: string, details: GwErrorDetails = {}) {
    super('rejected', 7, message, details)
  }
}

export class OutcomeUnknownError extends GwError {
  constructor(message: string, details: GwErrorDetails = {}) {
    super('outcome_unknown', 8, message, details)
  }
}

export class InterruptedError extends GwError {
  constructor() {
    super('interrupted', 130, 'interrupted')
  }
}

/** Gateway 5xx, unreachable host, or a body gw cannot read: exit 1. */
export class GatewayError extends GwError {
  constructor(kind: 'gateway' | 'network' | 'unreadable', message: string, details: GwErrorDetails = {}) {
    super(kind, 1, message, details)
  }
}
