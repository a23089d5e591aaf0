import {createReadStream} from 'node:fs'
import {open} from 'node:fs/promises'
import {createInterface} from 'node:readline'
import type {Options} from 'csv-parse'
import {holdsReplacement, NOT_UTF8} from '../lib/utf8.js'

/** One line of a batch file as read: its fields by column name, or what stops it being read. */
export type BatchEntry = {line: number; values: Record<string, unknown>} | {line: number; problem: string}

/** A batch file opened for reading a row at a time, so that no size of file is held in memory. */
export interface BatchFile {
  format: 'csv' | 'ndjson'
  /** CSV: the header's column names, lower case, as given (a repeated one stays repeated, for the checks to refuse). */
  header: string[]
  entries: AsyncIterable<BatchEntry>
}

/**
 * Reads a batch file: NDJSON when its first non-blank character is `{`, otherwise CSV with a
 * header row (RFC 4180 quoting, by csv-parse). Blank lines are skipped; line numbers count them.
 * A CSV row must have as many fields as the header: one short is an error of that line, never a
 * field quietly left blank (an explicitly empty field, `a,b,`, is a field).
 */
export async function openBatch(path: string): Promise<BatchFile> {
  return (await firstCharacter(path)) === '{' ? {format: 'ndjson', header: [], entries: ndjsonEntries(path)} : csvFile(path)
}

async function firstCharacter(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(4096)
    for (let position = 0; ; ) {
      const {bytesRead} = await handle.read(buffer, 0, buffer.length, position)
      if (bytesRead === 0) return undefined
      const text = buffer.toString('utf8', 0, bytesRead).replace(/^\uFEFF/, '')
      const found = /\S/.exec(text)
      if (found) return found[0]
      position += bytesRead
    }
  } finally {
    await handle.close()
  }
}

async function* ndjsonEntries(path: string): AsyncGenerator<BatchEntry> {
  const lines = createInterface({input: createReadStream(path, {encoding: 'utf8'}), crlfDelay: Infinity})
  let line = 0
  for await (const raw of lines) {
    line++
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw
    if (text.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      value = undefined
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) yield {line, problem: 'is not a JSON object (NDJSON: one object a line)'}
    else yield checkedText(line, value as Record<string, unknown>)
  }
}

/**
 * Bytes read at a time. csv-parse turns a whole chunk into records at once, and a record still
 * waiting when the young generation is collected outlives it: small chunks keep a million-row file
 * from piling up in the old generation (measured: 64 KiB chunks peaked at 370 MiB, these at less).
 */
const READ_CHUNK = 8 * 1024

async function csvFile(path: string): Promise<BatchFile> {
  const {parse} = await import('csv-parse')
  // Each record comes as its fields and the line it ends on: csv-parse's own info object per record
  // (a dozen fields, and the raw text) was most of the garbage of a million-row file.
  const options: Options<[string[], number], string[]> = {bom: true, skip_empty_lines: true, relax_column_count: true, record_delimiter: ['\r\n', '\n'], on_record: (record, context): [string[], number] => [record, context.lines]}
  const parser = parse(options as unknown as Options)
  const records = createReadStream(path, {highWaterMark: READ_CHUNK}).pipe(parser)[Symbol.asyncIterator]() as AsyncIterator<[string[], number]>
  let header: string[] = []
  const problems: BatchEntry[] = []
  // The header is the first line with anything in it.
  for (;;) {
    const next = await nextRecord(records)
    if ('problem' in next) {
      problems.push(next)
      break
    }
    if (next.done) break
    if (next.record.some((field) => field.trim() !== '')) {
      // Headers as spreadsheets write them: `Transaction_ID ` is the transaction_id column.
      header = next.record.map((name) => name.trim().toLowerCase())
      break
    }
  }
  async function* entries(): AsyncGenerator<BatchEntry> {
    yield* problems
    if (problems.length > 0) return
    for (;;) {
      const next = await nextRecord(records)
      if ('problem' in next) return yield next
      if (next.done) return
      const {record, line} = next
      if (record.every((field) => field.trim() === '')) continue
      if (record.length !== header.length) yield {line, problem: `has ${record.length} field${record.length === 1 ? '' : 's'}, the header ${header.length}`}
      else yield checkedText(line, Object.fromEntries(header.map((name, i) => [name, record[i]] as const)))
    }
  }
  return {format: 'csv', header, entries: entries()}
}

/**
 * A line's fields, or the problem of those holding U+FFFD: bytes that were not UTF-8, read so
 * (lib/utf8.ts). Sent, the gateway would keep another text than the file's.
 */
function checkedText(line: number, values: Record<string, unknown>): BatchEntry {
  const bad = Object.keys(values).filter((name) => typeof values[name] === 'string' && holdsReplacement(values[name]))
  return bad.length === 0 ? {line, values} : {line, problem: `${bad.join(', ')} ${NOT_UTF8}: save the file as UTF-8`}
}

/** The next record and the line it starts on; a file csv-parse cannot read ends with a problem of the line it reached. */
async function nextRecord(records: AsyncIterator<[string[], number]>): Promise<{done: true} | {done: false; record: string[]; line: number} | {line: number; problem: string}> {
  try {
    const next = await records.next()
    if (next.done) return {done: true}
    const [record, endLine] = next.value
    // The record ends on `endLine`; it starts as many lines earlier as its quoted fields hold line breaks.
    let within = 0
    for (const field of record) for (let at = field.indexOf('\n'); at !== -1; at = field.indexOf('\n', at + 1)) within++
    return {done: false, record, line: endLine - within}
  } catch (err) {
    const {lines, message} = err as {lines?: number; message: string}
    return {line: lines ?? 1, problem: `cannot be read as CSV: ${shortValue(message.replace(/ at line \d+$/, '').replace(/:? on line \d+$/, ''))}`}
  }
}

/** The field csv-parse quotes whole in its message (`value is "..."`), cut to its first 40 characters: a binary file's is pages long. */
function shortValue(message: string): string {
  return message.replace(/(, value is )(".*")$/s, (whole, said: string, quoted: string) => {
    let value: string
    try {
      value = JSON.parse(quoted) as string
    } catch {
      return whole
    }
    return value.length > 40 ? `${said}${JSON.stringify(value.slice(0, 40))}...` : whole
  })
}
