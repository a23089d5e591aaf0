import type {Sent} from '../operations/money.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {MoneyInFlight} from '../errors.js'
import {checkCommand} from './hints.js'
import type {Io} from './io.js'
import {shellQuote} from './hints.js'
import {formatMoney} from './money.js'
import {sanitizeLine} from '../safety/sanitize.js'

/**
 * A purchase or refund (a payment plan, a direct debit) as a command reports it: what a person should hear besides its record (a
 * refund taking the purchase in full, a reference found taken by this same transaction earlier) on
 * stderr, then the record of an approval as the result, or the failure the outcome exits with (a
 * decline's carries its record, printed as the result too).
 */
export function settle(io: Io, sent: Sent & SentExtras): GwRecord {
  io.err(sentNotices(sent))
  if (sent.failure) throw sent.failure
  const {noun, record, outcome} = sent.decided as Extract<Sent['decided'], {outcome: 'approved' | 'made'}>
  // Its record on stdout is what tells a script the money moved: when it cannot be printed (a full
  // disk, a reader gone), stderr says so before the error, or the script sees a failure and resends.
  io.onOutClosed(() => io.err(unprintedNotice(noun, record, sent.body.reference, outcome)))
  return record
}

/** One line: what became of an approved purchase or refund (a payment plan or debit made) whose record could not be printed, and not to resend it. */
function unprintedNotice(noun: MoneyInFlight['noun'], record: GwRecord, reference: string, outcome: 'approved' | 'made'): string {
  const id = typeof record.id === 'string' ? `id ${sanitizeLine(record.id)}, ` : ''
  return `The ${noun} was ${outcome} (${id}reference ${sanitizeLine(reference)}), but its record could not be printed: do not resend it; ${checkCommand({noun, reference})} shows it.\n`
}

/** What a command knows of what it sent, besides the outcome. */
interface SentExtras {
  purchase?: GwRecord
  inFull?: boolean
  derived?: boolean
  /** gw could not record making this refund, and warned what it shows as instead: it is not certain for its purchase. */
  unrecorded?: boolean
}

function sentNotices({body, decided, purchase, inFull, derived, unrecorded}: Sent & SentExtras): string {
  let text = ''
  if (purchase && inFull) {
    const currency = typeof purchase.currency === 'string' ? purchase.currency : undefined
    text += `Refunding purchase ${String(purchase.id ?? '')} in full: ${formatMoney(Number(purchase.amount), currency)}.\n`
  }
  if (derived && purchase && decided.outcome === 'approved' && !unrecorded) {
    const name = String(purchase.reference ?? purchase.id)
    text += `Reference ${body.reference}, derived from purchase ${name}'s: gw refund list --purchase ${shellQuote(name)} finds it for certain.\n`
  }
  if ((decided.outcome === 'approved' || decided.outcome === 'declined' || decided.outcome === 'made') && decided.source === 'earlier') {
    const id = typeof decided.record.id === 'string' ? ` (${decided.record.id})` : ''
    // Found because the gateway refused the request as taken: it was sent, and made nothing more.
    text += `Reference ${body.reference} was taken by this same ${decided.noun}${id}, made earlier: the gateway refused this request for it, and nothing more was made.\n`
  }
  return text
}
