/** The events of the contract's §6; anything else is printed but flagged. */
export const KNOWN_EVENTS = ['charge:pending', 'charge:successful', 'charge:retry', 'charge:failed', 'card:expiring', 'card:expired'] as const

export function isKnownEvent(event: string): boolean {
  return (KNOWN_EVENTS as readonly string[]).includes(event)
}

/** A delivery as the gateway sends it: `{"event": "...", "payload": [...]}`. */
export interface Delivery {
  event: string
  payload: unknown
}

export class InvalidDelivery extends Error {}

/** Parses a delivery body; throws InvalidDelivery saying what is wrong, for the warning and the 400. */
export function parseDelivery(body: string): Delivery {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch (err) {
    throw new InvalidDelivery(`the body is not JSON (${(err as Error).message})`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidDelivery('the body is not a JSON object')
  const {event, payload} = parsed as {event?: unknown; payload?: unknown}
  if (typeof event !== 'string' || event === '') throw new InvalidDelivery('the body has no "event" name')
  return {event, payload: payload ?? null}
}

/**
 * `--events charge:*,card:expired`: comma-separated globs where `*` matches any run of characters.
 * No patterns means every event.
 */
export function eventFilter(patterns: string[]): (event: string) => boolean {
  const globs = patterns.flatMap((pattern) => pattern.split(',')).map((glob) => glob.trim()).filter(Boolean)
  if (globs.length === 0) return () => true
  const regexps = globs.map((glob) => new RegExp('^' + glob.split('*').map(escapeRegExp).join('.*') + '$'))
  return (event) => regexps.some((regexp) => regexp.test(event))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
}

/** What a person wants to see of one payload element: whose subscription, which charge, how it went. */
export interface ElementSummary {
  subscription?: string
  customer?: string
  purchase?: string
  amount?: number
  currency?: string
  outcome?: string
  successful?: boolean
  /** The subscription's `last_status` after a failed charge: `Failed (2), Pending`, `Failed (3), Aborted`. */
  lastStatus?: string
}

type Obj = Record<string, unknown>

/**
 * The ids and charge outcome in each payload element (contract §6): charge events carry
 * `subscription` (with its `customer`) and `response` (a purchase envelope); charge:pending carries
 * subscription fields with a `customer`; card events carry the customer itself.
 */
export function summarize(event: string, payload: unknown): ElementSummary[] {
  const elements = Array.isArray(payload) ? payload : payload === null || payload === undefined ? [] : [payload]
  return elements.map((element) => summarizeElement(event, asObject(element)))
}

function summarizeElement(event: string, element: Obj): ElementSummary {
  const summary: ElementSummary = {}
  const nested = asObject(element.subscription)
  const subscription = Object.keys(nested).length > 0 ? nested : event.startsWith('charge:') ? element : {}
  const customer = Object.keys(asObject(subscription.customer)).length > 0 ? asObject(subscription.customer) : asObject(element.customer)
  summary.subscription = id(subscription.id)
  summary.customer = id(customer.id) ?? (event.startsWith('card:') ? id(element.id) : undefined)
  const envelope = asObject(element.response)
  const purchase = asObject(envelope.response)
  summary.purchase = id(purchase.id)
  if (typeof purchase.amount === 'number') summary.amount = purchase.amount
  if (typeof purchase.currency === 'string') summary.currency = purchase.currency
  if (typeof purchase.message === 'string' && purchase.message) summary.outcome = purchase.message
  const successful = purchase.successful ?? envelope.successful
  if (typeof successful === 'boolean') summary.successful = successful
  if (summary.successful === false && typeof subscription.last_status === 'string') summary.lastStatus = subscription.last_status
  for (const key of Object.keys(summary) as (keyof ElementSummary)[]) if (summary[key] === undefined) delete summary[key]
  return summary
}

function asObject(value: unknown): Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {}
}

function id(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined
}
