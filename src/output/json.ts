import type {GwError} from '../errors.js'

// C0 controls but tab and newline, DEL and the C1 controls: what a terminal would act on.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g

/**
 * JSON text with its control characters written as \u escapes: inside a JSON string the same
 * value, and harmless on a terminal. JSON.stringify escapes C0 but leaves DEL and C1 raw, which
 * some terminals obey (U+009B is a CSI); a body gw only passes on (gw api) may hold any of them.
 */
export function escapeControls(json: string): string {
  return json.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

// JSON.stringify escapes C0 itself: only DEL and C1 can be left, and a test is cheaper than a replace.
const LEFT_BY_STRINGIFY = /[\u007F-\u009F]/

function stringify(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent)
  return LEFT_BY_STRINGIFY.test(json) ? escapeControls(json) : json
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
