import {BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE} from './json-codes.js'
import {DATE_FIELDS} from './list-order.js'
import {KEY_FIELDS} from './recent-keys.js'

// What a list walk reads of a record (its id, its date) read from the record's text without
// parsing it: a record printed as the gateway sent it is never made into an object (lazy-record.ts).

/** The top-level fields a walk reads of every record: what tells it from another (recent-keys.ts) and its date (list-order.ts). */
export const FACT_FIELDS: ReadonlySet<string> = new Set<string>([...KEY_FIELDS, ...DATE_FIELDS])

/** The FACT_FIELDS a record holds at its top level, each a string; a field it does not hold is absent. */
export type RecordFacts = Record<string, string>

/** The fact fields by their length (at most 31): a key is compared with those of its length in place, neither sliced out nor hashed. */
const FACTS_BY_LENGTH: (string[] | undefined)[] = Array.from({length: 32}, (_, length) => {
  const fields = [...FACT_FIELDS].filter((field) => field.length === length)
  return fields.length > 0 ? fields : undefined
})

const SPACE = 32
const MINUS = 45
const ZERO = 48
const NINE = 57
const DOT = 46

// eslint-disable-next-line no-control-regex -- a raw control character (a tab or line break too): the text is left to JSON.parse.
const CONTROL = /[\u0000-\u001f]/g

/** Containers deeper than this are left to JSON.parse (each level is a bit of a number). */
const MOST_DEPTH = 30

// What comes next: a value, a value or the list's end, a key, a key or the record's end, or what follows a value (a comma or an end).
const VALUE = 0
const VALUE_OR_CLOSE = 1
const KEY = 2
const KEY_OR_CLOSE = 3
const AFTER = 4

/** A record read plainly: where its text ends (past its closing brace) and its facts. */
export interface PlainRecord {
  end: number
  facts: RecordFacts
}

/**
 * Reads records out of one text (a list's answer as far as it has come: list-splitter.ts), each
 * where it starts, in order. A record is read plainly (read) where it is a JSON object, exactly as
 * JSON.parse reads JSON (its text is printed as it came only where this says it is JSON), and
 * each FACT_FIELDS field at its top level is a string written without escapes, there once. Any
 * other record, valid or not, is left to JSON.parse (which decides, and throws where it is not
 * JSON): a raw control character in it (a line break or tab between tokens too), a top-level key
 * spelt with escapes, a fact field twice or not such a string, containers more than MOST_DEPTH deep.
 */
export class RecordReader {
  // Where the next backslash and raw control character are, at or past the record being read
  // (the text's length: none), each looked for once across the text: a string that ends before
  // the next backslash holds no escape, and one that ends before the next control holds none.
  private backslash = -1
  private control = -1

  constructor(private readonly text: string) {}

  /** The record starting at `start` (an opening brace), read plainly; 'more' where it goes on past the text's end so far; undefined where it is not read plainly. */
  read(start: number): PlainRecord | 'more' | undefined {
    const text = this.text
    if (text.charCodeAt(start) !== OPEN_BRACE) return undefined
    if (this.backslash < start) this.backslash = indexOrEnd(text, text.indexOf('\\', start))
    if (this.control < start) {
      CONTROL.lastIndex = start
      this.control = indexOrEnd(text, CONTROL.exec(text)?.index ?? -1)
    }
    const facts: RecordFacts = {}
    // A bit a container, 1 an object, the innermost lowest.
    let objects = 1
    let depth = 1
    let expect = KEY_OR_CLOSE
    // The fact field whose value comes next, at the top level.
    let fact: string | undefined
    let at = start + 1
    while (at < text.length) {
      const code = text.charCodeAt(at)
      if (code === SPACE) {
        at++
        continue
      }
      if (expect === AFTER) {
        const inObject = (objects & 1) === 1
        if (code === COMMA) expect = inObject ? KEY : VALUE
        else if (code === (inObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
          objects >>>= 1
          depth -= 1
          if (depth === 0) return {end: at + 1, facts}
        } else return undefined
        at++
        continue
      }
      if ((expect === KEY_OR_CLOSE && code === CLOSE_BRACE) || (expect === VALUE_OR_CLOSE && code === CLOSE_BRACKET)) {
        expect = AFTER
        continue
      }
      if (expect === KEY || expect === KEY_OR_CLOSE) {
        if (code !== QUOTE) return undefined
        const end = this.stringEnd(at, depth === 1)
        if (end <= 0) return end < 0 ? 'more' : undefined
        const candidates = depth === 1 ? FACTS_BY_LENGTH[end - at - 2] : undefined
        if (candidates) {
          for (const field of candidates) {
            if (!text.startsWith(field, at + 1)) continue
            if (field in facts) return undefined
            fact = field
          }
        }
        at = skipSpaces(text, end)
        if (at >= text.length) return 'more'
        if (text.charCodeAt(at) !== COLON) return undefined
        at++
        expect = VALUE
        continue
      }
      // A value.
      if (code === QUOTE) {
        const end = this.stringEnd(at, fact !== undefined)
        if (end <= 0) return end < 0 ? 'more' : undefined
        if (fact !== undefined) facts[fact] = text.slice(at + 1, end - 1)
        at = end
      } else if (fact !== undefined) return undefined
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (++depth > MOST_DEPTH) return undefined
        objects = (objects << 1) | (code === OPEN_BRACE ? 1 : 0)
        expect = code === OPEN_BRACE ? KEY_OR_CLOSE : VALUE_OR_CLOSE
        at++
        continue
      } else {
        const end = code === MINUS || isDigit(code) ? numberEnd(text, at) : literalEnd(text, at)
        // A number or literal at the end of the text so far may go on.
        if (end < 0) return text.length - at < 6 ? 'more' : undefined
        if (end >= text.length) return 'more'
        at = end
      }
      fact = undefined
      expect = AFTER
    }
    return 'more'
  }

  /**
   * Where the string opening at `at` ends (past its closing quote): -1 where it goes on past the
   * text so far, 0 where it holds a raw control character, or an escape that is not JSON's or
   * (`plain`) any escape.
   */
  private stringEnd(at: number, plain: boolean): number {
    const text = this.text
    const quote = text.indexOf('"', at + 1)
    if (quote < 0) return -1
    if (this.control < quote) return 0
    if (this.backslash > quote) return quote + 1
    if (plain) return 0
    const end = escapedStringEnd(text, at)
    if (end > 0) this.backslash = indexOrEnd(text, text.indexOf('\\', end))
    return end
  }
}

const indexOrEnd = (text: string, index: number) => (index < 0 ? text.length : index)

/**
 * A record's FACT_FIELDS read from its text alone (RecordReader, spaces around it allowed);
 * undefined where it is not read plainly, or is cut short.
 */
export function readFacts(text: string): RecordFacts | undefined {
  const start = skipSpaces(text, 0)
  const read = new RecordReader(text).read(start)
  return typeof read === 'object' && skipSpaces(text, read.end) === text.length ? read.facts : undefined
}

function skipSpaces(text: string, at: number): number {
  while (text.charCodeAt(at) === SPACE) at++
  return at
}

const isDigit = (code: number) => code >= ZERO && code <= NINE

/** Where a JSON number starting at `at` ends; -1 where it is not one (a leading zero before a digit is caught after: a digit cannot follow a value). */
function numberEnd(text: string, at: number): number {
  if (text.charCodeAt(at) === MINUS) at++
  const first = text.charCodeAt(at)
  if (!isDigit(first)) return -1
  at++
  if (first !== ZERO) while (isDigit(text.charCodeAt(at))) at++
  if (text.charCodeAt(at) === DOT) {
    if (!isDigit(text.charCodeAt(++at))) return -1
    while (isDigit(text.charCodeAt(at))) at++
  }
  const e = text.charCodeAt(at)
  if (e === 101 || e === 69) {
    const sign = text.charCodeAt(++at)
    if (sign === 43 || sign === MINUS) at++
    if (!isDigit(text.charCodeAt(at))) return -1
    while (isDigit(text.charCodeAt(at))) at++
  }
  return at
}

function literalEnd(text: string, at: number): number {
  const code = text.charCodeAt(at)
  const literal = code === 116 ? 'true' : code === 102 ? 'false' : code === 110 ? 'null' : undefined
  return literal !== undefined && text.startsWith(literal, at) ? at + literal.length : -1
}

/** Where a string with escapes, opening at `at`, ends (past its closing quote); -1 where it goes on past the text, 0 where an escape is not JSON's. */
function escapedStringEnd(text: string, at: number): number {
  for (let index = at + 1; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === QUOTE) return index + 1
    if (code !== BACKSLASH) continue
    const escaped = text.charCodeAt(++index)
    if (index + (escaped === 117 ? 4 : 0) >= text.length) return -1
    if (escaped === 117) {
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 1, index + 5))) return 0
      index += 4
    } else if (!ESCAPES.has(escaped)) return 0
  }
  return -1
}

/** The characters a backslash may stand before in JSON but u: " \ / b f n r t. */
const ESCAPES = new Set([34, 92, 47, 98, 102, 110, 114, 116])
