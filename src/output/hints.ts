import {type GwError, InterruptedError, type MoneyInFlight, OutcomeUnknownError} from '../errors.js'
import type {RecoveryEvent} from '../api/client.js'
import {formatMoney} from './money.js'

/**
 * What to tell a person about an error, in gw's own terms: the command that checks a purchase in
 * doubt, the profile to fix. The client and the operations throw typed errors; this words them.
 */
export function hintFor(error: GwError): string | undefined {
  if (error.hint) return error.hint
  if (error instanceof OutcomeUnknownError) return `Do not send it again until you have checked: ${checkCommand(error)}`
  if (error instanceof InterruptedError && error.inFlight) {
    return `The ${error.inFlight.noun} with reference ${error.inFlight.reference} may have reached the gateway. Do not send it again until you have checked: ${checkCommand(error.inFlight)}`
  }
  if (error.kind === 'auth' && error.status === 401) {
    return 'Check the username and token of the profile in force (gw sandbox start sets up TEST/TEST for the local gateway).'
  }
  return undefined
}

/** The command that shows what the gateway has under a reference. */
export function checkCommand(inFlight: MoneyInFlight): string {
  return `gw ${inFlight.noun} get ${shellQuote(inFlight.reference)}`
}

/** A step of a recovery, as a notice on stderr. */
export function recoveryNotice(event: RecoveryEvent): string {
  if (event.step === 'looking_up') return `No answer to the ${event.noun} (${event.why}); looking reference ${event.reference} up at the gateway.`
  return `Found the ${event.noun} by its reference: the gateway processed it once.`
}

/** Quoted for a POSIX shell only when it has to be, so the usual reference reads as typed. */
export function shellQuote(value: string): string {
  return /^[\w.:@/-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}

/**
 * What a person should hear of a purchase or refund besides its record: that it was found done
 * earlier under its reference (nothing sent now), and how much a refund without --amount took.
 */
export function sentNotices(noun: 'purchase' | 'refund', sent: {record: Record<string, unknown>; doneEarlier: boolean; purchase?: Record<string, unknown>}): string {
  let text = ''
  const purchase = sent.purchase
  if (purchase) {
    const currency = typeof purchase.currency === 'string' ? purchase.currency : undefined
    text += `Refunding purchase ${String(purchase.id ?? '')} in full: ${formatMoney(Number(purchase.amount), currency)}.\n`
  }
  if (sent.doneEarlier) {
    const id = typeof sent.record.id === 'string' ? ` (${sent.record.id})` : ''
    text += `Reference ${String(sent.record.reference ?? '')} was taken by this same ${noun}${id}, made earlier: nothing was sent now.\n`
  }
  return text
}
