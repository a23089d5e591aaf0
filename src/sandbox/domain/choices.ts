/**
 * Payment plans and direct debits: the words their recorded answers use, and what the local
 * gateway does where no evidence shows what the live gateway does (gateway-beyond.md §9, §10 and
 * §15, the facts marked [?]). Each such choice is made here, once, and listed in
 * docs/sandbox-dialects.md ("Choices the local gateway made").
 */

/** Recorded: the only payment method, on plans and their payments. */
export const CREDIT_CARD = 'Credit Card'

/** Recorded: a plan's statuses, and why it is in one. */
export const PLAN_STATUS = {active: 'Active', suspended: 'Suspended', cancelled: 'Cancelled'} as const
export const STATUS_REASON = {none: 'None', other: 'Other'} as const

/** Recorded: a plan made without them has these (a failed payment costs nothing extra; retries 3 days apart). */
export const DEFAULT_FAILED_PAYMENT_FEE = 0
export const DEFAULT_RETRY_INTERVAL = 3

/**
 * A payment's status: `Scheduled` is recorded; what follows is chosen after the vendor's event
 * names (payment_plan_payment:completed, :declined, :error). `Retrying` while a declined payment
 * waits for its next attempt.
 */
export const PAYMENT_STATUS = {scheduled: 'Scheduled', retrying: 'Retrying', completed: 'Completed', declined: 'Declined', error: 'Error'} as const

/** A declined payment is tried again this many times, `retry_interval` days apart, as subscriptions are (contract §8). */
export const PAYMENT_RETRIES = 3

/**
 * How many payments to come a plan lists. The recorded plan with an end date and no count listed
 * 12 of the 13 Fridays before its end; a counted plan of 5 listed 5. Each payment made adds the next.
 */
export const SCHEDULE_WINDOW = 12

/** A payment's number in its reference: `<plan reference>-0001`, recorded from 0001 with four digits. */
export const paymentNumber = (index: number) => String(index).padStart(4, '0')

/** The most payments a plan may count: as many as four digits number. */
export const MAX_PAYMENTS = 9999

/** Direct debit statuses: `New` and `Deleted` recorded; the rest as the vendor's .NET library names them (DirectEntryStatus). */
export const DEBIT_STATUS = {new: 'New', pending: 'Pending', completed: 'Completed', rejected: 'Rejected', deleted: 'Deleted'} as const

/**
 * Requests up to 15:53 were dated that day and those from 19:16 the next (recorded): the local
 * gateway's cut-off is 16:00 in its own time zone, and a debit never goes to the bank on a
 * Saturday or Sunday.
 */
export const DEBIT_CUT_OFF_HOUR = 16

/** A completed debit's `result`; a rejected one's is the bank's return reason (api/schemas/debit-outcomes.ts). */
export const DEBIT_PROCESSED = 'Processed'
