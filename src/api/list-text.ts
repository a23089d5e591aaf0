import {StringDecoder} from 'node:string_decoder'
import {GatewayError, type GwError} from '../errors.js'
import {recordFromText} from './lazy-record.js'
import {ListSplitter, type RecordText, splitListAnswer} from './list-splitter.js'
import {envelopeOf, errorFromResponse, type ParsedBody, parseBody} from './responses.js'
import type {GwRecord} from './schemas/record.js'

// A list's answer read record by record: each record's own text kept beside it, for a list printed
// as the gateway sent it where nothing in a record changes (output/render.ts, safety/prints-as-sent.ts),
// and a record made into an object only when more than its id and date is read (lazy-record.ts).

export {sentAs, whole} from './lazy-record.js'

/**
 * A list's body as JSON, each record of its `response` read from its own text (which is kept,
 * sentAs; lazy-record.ts) and the envelope around them on its own. A body the splitter cannot take apart (not an
 * envelope, `response` not a list, anything it does not read whole) is parsed as one value:
 * what it means, or why it is not JSON, is parseBody's to say.
 */
export function parseListBody(text: string): ParsedBody {
  const split = splitListAnswer(text)
  if (!split) return parseBody(text)
  try {
    const envelope = JSON.parse(split.envelope) as Record<string, unknown>
    envelope.response = split.records.map(recordFromText)
    return {ok: true, value: envelope}
  } catch {
    return parseBody(text)
  }
}

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
  const texts: RecordText[] = []
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
    envelope.response = texts.map(recordFromText)
    return {text, json: {ok: true, value: envelope}}
  } catch {
    return {text, json: parseBody(text)}
  }
}

/** The envelope so far holding the records read so far, where it says the answer succeeded and every record parses: a list to hand back before its end. */
function startOf(splitter: ListSplitter, texts: RecordText[]): {envelope: GwRecord; count: number} | undefined {
  try {
    const envelope = JSON.parse(splitter.envelopeSoFar() ?? 'null') as GwRecord | null
    if (envelope?.successful !== true) return undefined
    const records = texts.map(recordFromText)
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
  const records = (texts: RecordText[]) => {
    const parsed = texts.map((text) => {
      try {
        return recordFromText(text)
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

