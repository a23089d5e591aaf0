/**
 * How the gateway's sandbox answers test payments (gateway-notes.md), with no zod in it: the local
 * gateway answers by it, and `gw help test-cards` prints it, so the two cannot disagree.
 */

export interface Outcome {
  approved: boolean
  /** Two digits, the bank's response code. */
  responseCode: string
  message: string
}

/** The test cards the vendor documents as approved (by the amount rule), and the one always declined. */
export const APPROVED_TEST_CARDS = [
  ['4242424242424242', 'Visa'],
  ['4005550000000001', 'Visa'],
  ['5123456789012346', 'MasterCard'],
  ['5555555555554444', 'MasterCard'],
] as const
export const DECLINED_TEST_CARD = '4557012345678902'

const APPROVED_CODES = new Set(['00', '08', '10', '11', '16'])

/** The bank's decline messages, as the real sandbox gives them. */
const DECLINE_MESSAGES: Record<string, string> = {
  '01': 'Refer to Card Issuer',
  '02': 'Refer to Card Issuer',
  '03': 'No Merchant',
  '04': 'Refer to Card Issuer',
  '05': 'Refer to Card Issuer',
  '06': 'Merchant/Acquirer Error',
  '07': 'Refer to Card Issuer',
  '09': 'Acquirer Busy',
  '12': 'Invalid Transaction',
  '13': 'Invalid Amount',
  '14': 'Invalid Card Number',
  '15': 'No Issuer',
  '31': 'Bank Not Supported',
  '33': 'Expired Card',
  '51': 'Insufficient Funds',
  '54': 'Expired Card',
  '90': 'Declined - Please Retry',
}

export function outcomeForCode(responseCode: string): Outcome {
  if (APPROVED_CODES.has(responseCode)) return {approved: true, responseCode, message: 'Approved'}
  return {approved: false, responseCode, message: DECLINE_MESSAGES[responseCode] ?? 'Declined'}
}

/** A code outside the table, so the declined test card's code and message agree with it. */
const DECLINED_CARD_CODE = '99'

/** The declined test card as records carry it: first 6 and last 4 digits, the rest X. */
const DECLINED_CARD_MASKED = DECLINED_TEST_CARD.slice(0, 6) + 'X'.repeat(DECLINED_TEST_CARD.length - 10) + DECLINED_TEST_CARD.slice(-4)

/** Which rule decided a purchase: the always-declined test card, or the cents of its amount. */
export type DecidingRule = {by: 'declined_card'; card: string; outcome: Outcome} | {by: 'cents'; cents: string; outcome: Outcome}

/**
 * The local gateway's rule for a purchase (gateway-notes.md): the declined test card always
 * declines; otherwise the cents part of the amount is the bank response code (10051 declines with
 * 51, Insufficient Funds). The card is recognised by its masked form, as the local gateway keeps
 * no whole card numbers and records carry none.
 */
export function decidingRule(maskedCardNumber: string, amount: number): DecidingRule {
  if (maskedCardNumber === DECLINED_CARD_MASKED) return {by: 'declined_card', card: DECLINED_CARD_MASKED, outcome: outcomeForCode(DECLINED_CARD_CODE)}
  const cents = String(amount % 100).padStart(2, '0')
  return {by: 'cents', cents, outcome: outcomeForCode(cents)}
}
