import {BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE} from './json-codes.js'
import {RecordReader, type RecordFacts} from './record-facts.js'

// The gateway's list envelope taken apart as text, without parsing it: what list-text.ts reads a
// list's answer record by record with.

/** A record's text as the gateway sent it, and its facts where it reads plainly (record-facts.ts): it need not be parsed for them. */
export interface RecordText {
  text: string
  facts?: RecordFacts
}

/** A list's answer taken apart: each record of `response`, in order, and the envelope's text with `response` an empty list. */
export interface SplitAnswer {
  records: RecordText[]
  envelope: string
}

/**
 * The gateway's envelope (`{"successful":..,"response":[...],...}`) taken apart without parsing
 * it (ListSplitter), given whole. Undefined for a body of any other shape.
 */
export function splitListAnswer(text: string): SplitAnswer | undefined {
  const splitter = new ListSplitter()
  const records = splitter.push(text)
  const end = records && splitter.end()
  return end && {records: [...records, ...end.records], envelope: end.envelope}
}

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9

type SplitState = 'open' | 'first-member' | 'member' | 'after-member' | 'first-record' | 'record' | 'after-record' | 'closed'

/**
 * The gateway's envelope (`{"successful":..,"response":[...],...}`) taken apart as it arrives,
 * piece by piece, without parsing it: the text of each record of the one `response` list, handed
 * back as soon as it is whole, and the envelope around them. Strings are skipped whole, escaped
 * quotes and backslashes in them too, so a `]` or `}` inside one ends nothing. Only the
 * envelope's own punctuation is checked here; what lies between is each part's to parse
 * (JSON.parse of each record and of the envelope). A body of any other shape (not an object,
 * `response` missing, repeated, spelt with escapes or not a list, anything after the envelope)
 * is refused: push or end answers undefined.
 */
export class ListSplitter {
  /** What has come and is not taken apart yet: at most a record, or a member of the envelope, and the piece after it. */
  private text = ''
  /** The envelope's text so far, the records left out. */
  private envelope = ''
  private state: SplitState = 'open'
  private failed = false
  private listed = false

  /** The envelope as far as it has come, closed where it stands: its members before `response`, while the records come. */
  envelopeSoFar(): string | undefined {
    return this.state === 'record' || this.state === 'after-record' || this.state === 'first-record' ? this.envelope + ']}' : undefined
  }

  /** The next piece of the body: the records it completes; undefined once the body is not a list's envelope. */
  push(piece: string): RecordText[] | undefined {
    if (this.failed) return undefined
    this.text = this.text === '' ? piece : this.text + piece
    return this.take(false)
  }

  /** The body's end: the records completed at its end and the envelope's text; undefined where it is not a whole envelope. */
  end(): SplitAnswer | undefined {
    if (this.failed) return undefined
    const records = this.take(true)
    if (!records || !this.listed || this.state !== 'closed' || skipSpace(this.text, 0) !== this.text.length) return undefined
    return {records, envelope: this.envelope}
  }

  private take(final: boolean): RecordText[] | undefined {
    const text = this.text
    const records: RecordText[] = []
    // Each record read for its facts as it is found; one that does not read plainly is only found.
    const reader = new RecordReader(text)
    // A value that reaches the end of what has come may go on in the next piece (a number, a literal): wait for it.
    const whole = (end: number) => end >= 0 && (end < text.length || final)
    let at = 0
    for (;;) {
      at = skipSpace(text, at)
      if (at >= text.length) break
      const code = text.charCodeAt(at)
      if (this.state === 'open') {
        if (code !== OPEN_BRACE) return this.fail()
        this.envelope += '{'
        at++
        this.state = 'first-member'
      } else if (this.state === 'first-member' || this.state === 'member') {
        if (code !== QUOTE) return this.fail()
        const keyEnd = stringEnd(text, at)
        if (keyEnd < 0) break
        const colon = skipSpace(text, keyEnd)
        const valueAt = skipSpace(text, colon + 1)
        if (valueAt >= text.length) break
        if (text.charCodeAt(colon) !== COLON) return this.fail()
        const key = text.slice(at + 1, keyEnd - 1)
        // A key spelt with escapes may be `response` too: such a body is parsed whole.
        if (key === 'response' || key.includes('\\')) {
          if (this.listed || key !== 'response' || text.charCodeAt(valueAt) !== OPEN_BRACKET) return this.fail()
          this.envelope += text.slice(at, valueAt + 1)
          at = valueAt + 1
          this.state = 'first-record'
          this.listed = true
          continue
        }
        const valueEnd = skipValue(text, valueAt)
        if (!whole(valueEnd)) break
        this.envelope += text.slice(at, valueEnd)
        at = valueEnd
        this.state = 'after-member'
      } else if (this.state === 'after-member' || this.state === 'after-record') {
        const inList = this.state === 'after-record'
        if (code === COMMA) {
          if (!inList) this.envelope += ','
          this.state = inList ? 'record' : 'member'
        } else if (code === (inList ? CLOSE_BRACKET : CLOSE_BRACE)) {
          this.envelope += inList ? ']' : '}'
          this.state = inList ? 'after-member' : 'closed'
        } else return this.fail()
        at++
      } else if (this.state === 'first-record' && code === CLOSE_BRACKET) {
        this.envelope += ']'
        at++
        this.state = 'after-member'
      } else if (this.state === 'first-record' || this.state === 'record') {
        const read = reader.read(at)
        if (read === 'more' && !final) break
        if (typeof read === 'object') {
          records.push({text: text.slice(at, read.end), facts: read.facts})
          at = read.end
          this.state = 'after-record'
          continue
        }
        const valueEnd = skipValue(text, at)
        if (!whole(valueEnd)) break
        records.push({text: text.slice(at, valueEnd)})
        at = valueEnd
        this.state = 'after-record'
      } else return this.fail()
    }
    this.text = at >= text.length ? '' : text.slice(at)
    return records
  }

  private fail(): undefined {
    this.failed = true
    this.text = ''
    return undefined
  }
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
    else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && (depth -= 1) === 0) return index + 1
  }
  return -1
}
