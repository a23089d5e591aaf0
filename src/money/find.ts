import {InterruptedError, ModeMismatchError} from '../errors.js'
import {type Decided, decideFound, type Evidence, type Noun} from './decide.js'
import type {GwRecord} from '../api/schemas/record.js'

/**
 * How the gateway is asked what deciding needs beyond the record found. The client's recovery asks
 * through its own transport, the operations through the client: the questions are the same.
 */
export interface Lookups {
  /** The token a stored card's alias stands for. */
  cardToken(alias: string): Promise<unknown>
  /** The purchase a refund's `transaction_id` names (its id or its reference). */
  purchase(idOrReference: string): Promise<GwRecord>
}

/**
 * Decides a record found under the reference of what was sent (decide.ts `decideFound`), having
 * first asked the gateway what the comparison needs: for a purchase by alias, the token the alias
 * stands for; for a refund, the purchase it was for (`known` when the caller has it already). What
 * cannot be learned is not believed. A signal, or an answer from the wrong environment, still stops.
 */
export async function verifyFound(
  noun: Noun,
  sent: GwRecord,
  found: GwRecord,
  lookups: Lookups,
  source: 'recovered' | 'earlier',
  known: {purchase?: GwRecord} = {},
): Promise<Decided> {
  const evidence: Evidence = {}
  if (noun === 'refund' && sent.transaction_id === undefined) {
    // An unmatched refund names no purchase: its card is held against the card sent, when it was sent whole.
    evidence.purchase = typeof sent.card_number === 'string' ? {card_number: sent.card_number, card_holder: sent.card_holder, currency: sent.currency} : null
  } else if (noun === 'refund') {
    evidence.purchase = known.purchase ?? (await learn(() => lookups.purchase(String(sent.transaction_id))))
  } else if (typeof sent.card_token === 'string' && found.card_token !== sent.card_token && typeof found.card_token === 'string') {
    const token = await learn(() => lookups.cardToken(String(sent.card_token)))
    evidence.aliasToken = typeof token === 'string' ? token : null
  }
  return decideFound(noun, sent, found, evidence, source)
}

/** What the gateway answered, or null when it could not tell: the check that needed it then fails. */
async function learn<T>(ask: () => Promise<T>): Promise<T | null> {
  try {
    return await ask()
  } catch (err) {
    if (err instanceof InterruptedError || err instanceof ModeMismatchError) throw err
    return null
  }
}
