import {DeclinedError, type GwError, type GwErrorDetails, OutcomeUnknownError, ReferenceTakenError} from '../errors.js'
import {redact} from '../safety/redact.js'
import {type Decided, type Difference, isMade, type Noun} from './decide.js'
import type {GwRecord} from '../api/schemas/record.js'

export interface FailureContext {
  /** What was sent, or would have been: shown beside a record that differs from it (never its CVV). */
  sent: GwRecord
  /**
   * How gw came to look the reference up, said first when the outcome is unknown: an answer lost
   * ("The purchase was sent but no answer came back that could be read (...)"), or an earlier run.
   */
  lookedUpBecause?: string
  /** The request was sent and the gateway refused it, its reference taken: something was sent, though nothing was made. */
  refusedAsTaken?: boolean
  status?: number
  requestId?: string
}

/**
 * The error an outcome other than an approval exits with (design.md §4): a decline keeps its record
 * (exit 3), a reference taken by another transaction names both (exit 7), an outcome that cannot be
 * told says why (exit 8). Undefined for an approval, and for a plan or debit made.
 */
export function failureOf(decided: Decided, context: FailureContext): GwError | undefined {
  const {noun} = decided
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1)
  const reference = String(context.sent.reference ?? '')
  const details = {status: context.status, requestId: context.requestId}
  switch (decided.outcome) {
    case 'declined':
      return new DeclinedError(`${Noun} declined${decided.source === 'earlier' ? ' (earlier, under this reference)' : ''}: ${decided.reason}`, {
        ...details,
        messages: [decided.reason],
        record: decided.record,
      })
    case 'taken':
      return takenFailure(decided, reference, context, details)
    case 'unknown': {
      if (decided.reason.why === 'unanswered') return new OutcomeUnknownError(`${context.lookedUpBecause ?? `The ${noun} was sent and no answer came back`}.`, {noun, reference}, details)
      if (decided.reason.why === 'not_findable') {
        const why = `The gateway has no ${noun} it finds under reference ${reference}, but it is known to find a ${noun} by its id only: it may have been made all the same, and it is not sent again`
        return new OutcomeUnknownError(context.lookedUpBecause ? `${context.lookedUpBecause}. ${why}` : why, {noun, reference}, details)
      }
      const found = decided.record ? JSON.stringify(redact(decided.record)) : undefined
      const reason = decided.reason
      let told: string
      if (reason.why === 'no_outcome') told = `The gateway's ${noun} under reference ${reference} ${isMade(noun) ? 'has no id, so it does not show that it was made' : 'does not say whether it was approved (no successful or authorized field)'}: ${found}`
      else if (reason.why === 'unchecked') told = `The gateway has a ${noun} under reference ${reference}, but whether it is the one sent could not be checked (${reason.unchecked.join(', ')} not known): ${found}`
      else told = `The gateway has a ${noun} under reference ${reference}, but not the one sent (${describeDifferences(reason.differences)}):\n  sent:  ${JSON.stringify(redact(context.sent))}\n  found: ${found}`
      return new OutcomeUnknownError(context.lookedUpBecause ? `${context.lookedUpBecause}. ${told}` : told, {noun, reference}, details)
    }
  }
  // Approved, or made: nothing failed.
  return undefined
}

/**
 * A reference held by another transaction. The gateway finds a record by its id and its reference
 * alike: one found whose id is the reference (and whose reference is not) was found by that id,
 * and is said so, never as the holder of the reference.
 */
function takenFailure(decided: Extract<Decided, {outcome: 'taken'}>, reference: string, context: FailureContext, details: GwErrorDetails): ReferenceTakenError {
  const {noun, record} = decided
  const id = typeof record.id === 'string' ? record.id : undefined
  if (id === reference && record.reference !== reference) {
    const found = `${noun} ${id} by its id (${typeof record.reference === 'string' ? `its reference is ${JSON.stringify(record.reference)}` : 'it has no reference'}), not by reference`
    const message = context.refusedAsTaken
      ? `The gateway refused reference ${reference} as already taken, and nothing was made. Looking ${reference} up found ${found}.`
      : `Reference ${reference} is the id of another ${noun}: looking it up found ${found}. Nothing was sent.`
    return new ReferenceTakenError(message, {noun, reference}, {...details, hint: OWN_REFERENCE(noun)})
  }
  const sent = context.refusedAsTaken ? 'The gateway refused this request under it: nothing was made' : 'Nothing was sent'
  return new ReferenceTakenError(`Reference ${reference} is already taken by another ${noun}${id ? ` ${id}` : ''}: ${describeDifferences(decided.differences)}. ${sent}.`, {noun, reference, id}, details)
}

/**
 * The gateway refused the reference as taken, and looking it up found no record of the kind sent:
 * nothing was made, and what holds the reference is not one the gateway finds under it.
 */
export function refusedUnfound(noun: Noun, reference: string, details: GwErrorDetails): ReferenceTakenError {
  return new ReferenceTakenError(
    `The gateway refused reference ${reference} as already taken, and nothing was made. Looking ${reference} up found no ${noun}: the gateway holds the reference elsewhere.`,
    {noun, reference},
    {...details, hint: OWN_REFERENCE(noun)},
  )
}

const OWN_REFERENCE = (noun: Noun) => `Give this ${noun} a reference of its own.`

/** `amount: sent 1000, found 2000; card_holder: the purchase's "Jane Citizen", found "John Smith"` */
export function describeDifferences(differences: Difference[]): string {
  const value = (v: unknown) => (v === null || v === undefined ? 'none' : JSON.stringify(v))
  return differences.map(({field, against, expected, found}) => `${field}: ${against === 'sent' ? 'sent' : "the purchase's"} ${value(expected)}, found ${value(found)}`).join('; ')
}
