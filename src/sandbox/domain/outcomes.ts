import {decidingRule, type Outcome} from '../../api/schemas/test-outcomes.js'

/** The sandbox's answer to a purchase on a card (its masked number) for an amount: the rule `gw help test-cards` prints, and a decline's hint names. */
export function purchaseOutcome(maskedCardNumber: string, amount: number): Outcome {
  return decidingRule(maskedCardNumber, amount).outcome
}
