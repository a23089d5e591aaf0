import {DECLINED_TEST_CARD, outcomeForCode, type Outcome} from '../api/schemas/test-outcomes.js'
import {maskCardNumber} from './cards.js'

/** A code outside the table, so the declined test card's code and message agree with it. */
const DECLINED_CARD_CODE = '99'

/**
 * The sandbox's rule: the declined test card always declines; otherwise the cents part of the
 * amount is the bank response code (10051 declines with 51, Insufficient Funds). The sandbox
 * keeps no full card numbers, so the test card is recognised by its masked form.
 */
export function purchaseOutcome(maskedCardNumber: string, amount: number): Outcome {
  if (maskedCardNumber === maskCardNumber(DECLINED_TEST_CARD)) return outcomeForCode(DECLINED_CARD_CODE)
  return outcomeForCode(String(amount % 100).padStart(2, '0'))
}
