import {expiryAsSent} from '../api/schemas/card-rules.js'
import {frequencyNamed} from '../api/schemas/recurring-rules.js'
import type {Difference} from '../money/decide.js'
import type {StepKind} from './kinds.js'
import type {GwRecord} from '../api/schemas/record.js'

/** How a field of a step is read for comparing with the record the gateway keeps: equal when both read the same. */
type Reading = (value: unknown) => unknown

const text: Reading = (value) => (typeof value === 'string' ? value.trim() : value)
const anyCase: Reading = (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value)
/** `12/30`, `12/2030`, `2030-12-31` and `2030-12-31T23:59:59+11:00` alike: the month a card expires. */
const expiryMonth: Reading = (value) => {
  if (typeof value !== 'string') return value
  const date = /^(\d{4})-(\d{2})/.exec(value)
  return date ? `${date[2]}/${date[1]}` : (expiryAsSent(value) ?? value)
}
const same: Reading = (value) => value
const day: Reading = (value) => (typeof value === 'string' ? value.slice(0, 10) : value)
const frequency: Reading = (value) => (typeof value === 'string' ? (frequencyNamed(value) ?? value) : value)
/** `*`, or the events as a set. */
const events: Reading = (value) => (Array.isArray(value) ? [...new Set(value.map(String))].sort().join(',') : value)

/**
 * The fields compared, by kind, with how each is read. The key a step is found by (a reference, a
 * card's alias, a web hook's address) is not among them: it matched. What the gateway does not
 * keep or show (a CVV, a customer's card, a password) is not either. A purchase or refund is
 * compared by the money module, as any found under its reference is (operations/seed.ts).
 */
const COMPARED: Partial<Record<StepKind, Record<string, Reading>>> = {
  card: {card_holder: text, card_expiry: expiryMonth},
  plan: {name: text, description: text, amount: (value) => value},
  customer: {first_name: text, last_name: text, email: anyCase},
  subscription: {customer: text, plan: text, frequency, start_date: day, is_active: (value) => value},
  webhook: {name: text, events, authentication_username: text},
  // A plan's customer is compared by id (operations/seed.ts), as a subscription's; a debit's amount in cents, read so from the gateway's dollars.
  payment_plan: {customer: text, amount: same, currency: anyCase, frequency, anniversary: same, start_date: day, total_count: same, end_date: day, description: text},
  direct_debit: {amount: same, description: text, bsb: text, account_name: text, account_number: text},
}

/**
 * Where the record the gateway holds under a step's key has other values than the step's fields:
 * each field the step gives and the record carries, read alike on both sides. None: it is the
 * step's record, present. A field the record lacks cannot be told, and is not a difference.
 */
export function seedDifferences(kind: StepKind, fields: Record<string, unknown>, record: GwRecord): Difference[] {
  return Object.entries(COMPARED[kind] ?? {}).flatMap(([field, read]) => {
    const expected = fields[field]
    const found = record[field]
    if (expected === undefined || found === undefined || found === null) return []
    return read(expected) === read(found) ? [] : [{field, against: 'sent' as const, expected, found}]
  })
}

/** `amount: the file has 2500, the gateway 3000; name: ...`, as a message names them. */
export function describeSeedDifferences(differences: Difference[]): string {
  const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : Array.isArray(value) ? value.join(',') : String(value))
  return differences.map(({field, expected, found}) => `${field}: the file has ${shown(expected)}, the gateway ${shown(found)}`).join('; ')
}
