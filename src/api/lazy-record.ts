import type {RecordText} from './list-splitter.js'
import {FACT_FIELDS, type RecordFacts} from './record-facts.js'
import {parseKeepingNumbers} from '../lib/json-as-written.js'
import type {GwRecord} from './schemas/record.js'

// A list's record handed on as its text until something reads more of it than a walk does, and
// each record's text as the gateway sent it, for a list printed as sent (output/render.ts).

/** What a record's stand-in holds: its text, the fields read from it, and the object once parsed. */
interface Held {
  text: string
  /** Dropped once the record is changed through its stand-in: the object answers then. */
  facts: RecordFacts | undefined
  parsed: GwRecord | undefined
}

/** Each parsed record's text as the gateway sent it. */
const sentTexts = new WeakMap<object, string>()

// Read through a stand-in: its text, and its object.
const TEXT = Symbol('text')
const WHOLE = Symbol('whole')

function parsedOf(held: Held): GwRecord {
  if (held.parsed) return held.parsed
  const parsed = parseKeepingNumbers(held.text) as GwRecord
  sentTexts.set(parsed, held.text)
  held.parsed = parsed
  return parsed
}

// Every use but reading a fact field (or the text) goes to the object, parsed then.
const handler: ProxyHandler<Held> = {
  get: (held, key) => {
    if (held.facts && typeof key === 'string' && FACT_FIELDS.has(key)) return held.facts[key]
    if (key === TEXT) return held.facts && held.text
    return key === WHOLE ? parsedOf(held) : Reflect.get(parsedOf(held), key)
  },
  has: (held, key) => Reflect.has(parsedOf(held), key),
  ownKeys: (held) => Reflect.ownKeys(parsedOf(held)),
  getOwnPropertyDescriptor: (held, key) => Reflect.getOwnPropertyDescriptor(parsedOf(held), key),
  getPrototypeOf: (held) => Reflect.getPrototypeOf(parsedOf(held)),
  set: (held, key, value) => changed(held, Reflect.set(parsedOf(held), key, value)),
  defineProperty: (held, key, descriptor) => changed(held, Reflect.defineProperty(parsedOf(held), key, descriptor)),
  deleteProperty: (held, key) => changed(held, Reflect.deleteProperty(parsedOf(held), key)),
  setPrototypeOf: (held, prototype) => changed(held, Reflect.setPrototypeOf(parsedOf(held), prototype)),
  // Not frozen: a frozen stand-in could report no property but its own, and it has none.
  preventExtensions: () => false,
}

/** A change made through a stand-in: its object answers every read from then on, and the text no longer stands for it. */
function changed(held: Held, done: boolean): boolean {
  held.facts = undefined
  if (held.parsed) sentTexts.delete(held.parsed)
  return done
}

/**
 * A record of a list's answer, from its text. Where the text was read plainly for its id and date
 * (`facts`, record-facts.ts: it is then a JSON object), a stand-in: it answers those from the text
 * and parses the text only when anything else is read of it (a filter, redaction, a table,
 * --fields, --jq), so a record printed as the gateway sent it is never parsed. Any other text is
 * parsed as JSON.parse reads it (and throws). Either keeps the text (sentAs).
 */
export function recordFromText({text, facts}: RecordText): unknown {
  if (facts) return new Proxy<Held>({text, facts, parsed: undefined}, handler)
  const record: unknown = parseKeepingNumbers(text)
  if (typeof record === 'object' && record !== null) sentTexts.set(record, text)
  return record
}

/**
 * The text the gateway sent `record` as, where it was read by recordFromText; undefined for any
 * other. Records are handed on as read, never changed in place: a field added (gw_match,
 * gw_refunded) is added to a copy, which has no text of its own.
 */
export function sentAs(record: object): string | undefined {
  return (record as {[TEXT]?: string})[TEXT] ?? sentTexts.get(record)
}

/** The object itself: a stand-in's, parsed once; any other record as it is. Quicker to read than the stand-in, for whatever reads all of it. */
export function whole<T extends object>(record: T): T {
  return (record as {[WHOLE]?: T})[WHOLE] ?? record
}
