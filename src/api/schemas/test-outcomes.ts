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
