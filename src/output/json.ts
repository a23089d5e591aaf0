import type {GwError} from '../errors.js'

/**
 * JSON.stringify escapes C0 but leaves DEL and C1 raw, which some terminals obey (U+009B is a
 * CSI): written as \u escapes they are the same JSON value, and harmless on a terminal.
 */
function stringify(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007F-\u009F]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** A record exactly as the gateway sent it, as one JSON document. */
export function toJson(value: unknown): string {
  return stringify(value, 2) + '\n'
}

/** One record per line, for several ids and for pipes. */
export function toNdjsonLine(value: unknown): string {
  return stringify(value) + '\n'
}

/** The error object of design.md §3, written to stderr with --json. */
export function errorJson(error: GwError, subject?: string, hint = error.hint): string {
  return (
    stringify({
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
