import * as z from 'zod'
import {lazily} from './lazy.js'
import {looseInt, looseString, maybe} from './common.js'
import {DELIVERY_STATUSES, GATEWAY_EVENTS} from './recurring-rules.js'
import {FAULT_ACTION_NAMES, FAULT_PARAMETERS, type FaultParameterName} from './fault-actions.js'

/**
 * The local gateway's control API under /_sandbox/: its virtual clock and sample events.
 * GET /_sandbox/clock is also how a local gateway tells gw about itself: its today (named days
 * are its days) and its processing window, and, asked with a challenge, the proof that it is the
 * gateway whose runtime file holds the key (clockProofText).
 */
export const SandboxClock = lazily(() =>
  z.looseObject({today: looseString, now: maybe(z.string()), time_zone: maybe(z.string()), processing_window_ms: maybe(z.number().int().nonnegative()), proof: maybe(z.string())}),
)
export type SandboxClock = z.infer<typeof SandboxClock>

/** What a local gateway says of its clock: its today, its now with its offset and its time zone (whose days named days are), and its processing window. */
export interface ClockSays {
  today: string
  processing_window_ms: number
  now: string
  time_zone: string
}

/**
 * What the clock's proof signs: the challenge, then everything the gateway says, so that none of
 * them can be swapped for another or left out.
 */
export const clockProofText = (challenge: string, clock: ClockSays): string => [challenge, clock.today, clock.processing_window_ms, clock.now, clock.time_zone].join('\n')

export const ClockAdvance = lazily(() =>
  z.union([
    z.object({days: z.number().int().positive()}),
    z.object({to: z.string()}),
  ]),
)
export type ClockAdvance = z.infer<typeof ClockAdvance>

export const ClockAdvanced = lazily(() =>
  z.looseObject({
    from: looseString,
    today: looseString,
    days: looseInt,
    events: maybe(z.union([z.number().int(), z.array(z.unknown())])),
    charges_approved: looseInt,
    charges_declined: looseInt,
    deliveries_queued: looseInt,
  }),
)
export type ClockAdvanced = z.infer<typeof ClockAdvanced>

/** What the local gateway's data is now, and each run of it it holds with the count of changes it holds of it (GET /_sandbox/instance). */
export const InstanceHeld = lazily(() => z.looseObject({instance: z.string().nullable(), runs: z.array(z.looseObject({id: z.string(), until: z.number().int()}))}))
export type InstanceHeld = z.infer<typeof InstanceHeld>
/** A record dated in the past (gw sandbox seed's `at`): which kind it is, and the instant, with its offset. */
/** `start_date`: a subscription's, moved to the day its billing starts (the gateway refuses one before its today on creation). */
export const DateRecord = lazily(() =>
  z.object({collection: z.enum(['purchases', 'refunds', 'customers', 'subscriptions', 'payment_plans', 'direct_debits']), at: z.string(), start_date: z.string().optional()}),
)
export type DateRecord = z.infer<typeof DateRecord>

/**
 * A quick history's bounds, which the local gateway and gw sandbox seed both check: at most this
 * many records of each kind, days and cards in one request, and a reference prefix short enough
 * that every reference derived from it stays within the gateway's 255 characters.
 */
export const HISTORY_LIMITS = {records: 200_000, days: 3660, cards: 100, prefixLength: 64} as const

/** What a quick history is made of when not told: a handful of the approved test cards over a month, named `hist-p1`... */
export const HISTORY_DEFAULTS = {refunds: 0, days: 30, cards: 4, reference_prefix: 'hist'} as const

/** A quick history of the merchant's (POST /_sandbox/history, gw sandbox seed --purchases): how many purchases and refunds, over how many days before the gateway's now, on how many cards, named how. */
export const HistoryRequest = lazily(() =>
  z.object({purchases: z.number().int(), refunds: z.number().int().optional(), days: z.number().int().optional(), cards: z.number().int().optional(), reference_prefix: z.string().optional()}),
)
export type HistoryRequest = z.infer<typeof HistoryRequest>

/** What a quick history made: its counts, its reference prefix, and the dates of its first and last records. */
export const HistoryMade = lazily(() =>
  z.looseObject({purchases: z.number().int(), refunds: z.number().int(), cards: z.number().int(), reference_prefix: z.string(), from: z.string(), to: z.string()}),
)
export type HistoryMade = z.infer<typeof HistoryMade>

type ParameterSchemas = {[P in FaultParameterName]: z.ZodOptional<(typeof FAULT_PARAMETERS)[P]['kind'] extends 'integer' ? z.ZodNumber : z.ZodBoolean>}

/** What goes wrong, for the next `times` requests of a method whose path starts with `path` (POST /_sandbox/faults); the actions' parameters are fault-actions.ts's. */
export const FaultRequest = lazily(() => {
  const parameters = Object.fromEntries(Object.entries(FAULT_PARAMETERS).map(([name, {kind}]) => [name, kind === 'integer' ? z.number().int().optional() : z.boolean().optional()])) as ParameterSchemas
  return z.object({method: z.string(), path: z.string(), action: z.enum(FAULT_ACTION_NAMES), ...parameters, times: z.number().int().optional()})
})
export type FaultRequest = z.infer<typeof FaultRequest>

/** A fault waiting, with the times it has left. */
export const Fault = lazily(() => z.looseObject({method: looseString, path: looseString, action: looseString, times: looseInt}))
export type Fault = z.infer<typeof Fault>

export const TriggerRequest = lazily(() =>
  z.object({
    event: z.enum(GATEWAY_EVENTS),
    webhook: z.string().optional(),
  }),
)
export type TriggerRequest = z.infer<typeof TriggerRequest>

export const Triggered = lazily(() =>
  z.looseObject({
    event: looseString,
    delivered_to: maybe(z.array(z.string())),
    /** The records the sample made (none when the merchant's own served): each its kind, id and reference. */
    created: maybe(z.array(z.looseObject({kind: looseString, id: looseString, reference: maybe(z.string())}))),
    payload: maybe(z.array(z.unknown())),
  }),
)
export type Triggered = z.infer<typeof Triggered>

/**
 * `4xx`, `404`, or several separated by commas (`4xx,503`): which statuses of the request log to
 * show. Parsed into the patterns themselves, lower case; `statusMatches` applies them.
 */
export const StatusFilter = lazily(() =>
  z
    .string()
    .transform((text) => text.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean))
    .refine((patterns) => patterns.length > 0 && patterns.every((pattern) => /^[1-5](xx|\d\d)$/.test(pattern)), 'must be a status class such as 4xx, a status such as 404, or several separated by commas'),
)

export function statusMatches(patterns: readonly string[], status: number | null): boolean {
  if (status === null) return false
  const text = String(status)
  return patterns.some((pattern) => (pattern.endsWith('xx') ? text[0] === pattern[0] : text === pattern))
}

/** The requests the local gateway answered, oldest first (GET /_sandbox/requests). */
export const RequestLogQuery = lazily(() =>
  z.object({
    status: StatusFilter.optional(),
    /** A path prefix: `/v1.0/purchases` takes `/v1.0/purchases/071-P-...` too. */
    path: z.string().min(1).optional(),
    merchant: z.string().min(1).optional(),
    /** The latest this many of those that match. */
    limit: z.coerce.number().int().min(1).optional(),
    /** Only entries after this cursor (`next` of an earlier answer), for following the log. */
    after: z.coerce.number().int().min(0).optional(),
  }),
)
export type RequestLogQuery = z.input<typeof RequestLogQuery>

/** One request the local gateway answered, as its log keeps it: never a body, a card number only masked. */
export const RequestLogEntry = lazily(() =>
  z.looseObject({
    time: z.string(),
    merchant: z.string().nullable(),
    method: z.string(),
    path: z.string(),
    /** null when a fault dropped the connection instead. */
    status: z.number().int().nullable(),
    ms: z.number(),
    request_id: z.string(),
    reference: z.string().nullable(),
    card_number: z.string().nullable(),
    error: z.string().nullable(),
  }),
)
export type RequestLogEntry = z.infer<typeof RequestLogEntry>

export const RequestLogPage = lazily(() =>
  z.looseObject({
    entries: z.array(RequestLogEntry),
    /** The cursor to ask `after` next time: the latest entry logged, matching or not. */
    next: z.number().int(),
    /** Entries logged since `after` that the gateway no longer keeps in memory, so were not returned. */
    missed: z.number().int(),
  }),
)
export type RequestLogPage = z.infer<typeof RequestLogPage>

/** Which web hook deliveries to list (GET /_sandbox/deliveries). */
export const DeliveryQuery = lazily(() =>
  z.object({
    event: z.enum(GATEWAY_EVENTS).optional(),
    status: z.enum(DELIVERY_STATUSES).optional(),
  }),
)
export type DeliveryQuery = z.infer<typeof DeliveryQuery>

/** A web hook delivery of the local gateway: queued, or finished (delivered, or given up as failed). */
export const Delivery = lazily(() =>
  z.looseObject({
    id: z.string(),
    event: z.string(),
    /** The address it goes to, and the registered web hook's id (null for `gw sandbox trigger --webhook`). */
    hook: z.string(),
    hook_id: z.string().nullable(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    /** What the receiver last answered (`HTTP 500`), or why no answer came (`ECONNREFUSED`); null before the first attempt. */
    last_answer: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    /** The delivery it sends again, when `redeliver` queued it. */
    redelivery_of: maybe(z.string()),
  }),
)
export type Delivery = z.infer<typeof Delivery>
