import {StringDecoder} from 'node:string_decoder'
import {GatewayError, type GwError} from '../errors.js'
import {envelopeOf, errorFromResponse, type ParsedBody, parseBody} from './responses.js'

// A list's answer read record by record: each record's own text kept beside it, for a list printed
// as the gateway sent it where nothing in a record changes (output/render.ts, safety/redact.ts printsAsSent).

/** Each record's text as the gateway sent it, for the records read out of a list's answer here. */
const sentTexts = new WeakMap<object, string>()

/**
 * The text the gateway sent `record` as, where it was read out of a list's answer; undefined for
 * any other. Records are handed on as parsed, never changed in place: a field added (gw_match,
 * gw_refunded) is added to a copy, which has no text of its own.
 */
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
    envelope.response = split.records.map(parseRecord)
    return {ok: true, value: envelope}
  } catch {
    return parseBody(text)
  }
}

type GwRecord = Record<string, unknown>

/** A list's body as read: its text (as far as it was read), its JSON, and the records still to come where it was handed back before its end. */
export interface ListBody {
  text: string
  json: ParsedBody
  more?: AsyncGenerator<GwRecord[]>
}

/**
 * A list's body read as it comes, record by record (ListSplitter). A gateway that sends more than
 * `head` records in one answer that says it succeeded (one that ignores `limit`: 100,000 records in
 * a page) has its answer handed back with the records read so far; the rest (`more`) are read
 * from the body only as they are asked for, a few hundred at a time, so the page is never held
 * whole, and stop being read (the body let go) when its reader stops. A failure past that point
 * (a record that is not one, the body cut short, an envelope that ends in errors) comes when it is
 * met, after the records before it. Any other body is read whole (its text kept, its records parsed
 * one by one where it is a list's envelope, else as parseBody reads it).
 */
export async function readListBody(body: AsyncIterable<Buffer>, {head, status, requestId}: {head: number; status: number; requestId?: string}): Promise<ListBody> {
  const chunks = body[Symbol.asyncIterator]()
  const decoder = new StringDecoder('utf8')
  const splitter = new ListSplitter()
  const pieces: string[] = []
  const texts: string[] = []
  let streams = true
  for (;;) {
    const next = await chunks.next()
    const piece = next.done ? decoder.end() : decoder.write(next.value)
    pieces.push(piece)
    const found = splitter.push(piece)
    if (found) for (const text of found) texts.push(text)
    if (next.done) break
    if (!streams || !found || texts.length <= head) continue
    const started = startOf(splitter, texts)
    if (!started) {
      streams = false
      continue
    }
    const failure = (why: string) => new GatewayError('unreadable', `The gateway's list answer could not be read past its first ${started.count} records: ${why}`, {status, requestId})
    return {text: pieces.join(''), json: {ok: true, value: started.envelope}, more: moreRecords(chunks, decoder, splitter, {failure, count: started.count, status, requestId})}
  }
  const text = pieces.join('')
  const end = splitter.end()
  if (!end) return {text, json: parseBody(text)}
  try {
    for (const record of end.records) texts.push(record)
    const envelope = JSON.parse(end.envelope) as GwRecord
    envelope.response = texts.map(parseRecord)
    return {text, json: {ok: true, value: envelope}}
  } catch {
    return {text, json: parseBody(text)}
  }
}

/** The envelope so far holding the records read so far, where it says the answer succeeded and every record parses: a list to hand back before its end. */
function startOf(splitter: ListSplitter, texts: string[]): {envelope: GwRecord; count: number} | undefined {
  try {
    const envelope = JSON.parse(splitter.envelopeSoFar() ?? 'null') as GwRecord | null
    if (envelope?.successful !== true) return undefined
    const records = texts.map(parseRecord)
    if (!records.every(isRecord)) return undefined
    envelope.response = records
    return {envelope, count: records.length}
  } catch {
    return undefined
  }
}

async function* moreRecords(
  chunks: AsyncIterator<Buffer>,
  decoder: StringDecoder,
  splitter: ListSplitter,
  {failure, count, status, requestId}: {failure: (why: string) => GwError; count: number; status: number; requestId?: string},
): AsyncGenerator<GwRecord[]> {
  const records = (texts: string[]) => {
    const parsed = texts.map((text) => {
      try {
        return parseRecord(text)
      } catch {
        return undefined
      }
    })
    const at = parsed.findIndex((record) => !isRecord(record))
    if (at >= 0) throw failure(`record ${count + at + 1} is not a record`)
    count += parsed.length
    return parsed as GwRecord[]
  }
  try {
    for (;;) {
      let next: IteratorResult<Buffer>
      try {
        next = await chunks.next()
      } catch (err) {
        throw new GatewayError('network', `The gateway's list answer was cut short after ${count} records: ${err instanceof Error ? err.message : String(err)}`, {status, requestId})
      }
      const found = splitter.push(next.done ? decoder.end() : decoder.write(next.value))
      if (!found) throw failure('it is not the gateway\'s list envelope')
      if (found.length > 0) yield records(found)
      if (next.done) break
    }
    const end = splitter.end()
    if (!end) throw failure('it ends before its envelope does')
    if (end.records.length > 0) yield records(end.records)
    let envelope
    try {
      envelope = envelopeOf(JSON.parse(end.envelope))
    } catch {
      envelope = undefined
    }
    if (!envelope) throw failure('its envelope is not JSON')
    const error = errorFromResponse({status, requestId, text: ''}, envelope)
    if (error) throw error
  } finally {
    await chunks.return?.()
  }
}

const isRecord = (value: unknown): value is GwRecord => typeof value === 'object' && value !== null && !Array.isArray(value)

function parseRecord(text: string): unknown {
  const record: unknown = JSON.parse(text)
  if (typeof record === 'object' && record !== null) sentTexts.set(record, text)
  return record
}

/** A list's answer taken apart: the text of each record of `response`, in order, and the envelope's with `response` an empty list. */
export interface SplitAnswer {
  records: string[]
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

const QUOTE = 34
const BACKSLASH = 92
const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const COMMA = 44
const COLON = 58

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

  /** The next piece of the body: the texts of the records it completes; undefined once the body is not a list's envelope. */
  push(piece: string): string[] | undefined {
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

  private take(final: boolean): string[] | undefined {
    const text = this.text
    const records: string[] = []
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
        const valueEnd = skipValue(text, at)
        if (!whole(valueEnd)) break
        records.push(text.slice(at, valueEnd))
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
    else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) return index + 1
  }
  return -1
}
