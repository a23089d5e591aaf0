import type {Column} from './columns.js'

type GwRecord = Record<string, unknown>

/**
 * `--fields id,amount,reference`: the record's fields to show, in that order, named as the
 * gateway names them (snake case; kebab case is accepted as typed for flags).
 */
export function parseFields(input: string): string[] {
  const fields = input
    .split(',')
    .map((field) => field.trim().replaceAll('-', '_'))
    .filter(Boolean)
  if (fields.length === 0) throw new Error('--fields needs one or more field names separated by commas, such as id,amount,reference')
  return [...new Set(fields)]
}

/** The record with only those fields, in that order; fields it lacks are left out, as the gateway would. */
export function pickFields(record: GwRecord, fields: string[]): GwRecord {
  const picked: GwRecord = {}
  for (const field of fields) if (Object.hasOwn(record, field)) picked[field] = record[field]
  return picked
}

/** Table columns for the fields asked for: the command's own column where it has one, else the field's name. */
export function columnsFor(columns: Column[], fields: string[]): Column[] {
  return fields.map((field) => columns.find((column) => column.field === field) ?? {label: field, field})
}

/** Fields asked for that no record has: a typo, said on stderr rather than silently shown blank. */
export function unknownFields(records: GwRecord[], columns: Column[], fields: string[]): string[] {
  return fields.filter((field) => !columns.some((column) => column.field === field) && !records.some((record) => Object.hasOwn(record, field)))
}
