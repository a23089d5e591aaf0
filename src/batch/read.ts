import {parse} from 'csv-parse/sync'

/** One data row of a batch file as written: its line in the file and its fields by column name. */
export interface RawRow {
  line: number
  values: Record<string, unknown>
}

/** What a batch file holds: CSV with a header, or NDJSON; problems that stop a row, by line. */
export interface BatchInput {
  format: 'csv' | 'ndjson'
  /** CSV: the header's column names. NDJSON: every key seen, in order of first use. */
  columns: string[]
  rows: RawRow[]
  problems: {line: number; message: string}[]
}

/**
 * Reads a batch file: NDJSON when its first non-blank character is `{`, otherwise CSV with a
 * header row (RFC 4180 quoting, by csv-parse). Blank lines are skipped; line numbers count them.
 */
export function readBatchInput(text: string): BatchInput {
  const body = text.replace(/^\uFEFF/, '')
  return body.trimStart().startsWith('{') ? readNdjson(body) : readCsv(body)
}

function readNdjson(text: string): BatchInput {
  const rows: RawRow[] = []
  const problems: BatchInput['problems'] = []
  const columns = new Set<string>()
  text.split('\n').forEach((raw, index) => {
    const line = index + 1
    if (raw.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      problems.push({line, message: 'is not a JSON object (NDJSON: one object a line)'})
      return
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      problems.push({line, message: 'is not a JSON object (NDJSON: one object a line)'})
      return
    }
    for (const key of Object.keys(value)) columns.add(key)
    rows.push({line, values: value as Record<string, unknown>})
  })
  return {format: 'ndjson', columns: [...columns], rows, problems}
}

function readCsv(text: string): BatchInput {
  // CRLF as LF, so that line numbers count one per line break; a field of these files never holds one.
  const normalised = text.replace(/\r\n/g, '\n')
  let records: {record: string[]; raw: string}[]
  try {
    records = parse(normalised, {raw: true, skip_empty_lines: true, relax_column_count: true}) as unknown as {record: string[]; raw: string}[]
  } catch (err) {
    const {lines, message} = err as {lines?: number; message: string}
    return {format: 'csv', columns: [], rows: [], problems: [{line: lines ?? 1, message: `cannot be read as CSV: ${message.replace(/ at line \d+$/, '').replace(/:? on line \d+$/, '')}`}]}
  }
  let seen = 0
  const lined = records.map(({record, raw}) => {
    // csv-parse folds the blank lines it skips into the next record's raw text.
    const line = seen + 1 + (/^\n*/.exec(raw)?.[0].length ?? 0)
    seen += raw.split('\n').length - (raw.endsWith('\n') ? 1 : 0)
    return {line, record}
  })
  const [header, ...data] = lined.filter(({record}) => record.some((field) => field.trim() !== ''))
  if (!header) return {format: 'csv', columns: [], rows: [], problems: []}
  // Headers as spreadsheets write them: `Transaction_ID ` is the transaction_id column.
  const columns = header.record.map((name) => name.trim().toLowerCase())
  const problems: BatchInput['problems'] = []
  const rows: RawRow[] = []
  for (const {line, record} of data) {
    if (record.length > columns.length) {
      problems.push({line, message: `has ${record.length} fields, the header ${columns.length}`})
      continue
    }
    rows.push({line, values: Object.fromEntries(columns.map((name, i) => [name, record[i] ?? ''] as const))})
  }
  return {format: 'csv', columns, rows, problems}
}
