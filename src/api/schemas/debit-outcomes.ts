/**
 * How the local gateway's bank answers a direct debit, with no zod in it, so that gw can print the
 * rule the local gateway answers by. The live gateway's test rules for debits are not published:
 * this one follows the card rule (the cents decide) with the bank's return reasons for a debit it
 * refuses (BECS return reason codes 1 to 9; 7 is not one a bank returns a debit with).
 */
const RETURN_REASONS: Record<number, string> = {
  1: 'Invalid BSB Number',
  2: 'Payment Stopped',
  3: 'Account Closed',
  4: 'Customer Deceased',
  5: 'No Account/Incorrect Account#',
  6: 'Refer to Customer',
  8: 'Invalid User ID Number',
  9: 'Technically Invalid',
}

export type DebitOutcome = {rejected: false} | {rejected: true; reason: string}

/** An amount in dollars whose cents are .01 to .09 (but .07) is returned with that reason; any other is processed. */
export function debitOutcome(dollars: number): DebitOutcome {
  const reason = RETURN_REASONS[Math.round(dollars * 100) % 100]
  return reason === undefined ? {rejected: false} : {rejected: true, reason}
}
