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

const TYPE_CHECKS: Record<FieldKind, [(value: unknown) => boolean, string]> = {
  string: [(value) => typeof value === 'string', 'must be a string'],
  integer: [(value) => Number.isSafeInteger(value), 'must be an integer'],
  boolean: [(value) => typeof value === 'boolean', 'must be true or false'],
  object: [(value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be an object'],
}

/**
 * Picks the fields of a request body by the spec. A missing or null field is undefined; a field
 * of the wrong JSON type is a 400 naming it (`Amount must be an integer`), all such at once.
 */
export function readFields<S extends FieldSpec>(body: Record<string, unknown>, spec: S): Fields<S> {
  const fields: Record<string, unknown> = {}
  const errors: string[] = []
  for (const [field, kind] of Object.entries(spec)) {
    const value = body[field]
    if (value === undefined || value === null) continue
    const [hasKind, problem] = TYPE_CHECKS[kind]
    if (hasKind(value)) fields[field] = value
    else errors.push(`${fieldLabel(field)} ${problem}`)
  }
  if (errors.length > 0) throw badRequest(errors)
  return fields as Fields<S>
}
