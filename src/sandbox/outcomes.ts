import {DECLINED_TEST_CARD, maskCardNumber} from './cards.js'

export interface Outcome {
  approved: boolean
  /** Two digits, the bank's response code. */
  responseCode: string
  message: string
}

const APPROVED_CODES = new Set(['00', '08', '10', '11', '16'])

/** The bank's decline messages, as the real sandbox gives them (gateway-notes.md). */
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

/** A code outside the table, so the declined test card's code and message agree with it. */
const DECLINED_CARD_CODE = '99'

export function outcomeForCode(responseCode: string): Outcome {
  if (APPROVED_CODES.has(responseCode)) return {approved: true, responseCode, message: 'Approved'}
  return {approved: false, responseCode, message: DECLINE_MESSAGES[responseCode] ?? 'Declined'}
}

/**
 * The sandbox's rule: the declined test card always declines; otherwise the cents part of the
 * amount is the bank response code (10051 declines with 51, Insufficient Funds). The sandbox
 * keeps no full card numbers, so the test card is recognised by its masked form.
 */
export function purchaseOutcome(maskedCardNumber: string, amount: number): Outcome {
  if (maskedCardNumber === maskCardNumber(DECLINED_TEST_CARD)) return outcomeForCode(DECLINED_CARD_CODE)
  return outcomeForCode(String(amount % 100).padStart(2, '0'))
}
