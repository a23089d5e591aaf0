import {badRequest} from './errors.js'

type FieldKind = 'string' | 'integer' | 'boolean' | 'object'
type FieldSpec = Record<string, FieldKind>
type FieldValue<K extends FieldKind> = K extends 'integer'
  ? number
  : K extends 'boolean'
    ? boolean
    : K extends 'object'
      ? Record<string, unknown>
      : string
export type Fields<S extends FieldSpec> = {[Key in keyof S]?: FieldValue<S[Key]>}

const LABELS: Record<string, string> = {card_expiry: 'Expiry date', cvv: 'CVV'}

/** The gateway's name for a field in messages: `customer_ip` → `Customer ip`, `card_expiry` → `Expiry date`. */
export function fieldLabel(field: string): string {
  const words = field.replaceAll('_', ' ')
  return LABELS[field] ?? words.charAt(0).toUpperCase() + words.slice(1)
}

export const blankMessage = (field: string) => `${fieldLabel(field)} can't be blank`

export const isBlank = (value: string | undefined): value is undefined | '' => value === undefined || value.trim() === ''

/** The live gateway's limit for text fields (gateway-notes.md gives no other). */
const MAX_TEXT_LENGTH = 255

type Reading = {value: unknown} | {problem: string}

/**
 * What real clients send, taken as the live gateway takes it: the vendor's libraries send a CVV or
 * card number as a JSON number, an amount as a numeric string, a flag as "true". A number where
 * text is expected is its decimal text; a string of digits where an integer is expected is that
 * number (`"10.00"` is refused: dollars or cents, it cannot be told); "true" and "false" are booleans.
 */
const READERS: Record<FieldKind, (value: unknown) => Reading> = {
  string(value) {
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value
    if (typeof text !== 'string') return {problem: 'must be a string'}
    return text.length > MAX_TEXT_LENGTH ? {problem: `is too long (maximum is ${MAX_TEXT_LENGTH} characters)`} : {value: text}
  },
  integer(value) {
    const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value
    return Number.isSafeInteger(number) ? {value: number} : {problem: 'must be an integer'}
  },
  boolean(value) {
    const flag = typeof value === 'string' ? {true: true, false: false}[value.trim().toLowerCase()] : value
    return typeof flag === 'boolean' ? {value: flag} : {problem: 'must be true or false'}
  },
  object(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? {value} : {problem: 'must be an object'}
  },
}

/**
 * Picks the fields of a request body by the spec; fields the spec does not name (`test`,
 * `metadata`, `fraud`...) are ignored, as the live gateway ignores them. A missing or null field
 * is undefined; a field that cannot be read as its kind is a 400 naming it
 * (`Amount must be an integer`), all such at once.
 */
export function readFields<S extends FieldSpec>(body: Record<string, unknown>, spec: S): Fields<S> {
  const fields: Record<string, unknown> = {}
  const errors: string[] = []
  for (const [field, kind] of Object.entries(spec)) {
    const value = body[field]
    if (value === undefined || value === null) continue
    const reading = READERS[kind](value)
    if ('value' in reading) fields[field] = reading.value
    else errors.push(`${fieldLabel(field)} ${reading.problem}`)
  }
  if (errors.length > 0) throw badRequest(errors)
  return fields as Fields<S>
}
