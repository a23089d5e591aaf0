/**
 * What the local gateway does where gateway-beyond.md marks the live gateway's behaviour unknown
 * ([?]), or where the recorded builds disagree, and the words the recorded answers use: each
 * choice made once, here, so that it is easy to change when evidence comes.
 * docs/sandbox-dialects.md lists them ("Choices the local gateway made").
 */

// Captures, voids, increments, unmatched refunds and 3-D Secure (gateway-beyond.md §1-7, §13).

/**
 * A void leaves the record's `successful` as it was, and a voided refund's `response_code` at
 * `00`: the newest recorded build (2019). Builds of 2017 and early 2018 set `successful` false,
 * and a refund's code `99` until May 2018.
 */
export const VOID_KEEPS_SUCCESSFUL = true
export const VOIDED_REFUND_CODE = '00'

/**
 * Why an operation on a purchase or refund is refused for the state the record is in: answered
 * with HTTP 200, `successful` false and the record unchanged, as the one recorded refusal (a
 * capture over the authorised amount) is. Only that text is the gateway's; the others are ours.
 */
export const REFUSED = {
  overCapture: 'Capture amount cannot be greater then the original authorised amount',
  notSuccessful: 'Transaction was not successful',
  /** A capture takes the authorization once: a partial capture releases the rest. */
  alreadyCaptured: 'Transaction has already been captured',
  voided: 'Transaction has been voided',
  alreadyVoided: 'Transaction has already been voided',
  /** Past its settlement date a capture or refund cannot be voided: refund it instead. */
  settled: 'Transaction has already been settled',
  /** A purchase with refunds is not voided: void the refunds first. */
  refunded: 'Transaction has been refunded',
  /** An increment raises the authorised amount; it never lowers it. */
  notAnIncrement: 'Amount must be greater than the authorised amount',
} as const

/** Refunds of a purchase that gave no money: refused like one that was declined (HTTP 400). */
export const REFUND_REFUSED = {
  uncaptured: 'Original transaction has not been captured',
  voided: 'Original transaction has been voided',
} as const

/** ActiveMerchant matches this text as a substring; the whole of it is ours. */
export const NO_CARD_FOR_UNMATCHED_REFUND = 'Invalid credit card for unmatched refund'

/**
 * Captures, voids, increments and extensions name the record by its id, not its reference: a
 * client that works here then works whether or not the live gateway takes references there.
 */
export const namedById = (record: {id: string}, key: string) => record.id === key

/** A capture or refund can be voided until its settlement date is over; an uncaptured authorization at any time. */
export const isVoidable = (settlementDate: string | null, today: string) => settlementDate === null || today <= settlementDate

/** Repeated increments keep the first authorised amount in `metadata.original_amount`. */
export const originalAmount = (metadata: Record<string, string>, before: number) => metadata.original_amount ?? String(before)

/** A purchase marked recurring by any `extra.ecm` (ActiveMerchant sends `32`) needs no CVV. */
export const isRecurring = (extra: Record<string, unknown>) => typeof extra.ecm === 'string' ? extra.ecm.trim() !== '' : extra.ecm !== undefined && extra.ecm !== null

/**
 * 3-D Secure fields in `extra`: an ECI (`sli`) of a fully authenticated purchase needs the
 * authentication value (`cavv`), and under 3-D Secure 1 the transaction id (`xid`); a
 * `threeds_version` is 1 or 2, with up to two more parts (`1.0.2`, `2.2.0`).
 */
export const THREE_D_SECURE = {
  authenticatedSlis: ['02', '05'],
  version: /^[12](\.\d+){0,2}$/,
  missing: (field: 'cavv' | 'xid', sli: string) => `Extra/${field} is required for SLI ${sli}`,
  badVersion: 'Extra/threeds_version is not valid',
} as const

// Payment plans and direct debits (gateway-beyond.md §9, §10).
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
