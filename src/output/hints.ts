import {type GwError, InterruptedError, ModeMismatchError, type MoneyInFlight, OutcomeUnknownError} from '../errors.js'
import type {RecoveryEvent} from '../api/client.js'
import {sanitizeLine} from './sanitize.js'
import {formatMoney} from './money.js'

/**
 * What to tell a person about an error, in gw's own terms: the command that checks a purchase in
 * doubt, the profile to fix. The client and the operations throw typed errors; this words them.
 */
export function hintFor(error: GwError): string | undefined {
  if (error.hint) return error.hint
  if (error instanceof OutcomeUnknownError) return `Do not resend it until you have checked what the gateway has: ${checkCommand(error)}`
  if (error instanceof InterruptedError && error.inFlight) {
    return `The ${error.inFlight.noun} with reference ${error.inFlight.reference} may have reached the gateway. Do not resend it until you have checked: ${checkCommand(error.inFlight)}`
  }
  if (error instanceof ModeMismatchError) return modeMismatchHint(error)
  if (error.kind === 'auth' && error.status === 401) {
    return 'Check the username and token of the profile in force (gw sandbox start sets up TEST/TEST for the local gateway).'
  }
  return undefined
}

function modeMismatchHint(error: ModeMismatchError): string {
  const fix =
    error.reported === 'live'
      ? 'If it is meant to be the live gateway, log in again with gw login --environment live (or set GW_ENVIRONMENT=live for credentials from the environment), and live protections apply.'
      : 'If it is meant to be a sandbox, log in again with gw login --environment sandbox (or set GW_ENVIRONMENT=sandbox).'
  // A purchase answered from the other gateway happened there; if its record could not be shown, it must be checked.
  const sent = error.inFlight && !error.record ? `The ${error.inFlight.noun} with reference ${error.inFlight.reference} was sent: do not resend it until you have checked it with the right profile: ${checkCommand(error.inFlight)}. ` : ''
  return `${sent}Check the base URL of the profile in force (gw status). ${fix}`
}

/** The command that shows what the gateway has under a reference. */
export function checkCommand(inFlight: MoneyInFlight): string {
  return `gw ${inFlight.noun} get ${shellQuote(inFlight.reference)}`
}

/** A step of a recovery, as a notice on stderr. */
export function recoveryNotice(event: RecoveryEvent): string {
  if (event.step === 'looking_up') return `No answer to the ${event.noun} that could be read (${sanitizeLine(event.why)}); looking reference ${sanitizeLine(event.reference)} up at the gateway.`
  return `Found the ${event.noun} by its reference: the gateway processed it once.`
}

/**
 * Quoted for a POSIX shell only when it has to be, so the usual reference reads as typed. A value
 * holding control characters is written as bash/zsh `$'...'` with `\xHH` (`\uHHHH`) escapes: it survives
 * sanitize unchanged and still names the same reference when pasted.
 */
export function shellQuote(value: string): string {
  if (/^[\w.:@/-]+$/.test(value)) return value
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001F\u007F-\u009F]/.test(value)) return `'${value.replace(/'/g, `'\\''`)}'`
  const escaped = value
    .replace(/[\\']/g, (char) => `\\${char}`)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001F\u007F-\u009F]/g, (char) => {
      // \xHH is a byte; a C1 character is two bytes in UTF-8, which \uHHHH writes.
      const hex = char.charCodeAt(0).toString(16).toUpperCase()
      return char.charCodeAt(0) < 0x80 ? `\\x${hex.padStart(2, '0')}` : `\\u${hex.padStart(4, '0')}`
    })
  return `$'${escaped}'`
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
