import {UsageError} from '../errors.js'
import type {Io} from '../output/io.js'
import {whyUnreadable} from '../lib/file-error-words.js'
import {decodeUtf8} from '../lib/utf8.js'

/**
 * Ids from argv, or one a line from stdin for `-`, or from a file with --input (one a line, the
 * id or reference column of a CSV, or the field of NDJSON lines); blank lines and surrounding
 * spaces are ignored.
 */
export async function readIds(argv: string[], io: Io, noun = 'id or reference', input?: string): Promise<{ids: string[]; batch: boolean}> {
  if (input !== undefined) {
    if (argv.length > 0) throw new UsageError(`give the ids as arguments or with --input, not both`)
    const {text, source} = await readInput(input, io, stdinIsATerminal(noun, '--input -'))
    const ids = await idsInFile(text, source)
    if (ids.length === 0) throw new UsageError(`${source} held no ${noun}`)
    return {ids, batch: true}
  }
  if (argv.length === 1 && argv[0] === '-') {
    const ids = lines(await stdin(io, stdinIsATerminal(noun, '-')))
    if (ids.length === 0) throw new UsageError(`stdin held no ${noun}`)
    return {ids, batch: true}
  }
  const ids = argv.map((id) => id.trim())
  if (ids.length === 0) throw new UsageError(`give at least one ${noun}, or - to read them from stdin, or --input FILE`)
  if (ids.some((id) => id === '')) throw new UsageError(`an ${noun} is blank`)
  if (ids.includes('-')) throw new UsageError('- must be the only argument')
  return {ids, batch: ids.length > 1}
}

/** `--input FILE`, or `-` for stdin (refused with `whenATerminal` when stdin is one): the text, and what to call it in messages. */
export async function readInput(input: string, io: Io, whenATerminal: UsageError): Promise<{text: string; source: string}> {
  if (input === '-') return {text: await stdin(io, whenATerminal), source: 'stdin'}
  let bytes: Buffer
  try {
    // fs/promises loaded here, for --input only: every get passes through this module.
    const {readFile} = await import('node:fs/promises')
    bytes = await readFile(input)
  } catch (err) {
    const why = whyUnreadable(err)
    throw new UsageError(`--input ${input} cannot be read: ${why}`, 'Give a CSV file with a header row, an NDJSON file, or - for stdin.')
  }
  const decoded = decodeUtf8(bytes)
  if ('line' in decoded) throw new UsageError(`--input ${input} line ${decoded.line} holds bytes that are not UTF-8, and nothing was sent`, 'Save the file as UTF-8 and run it again.')
  return {text: decoded.text, source: input}
}

const stdinIsATerminal = (noun: string, how: string) =>
  new UsageError(`${how} reads one ${noun} a line from stdin, but stdin is a terminal`, 'Pipe them in, e.g. cut -f1 ids.txt | gw purchase get -')

async function stdin(io: Io, whenATerminal: UsageError): Promise<string> {
  if (io.isStdinTTY) throw whenATerminal
  return io.readStdin()
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean)
}

const ID_COLUMNS = ['id', 'reference']

/**
 * A file of ids: NDJSON objects (their `id`, else `reference`: a batch's own output works), a CSV
 * whose header has an id or reference column, or one id a line.
 */
async function idsInFile(text: string, source: string): Promise<string[]> {
  const body = text.replace(/^\uFEFF/, '')
  const first = lines(body)[0] ?? ''
  if (first.startsWith('{')) {
    return lines(body).map((line, index) => {
      const value = (() => {
        try {
          return JSON.parse(line) as Record<string, unknown>
        } catch {
          return undefined
        }
      })()
      const id = value?.id ?? value?.reference ?? (value?.record as Record<string, unknown> | undefined)?.id
      if (typeof id !== 'string' || id.trim() === '') throw new UsageError(`${source} line ${index + 1} has no "id" or "reference" field`)
      return id.trim()
    })
  }
  const header = first.split(',').map((name) => name.trim().toLowerCase())
  if (header.length === 1 && !ID_COLUMNS.includes(header[0]!)) return lines(body)
  const column = ID_COLUMNS.find((name) => header.includes(name))
  if (!column) throw new UsageError(`${source} looks like a CSV, and its header (${first}) has no id or reference column`, 'Name the column of ids "id" or "reference", or give one id a line.')
  const {parse} = await import('csv-parse/sync')
  const records = parse(body, {columns: (names: string[]) => names.map((name) => name.trim().toLowerCase()), skip_empty_lines: true, relax_column_count: true}) as Record<string, string>[]
  return records.map((record) => (record[column] ?? '').trim()).filter(Boolean)
}
