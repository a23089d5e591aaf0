import type {GwError} from '../errors.js'

/** A record exactly as the gateway sent it, as one JSON document. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n'
}

/** One record per line, for several ids and for pipes. */
export function toNdjsonLine(value: unknown): string {
  return JSON.stringify(value) + '\n'
}

/** The error object of design.md §3, written to stderr with --json. */
export function errorJson(error: GwError, subject?: string, hint = error.hint): string {
  return (
    JSON.stringify({
      error: {
        kind: error.kind,
        ...(subject ? {id: subject} : {}),
        status: error.status ?? null,
        messages: error.messages,
        request_id: error.requestId ?? null,
        exit_code: error.exitCode,
        ...(hint ? {hint} : {}),
      },
    }) + '\n'
  )
}
