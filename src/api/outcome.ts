import {maskCardNumber, redact} from '../redact.js'

type GwRecord = Record<string, unknown>

/**
 * Approved (true), declined (false), or not said (undefined): the contract names the outcome
 * `successful`, some answers call it `authorized`. A record that says neither is no decline:
 * the money may have moved.
 */
export function outcomeOf(record: GwRecord): boolean | undefined {
  for (const field of ['successful', 'authorized']) {
    if (typeof record[field] === 'boolean') return record[field]
  }
  return undefined
}

/** The gateway's word for a decline, or `Declined` when it gave none. */
export function declineReason(record: GwRecord): string {
  return typeof record.message === 'string' && record.message ? record.message : 'Declined'
}

/**
 * Where a record found by reference after a lost answer differs from what was sent: the
 * reference exactly, the amount (a refund's sign varies between gateways), the currency, and the
 * card (its masked number, or its token; `cardToken` is the token an alias that was sent stands
 * for). Empty when it is the same transaction. A field the record lacks is a difference: what
 * cannot be checked is not believed. The one exception is a refund's reference: the contract's
 * refund record has no such field, so a refund found under the reference and silent about it
 * is checked by its amount alone; a refund that names another reference is still a difference.
 */
export function mismatches(noun: 'purchase' | 'refund', sent: GwRecord, found: GwRecord, {cardToken}: {cardToken?: string} = {}): string[] {
  const differences: string[] = []
  // Values are shown as redact() leaves them: a gateway that sends a card number whole gets it masked here too.
  const differ = (field: string, sentValue: unknown, foundValue: unknown) =>
    differences.push(`${field}: sent ${JSON.stringify(redact(sentValue))}, found ${foundValue === undefined || foundValue === null ? 'none' : JSON.stringify(redact(foundValue))}`)

  const silentRefund = noun === 'refund' && (found.reference === undefined || found.reference === null)
  if (found.reference !== sent.reference && !silentRefund) differ('reference', sent.reference, found.reference)
  const amount = typeof found.amount === 'number' && noun === 'refund' ? Math.abs(found.amount) : found.amount
  if (amount !== sent.amount) differ('amount', sent.amount, found.amount)
  if (typeof sent.currency === 'string' && (typeof found.currency !== 'string' || found.currency.toUpperCase() !== sent.currency.toUpperCase())) {
    differ('currency', sent.currency, found.currency)
  }
  if (typeof sent.card_number === 'string' && !(typeof found.card_number === 'string' && maskedMatches(sent.card_number, found.card_number))) {
    differ('card_number', maskCardNumber(sent.card_number), found.card_number)
  }
  if (typeof sent.card_token === 'string' && found.card_token !== sent.card_token && (cardToken === undefined || found.card_token !== cardToken)) {
    differ('card_token', sent.card_token, found.card_token)
  }
  return differences
}

/** A masked number (`424242XXXXXX4242`) is the full one when it has its length and every digit it shows. */
export function maskedMatches(full: string, masked: string): boolean {
  const digits = full.replace(/[\s-]/g, '')
  const shown = masked.replace(/[\s-]/g, '')
  if (shown.length !== digits.length) return false
  return [...shown].every((char, index) => !/\d/.test(char) || char === digits[index])
}
