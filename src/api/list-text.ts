import {type ParsedBody, parseBody} from './responses.js'

// A list's answer read record by record: each record's own text kept beside it, for a list printed
// as the gateway sent it where nothing in a record changes (output/render.ts, safety/redact.ts printsAsSent).

/** Each record's text as the gateway sent it, for the records read out of a list's answer here. */
const sentTexts = new WeakMap<object, string>()

/** The text the gateway sent `record` as, where it was read out of a list's answer; undefined for any other. */
export function sentAs(record: object): string | undefined {
  return sentTexts.get(record)
}

/**
 * A list's body as JSON, each record of its `response` parsed from its own text (which is kept,
 * sentAs) and the envelope around them on its own. A body the splitter cannot take apart (not an
 * envelope, `response` not a list, anything it does not read whole) is parsed as one value:
 * what it means, or why it is not JSON, is parseBody's to say.
 */
export function parseListBody(text: string): ParsedBody {
  const split = splitListAnswer(text)
  if (!split) return parseBody(text)
  try {
    const envelope = JSON.parse(split.envelope) as Record<string, unknown>
    const records = split.records.map((recordText) => {
      const record: unknown = JSON.parse(recordText)
      if (typeof record === 'object' && record !== null) sentTexts.set(record, recordText)
      return record
    })
    envelope.response = records
    return {ok: true, value: envelope}
  } catch {
    return parseBody(text)
  }
}

/** A list's answer taken apart: the text of each record of `response`, in order, and the envelope's with `response` an empty list. */
export interface SplitAnswer {
  records: string[]
  envelope: string
}

const QUOTE = 34
const BACKSLASH = 92
const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const COMMA = 44
const COLON = 58

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9

/**
 * The gateway's envelope (`{"successful":..,"response":[...],...}`) taken apart without parsing
 * it: where each record of the one `response` list starts and ends. Strings are skipped whole,
 * escaped quotes and backslashes in them too, so a `]` or `}` inside one ends nothing. Only the
 * envelope's own punctuation is checked here; what lies between is each part's to parse
 * (JSON.parse of each record and of the envelope). Undefined for a body of any other shape: not
 * an object, `response` missing, repeated or not a list, or anything after the envelope.
 */
export function splitListAnswer(text: string): SplitAnswer | undefined {
  const end = text.length
  let at = skipSpace(text, 0)
  if (text.charCodeAt(at) !== OPEN_BRACE) return undefined
  at = skipSpace(text, at + 1)
  let list: {start: number; end: number; records: string[]} | undefined
  if (text.charCodeAt(at) === CLOSE_BRACE) return undefined
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return undefined
    const keyEnd = stringEnd(text, at)
    if (keyEnd < 0) return undefined
    const key = text.slice(at + 1, keyEnd - 1)
    at = skipSpace(text, keyEnd)
    if (text.charCodeAt(at) !== COLON) return undefined
    at = skipSpace(text, at + 1)
    if (key === 'response' || key.includes('\\')) {
      // A key spelt with escapes may be `response` too: such a body is parsed whole.
      if (list || key !== 'response' || text.charCodeAt(at) !== OPEN_BRACKET) return undefined
      const records: string[] = []
      const start = at
      at = skipSpace(text, at + 1)
      if (text.charCodeAt(at) !== CLOSE_BRACKET) {
        for (;;) {
          const valueEnd = skipValue(text, at)
          if (valueEnd < 0) return undefined
          records.push(text.slice(at, valueEnd))
          at = skipSpace(text, valueEnd)
          const code = text.charCodeAt(at)
          if (code === CLOSE_BRACKET) break
          if (code !== COMMA) return undefined
          at = skipSpace(text, at + 1)
        }
      }
      at++
      list = {start, end: at, records}
    } else {
      at = skipValue(text, at)
      if (at < 0) return undefined
    }
    at = skipSpace(text, at)
    const code = text.charCodeAt(at)
    if (code === CLOSE_BRACE) break
    if (code !== COMMA) return undefined
    at = skipSpace(text, at + 1)
  }
  if (!list || skipSpace(text, at + 1) !== end) return undefined
  return {records: list.records, envelope: text.slice(0, list.start) + '[]' + text.slice(list.end)}
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++
  return at
}

/** Where the string opening at `at` ends (past its closing quote); -1 where it does not. */
function stringEnd(text: string, at: number): number {
  for (let from = at + 1; ; ) {
    const quote = text.indexOf('"', from)
    if (quote < 0) return -1
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return quote + 1
    from = quote + 1
  }
}

/**
 * Where the value starting at `at` ends: a string past its closing quote, an object or list past
 * the bracket that closes it (strings inside skipped whole), anything else (a number, true, null)
 * at the next space or punctuation. -1 where it does not end.
 */
function skipValue(text: string, at: number): number {
  const first = text.charCodeAt(at)
  if (first === QUOTE) return stringEnd(text, at)
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let stop = at
    for (; stop < text.length; stop++) {
      const code = text.charCodeAt(stop)
      if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) break
    }
    return stop > at ? stop : -1
  }
  let depth = 0
  for (let index = at; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === QUOTE) {
      const after = stringEnd(text, index)
      if (after < 0) return -1
      index = after - 1
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++
    else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) return index + 1
  }
  return -1
}
