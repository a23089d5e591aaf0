/**
 * How the gateway's sandbox answers test payments, with no zod in it: the local gateway answers by
 * it, and `gw help test-cards` prints it, so the two cannot disagree. The same in both dialects:
 * the interface says nothing of test outcomes, so both follow what the gateway was recorded doing
 * (gateway-notes.md "Sandbox test outcomes", corrected by gateway-beyond.md §14.4 and §14.5).
 */

export interface Outcome {
  approved: boolean
  /** Two digits, the bank's response code. */
  responseCode: string
  message: string
}

const APPROVED: Outcome = {approved: true, responseCode: '00', message: 'Approved'}

/**
 * The vendor's test cards. The cents of the amount decide for some; others answer the same
 * whatever the amount, as recorded (§14.4: 5123…2346 and 4005…0001 approved with "00" at .12, .33,
 * .53, .54, .95, and the vendor's .NET suite buys 1.23 with 5123…2346 expecting approval; §14.5:
 * the decline card answered "05" with `Declined`, which ActiveMerchant's remote test expects).
 */
export const TEST_CARDS: readonly {number: string; scheme: string; outcome?: Outcome}[] = [
  {number: '4242424242424242', scheme: 'Visa'},
  {number: '5555555555554444', scheme: 'MasterCard'},
  {number: '4005550000000001', scheme: 'Visa', outcome: APPROVED},
  {number: '5123456789012346', scheme: 'MasterCard', outcome: APPROVED},
  {number: '4557012345678902', scheme: 'Visa', outcome: {approved: false, responseCode: '05', message: 'Declined'}},
]

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

/** A card as records carry it: first 6 and last 4 digits, the rest X. */
const masked = (number: string) => number.slice(0, 6) + 'X'.repeat(number.length - 10) + number.slice(-4)

const SET_OUTCOMES = new Map(TEST_CARDS.flatMap(({number, outcome}) => (outcome ? [[masked(number), outcome] as const] : [])))

/** Which rule decided a purchase: a test card's set answer, or the cents of its amount. */
export type DecidingRule = {by: 'card'; card: string; outcome: Outcome} | {by: 'cents'; cents: string; outcome: Outcome}

/**
 * The local gateway's rule for a purchase: a test card with a set answer gives it whatever the
 * amount; on any other card the cents part of the amount is the bank response code (10051 declines
 * with 51, Insufficient Funds). The card is recognised by its masked form, as the local gateway
 * keeps no whole card numbers and records carry none.
 */
export function decidingRule(maskedCardNumber: string, amount: number): DecidingRule {
  const outcome = SET_OUTCOMES.get(maskedCardNumber)
  if (outcome) return {by: 'card', card: maskedCardNumber, outcome}
  const cents = String(amount % 100).padStart(2, '0')
  return {by: 'cents', cents, outcome: outcomeForCode(cents)}
}
