/**
 * JSON whose numbers print as they were written. JSON.parse keeps a number's value, not its text:
 * a float written `42.0` (as Ruby, and so the live gateway, writes a whole float) comes back out of
 * JSON.stringify as `42`, which a client telling floats from integers by their text reads as another
 * type. parseKeepingNumbers notes each number written otherwise than JSON.stringify would write its
 * value (`42.0`, `4.20e1`) beside the object or list holding it, in a symbol-keyed property that
 * JSON and Object.entries never see and a spread copies; stringifyAsWritten writes such a number as
 * it was written while its value is unchanged. Needs JSON.parse's source text (Node.js 21 and
 * later): without it, numbers are read and written as JSON.parse and JSON.stringify do.
 */

const WRITTEN = Symbol('numbers as written')

type Holder = {[WRITTEN]?: Record<string, string>}

interface SourceContext {
  source?: string
}

const rawJSON = (JSON as unknown as {rawJSON?: (text: string) => unknown}).rawJSON

/**
 * A value that looks like a float JSON.stringify would write otherwise (a fraction ending in 0, an
 * exponent): only such a text is parsed with a reviver, which takes about ten times as long.
 */
const MAY_HOLD_FLOAT = /[:,[]\s*-?\d+(?:\.\d*0|(?:\.\d+)?[eE][+-]?\d+)\s*[,}\]]/

/** Whether any number has been noted: until one is, stringifying needs no replacer. */
let noted = false

/** JSON.parse, noting each float written otherwise than JSON.stringify writes its value (`42.0`). */
export function parseKeepingNumbers(text: string): unknown {
  if (rawJSON === undefined || !MAY_HOLD_FLOAT.test(text)) return JSON.parse(text)
  return JSON.parse(text, noteWritten)
}

function noteWritten(this: Holder, key: string, value: unknown, context?: SourceContext): unknown {
  const source = context?.source
  // A float alone (a fraction or an exponent): a long integer's digits are never written back, in case they are a card number's.
  if (typeof value === 'number' && source !== undefined && /[.eE]/.test(source) && source !== String(value)) {
    ;(this[WRITTEN] ??= {})[key] = source
    noted = true
  }
  return value
}

/** Keeps on `to` what `from` noted of its numbers: a copy of a record made field by field (redact, --fields) prints them as written too. */
export function keepNumbersWritten<T extends object>(from: object, to: T): T {
  const written = (from as Holder)[WRITTEN]
  if (written) (to as Holder)[WRITTEN] = written
  return to
}

/** JSON.stringify, each noted number written as it was while its value is the one read. */
export function stringifyAsWritten(value: unknown, indent?: number): string {
  return noted ? JSON.stringify(value, asWritten, indent) : JSON.stringify(value, null, indent)
}

function asWritten(this: Holder, key: string, value: unknown): unknown {
  if (typeof value !== 'number') return value
  const source = this[WRITTEN]?.[key]
  return source !== undefined && Number(source) === value ? rawJSON!(source) : value
}
