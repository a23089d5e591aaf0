import {createHash} from 'node:crypto'
import {atRest, isMaskedAtRest, jsonAtRest, keyedName} from '../safety/at-rest.js'
import {maskCardNumbersIn} from '../safety/redact.js'

/**
 * A batch journal's lines as its file keeps them (design.md §3): every card number masked wherever
 * it stands and every CVV left out, by the rules of gw's output (safety/at-rest.ts). A row's
 * reference that holds a card number (`ord-4929123456789015`) is kept masked, and beside it its
 * keyed hash under the journal's own key, as the local gateway keeps such a name
 * (sandbox/domain/storable.ts): a later run finds the row's entries by the reference its input
 * gives (resolveKeyed), and what else of the row's request was masked it takes from the row as the
 * input asks for it (restoredFrom). The references gw makes for rows that give none never hold one
 * (lists/refund-match.ts derivationBase), so every such reference is one the input holds.
 */

/** The field of an entry that names its row: an intent's, a result's, a withdrawal's. */
const NAMED_BY = ['intent', 'result', 'withdrawn'] as const

/** What a map of entries keeps one under whose reference the file holds masked: its keyed hash. */
const keyedIndex = (hash: string) => `keyed ${hash}`

/**
 * The journal's key: a hash of its header line, which names its batch, gateway and the moment it
 * was begun, so that no two journals hash a reference alike. The file holds it, as the local
 * gateway's state file holds its own key: what the hash keeps from whoever reads the file is the
 * reference itself, which no line holds whole.
 */
export function journalSecret(headerLine: string): string {
  return createHash('sha256').update(headerLine).digest('hex')
}

/** A journal's header as its first line, and the key its header line makes. */
export function headerLine(header: object): {line: string; secret: string} {
  const line = jsonAtRest(header)
  return {line, secret: journalSecret(line)}
}

/** An entry as the journal's line: masked, and for a row whose reference holds a card number, with its keyed hash. */
export function journalLine(entry: object, secret: string): string {
  const reference = nameOf(entry as Record<string, unknown>)
  if (reference === undefined || !isMaskedAtRest(reference)) return jsonAtRest(entry)
  return JSON.stringify({...atRest(entry), keyed: keyedName(secret, reference)})
}

/** Under what a map of entries keeps a line's entry: its reference as the line has it, or its keyed hash. */
export function entryKey(entry: Record<string, unknown>, named: string): string {
  return typeof entry.keyed === 'string' ? keyedIndex(entry.keyed) : named
}

/**
 * How a journal names a row of this reference: the text its lines hold of it (the reference as
 * JSON, or for one that holds a card number its keyed hash) and what entryKey keeps its entries under.
 */
export function keyOf(reference: string, secret: string): {inLine: string; entry: string} {
  if (!isMaskedAtRest(reference)) return {inLine: JSON.stringify(reference), entry: reference}
  const hash = keyedName(secret, reference)
  return {inLine: hash, entry: keyedIndex(hash)}
}

/**
 * Entries kept under a keyed hash, put back under the reference of the input that hashes to it,
 * that reference given back whole in the entry (the row's name, its request's reference); those
 * no reference of the input hashes to stay as they are: the input no longer has their rows.
 */
export function resolveKeyed<V extends object>(map: Map<string, V>, secret: string, references: Iterable<string>): void {
  // Stryker disable next-line all: a shortcut for the journals with no such entry (nearly all), to the same map.
  if (![...map.keys()].some((key) => key.startsWith(keyedIndex('')))) return
  for (const reference of references) {
    // Stryker disable next-line ConditionalExpression,BlockStatement: a shortcut; a reference kept whole hashes to no entry's key.
    if (!isMaskedAtRest(reference)) continue
    const key = keyedIndex(keyedName(secret, reference))
    const entry = map.get(key)
    if (entry === undefined) continue
    map.delete(key)
    map.set(reference, wholeAgain(entry as Record<string, unknown>, reference) as V)
  }
}

function wholeAgain(entry: Record<string, unknown>, reference: string): Record<string, unknown> {
  const whole: Record<string, unknown> = {...entry}
  for (const field of NAMED_BY) if (typeof whole[field] === 'string') whole[field] = reference
  const request = whole.request as Record<string, unknown> | undefined
  if (request && request.reference === maskCardNumbersIn(reference)) whole.request = {...request, reference}
  return whole
}

function nameOf(entry: Record<string, unknown>): string | undefined {
  for (const field of NAMED_BY) if (typeof entry[field] === 'string') return entry[field]
  return undefined
}

/** An earlier run's intent for a row, what the file kept masked of its request given back from the row as it is asked now (restoredFrom). */
export function restoredIntent<I extends {request: Record<string, unknown>; asked?: Record<string, unknown>}>(intent: I | undefined, asked: Record<string, unknown>): I | undefined {
  if (intent === undefined) return undefined
  return {...intent, request: restoredFrom(intent.request, asked), ...(intent.asked ? {asked: restoredFrom(intent.asked, asked)} : {})}
}

/**
 * A journaled request (or the row as asked then) with what the file kept masked given back from
 * the row as its input asks for it now: each text whose card numbers the journal masked, where the
 * row's masks to it. Sent again or looked up, a row's request is the one sent, card numbers and
 * all; a text the row now writes otherwise stays masked, and the row shows as changed.
 */
export function restoredFrom<T>(kept: T, asked: unknown): T {
  if (typeof kept === 'string') return (typeof asked === 'string' && maskCardNumbersIn(asked) === kept ? asked : kept) as T
  if (kept === null || typeof kept !== 'object' || asked === null || typeof asked !== 'object') return kept
  if (Array.isArray(kept)) return kept.map((item: unknown, index) => restoredFrom(item, (asked as unknown[])[index])) as T
  const whole: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(kept)) whole[field] = restoredFrom(value, (asked as Record<string, unknown>)[field])
  return whole as T
}
