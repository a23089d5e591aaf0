import type {GwError} from '../errors.js'
import {paint, type Style} from './colors.js'
import {stringifyAsWritten} from '../lib/json-as-written.js'

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
  // A gateway's float (`42.0`) printed as it wrote it (lib/json-as-written.ts).
  const json = stringifyAsWritten(value, indent)
  return LEFT_BY_STRINGIFY.test(json) ? escapeControls(json) : json
}

/** A record exactly as the gateway sent it, as one JSON document: pretty, and coloured with `color` (a terminal's). */
export function toJson(value: unknown, color = false): string {
  return (color ? prettyJson(stringify(value), true) : stringify(value, 2)) + '\n'
}

/** How a terminal shows each kind of JSON token, as jq and gh do: keys apart from strings, numbers, true, false and null. */
const TOKEN_STYLE: Record<'key' | 'string' | 'number' | 'literal' | 'null', Style> = {key: 'blue', string: 'green', number: 'cyan', literal: 'yellow', null: 'dim'}

// A string with its escapes, or a number, true, false or null: each token of valid JSON but its punctuation.
const TOKEN = /"(?:[^"\\]|\\.)*"|[^\s,:[\]{}"]+/y

/**
 * Valid JSON text indented by two spaces as JSON.stringify(value, null, 2) lays it out, each token
 * as written (a gateway's `42.0` stays `42.0`, a string's escapes as sent), coloured when `color`.
 */
export function prettyJson(text: string, color: boolean): string {
  let out = ''
  let depth = 0
  const newline = () => '\n' + '  '.repeat(depth)
  for (let at = 0; at < text.length; ) {
    const char = text[at]!
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') at++
    else if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']'
      const next = text.slice(at + 1).search(/\S/)
      if (text[at + 1 + next] === close) {
        out += char + close
        at += next + 2
      } else {
        depth++
        out += char + newline()
        at++
      }
    } else if (char === '}' || char === ']') {
      depth--
      out += newline() + char
      at++
    } else if (char === ',') {
      out += ',' + newline()
      at++
    } else if (char === ':') {
      out += ': '
      at++
    } else {
      TOKEN.lastIndex = at
      const token = TOKEN.exec(text)![0]
      at += token.length
      out += color ? paint(true, TOKEN_STYLE[kindOf(token, text, at)], token) : token
    }
  }
  return out
}

function kindOf(token: string, text: string, after: number): keyof typeof TOKEN_STYLE {
  if (token.startsWith('"')) return text.slice(after).trimStart().startsWith(':') ? 'key' : 'string'
  if (token === 'null') return 'null'
  return token === 'true' || token === 'false' ? 'literal' : 'number'
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
