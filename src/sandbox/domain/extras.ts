import {THREE_D_SECURE, isRecurring} from './choices.js'
import {isBlank} from './input.js'

/** A purchase (or an unmatched refund) with card details and no CVV, unless recurring (gateway-beyond.md §13). */
export const CVV_REQUIRED = 'CVV is required'

/** The text of a field of `extra`: a number as its digits, anything else (absent, an object) as blank. */
function textOf(extra: Record<string, unknown>, field: string): string {
  const value = extra[field]
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : ''
}

/**
 * The merchant's `metadata`, echoed in the record (gateway-beyond.md §14.8): text values, as the
 * gateway's own keys are; a number or a flag is taken as its text. A nested value cannot be echoed as text.
 */
export function readMetadata(metadata: Record<string, unknown> | undefined): {metadata: Record<string, string>; errors: string[]} {
  const read: Record<string, string> = {}
  const nested: string[] = []
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (value === null || value === undefined) continue
    if (typeof value === 'object') nested.push(key)
    else read[key] = String(value)
  }
  return {metadata: read, errors: nested.length > 0 ? [`Metadata ${nested.join(', ')} must be text, a number or true/false`] : []}
}

/** The 3-D Secure fields of `extra`, checked as the gateway checks them (choices.ts THREE_D_SECURE). */
export function threeDSecureProblems(extra: Record<string, unknown>): string[] {
  const sli = textOf(extra, 'sli')
  const version = textOf(extra, 'threeds_version')
  const problems: string[] = []
  if (version !== '' && !THREE_D_SECURE.version.test(version)) problems.push(THREE_D_SECURE.badVersion)
  if ((THREE_D_SECURE.authenticatedSlis as readonly string[]).includes(sli)) {
    if (textOf(extra, 'cavv') === '') problems.push(THREE_D_SECURE.missing('cavv', sli))
    // 3-D Secure 2 names the authentication by the directory server's id, not by an xid.
    if (!version.startsWith('2') && textOf(extra, 'xid') === '') problems.push(THREE_D_SECURE.missing('xid', sli))
  }
  return problems
}

/** Card details need their CVV, but on a recurring charge (`extra.ecm`); a stored card never does. */
export function cvvProblem(cardDetailsGiven: boolean, cvv: string | undefined, extra: Record<string, unknown>): string | undefined {
  return cardDetailsGiven && isBlank(cvv) && !isRecurring(extra) ? CVV_REQUIRED : undefined
}
