import * as z from 'zod'
import {type FollowUpAction, UsageError} from '../errors.js'
import {
  Card,
  CardTokenize,
  CardUpdate,
  ClockAdvance,
  ClockAdvanced,
  Customer,
  CustomerCreate,
  DateRecord,
  Fault,
  FaultRequest,
  HistoryMade,
  HistoryRequest,
  CustomerUpdate,
  Delivery,
  InstanceHeld,
  Plan,
  PlanCreate,
  PlanUpdate,
  Ping,
  Purchase,
  PurchaseCapture,
  PurchaseCreate,
  PurchaseExtend,
  PurchaseIncrement,
  UnmatchedRefundCreate,
  VoidRequest,
  WebHookUpdate,
  Refund,
  RequestLogPage,
  RefundCreate,
  SandboxClock,
  Subscription,
  SubscriptionCreate,
  SubscriptionUpdate,
  TriggerRequest,
  Triggered,
  WebHook,
  WebHookCreate,
  listOf,
} from './schemas/index.js'
import {lazily} from './schemas/lazy.js'
import {directDebitEndpoints, paymentPlanEndpoints} from './payment-endpoints.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface Endpoint<Res extends z.ZodType = z.ZodType, Body extends z.ZodType | undefined = z.ZodType | undefined> {
  method: HttpMethod
  /** Contract form of the path; `{name}` placeholders are filled from params, URL-encoded. */
  path: string
  body?: Body
  response: Res
  /**
   * A POST that moves money: never retried, a decline is an outcome (exit 3), and when no answer
   * comes back the record is looked up by its reference through `lookup`.
   */
  movesMoney?: {lookup: Endpoint<Res, undefined>; noun: 'purchase' | 'refund'}
  /**
   * On a live profile, what the person at the terminal types back before it is sent: the amount
   * of money it moves, or the id of what it deletes or stops (design.md §5).
   */
  confirm?: 'amount' | 'id'
  /** Its body's amount is in dollars (a direct debit's), not the minor unit: a live confirmation reads it so. */
  dollars?: true
  /** Said in a live confirmation's question, after the command: what makes this request riskier than its kind. */
  confirmNote?: string
  /** A list the gateway pages (offset and limit, or page and per_page): read a page at a time. */
  paged?: true
  /** Answered with a bare body, no envelope (`/ping`): the body is the record. */
  bare?: true
  /**
   * A change to a purchase or refund made earlier that may move money (a capture, a void, an
   * increment, an extension): never retried, sent once, and a lost answer is decided by looking the
   * record up by its id (money/follow-up.ts), not by a reference.
   */
  followsUp?: {noun: 'purchase' | 'refund'; action: FollowUpAction}
}

/** The safety facts of a request, whether or not its endpoint is in the table (`gw api`). */
export type RequestFacts = Pick<Endpoint, 'method' | 'path' | 'movesMoney' | 'confirm' | 'confirmNote' | 'dollars' | 'followsUp'>

/** Changes something at the gateway, so a read-only profile refuses it: anything but a GET. */
export function writes(facts: Pick<Endpoint, 'method'>): boolean {
  return facts.method !== 'GET'
}

/** An endpoint as declared, its literal path kept: the client's resource methods are typed from it (resources.ts). */
const define = <const E extends Endpoint<z.ZodType, z.ZodType | undefined>>(endpoint: E): E => endpoint

const getPurchase = define({method: 'GET', path: '/v1.0/purchases/{id}', response: Purchase})
const getRefund = define({method: 'GET', path: '/v1.0/refunds/{id}', response: Refund})

export const endpoints = {
  cards: {
    tokenize: define({method: 'POST', path: '/v1.0/credit_cards', body: CardTokenize, response: Card}),
    get: define({method: 'GET', path: '/v1.0/credit_cards/{token}', response: Card}),
    list: define({method: 'GET', path: '/v1.0/credit_cards', response: listOf<Card>(), paged: true}),
    update: define({method: 'PUT', path: '/v1.0/credit_cards/{token}', body: CardUpdate, response: Card}),
  },
  purchases: {
    create: define({
      method: 'POST',
      path: '/v1.0/purchases',
      body: PurchaseCreate,
      response: Purchase,
      movesMoney: {lookup: getPurchase, noun: 'purchase'},
      confirm: 'amount',
    }),
    // Before get, which would take `settlement` for an id in a path written by hand (gw api).
    settlement: define({method: 'GET', path: '/v1.0/purchases/settlement', response: listOf<Purchase>()}),
    get: getPurchase,
    list: define({method: 'GET', path: '/v1.0/purchases', response: listOf<Purchase>(), paged: true}),
    capture: define({method: 'POST', path: '/v1.0/purchases/{id}/capture', body: PurchaseCapture, response: Purchase, confirm: 'amount', followsUp: {noun: 'purchase', action: 'capture'}}),
    void: define({method: 'POST', path: '/v1.0/purchases/void', body: VoidRequest, response: Purchase, confirm: 'id', followsUp: {noun: 'purchase', action: 'void'}}),
    increment: define({method: 'PUT', path: '/v1.0/purchases/{id}', body: PurchaseIncrement, response: Purchase, confirm: 'amount', followsUp: {noun: 'purchase', action: 'increment'}}),
    extend: define({method: 'PUT', path: '/v1.0/purchases/{id}', body: PurchaseExtend, response: Purchase, followsUp: {noun: 'purchase', action: 'extension'}}),
  },
  refunds: {
    create: define({
      method: 'POST',
      path: '/v1.0/refunds',
      body: RefundCreate,
      response: Refund,
      movesMoney: {lookup: getRefund, noun: 'refund'},
      confirm: 'amount',
    }),
    /** A refund to a card, naming no purchase: the same endpoint, another body (gateway-beyond.md §7). */
    unmatched: define({
      method: 'POST',
      path: '/v1.0/refunds',
      body: UnmatchedRefundCreate,
      response: Refund,
      movesMoney: {lookup: getRefund, noun: 'refund'},
      confirm: 'amount',
      confirmNote: 'an unmatched refund to a card, which no purchase bounds',
    }),
    get: getRefund,
    list: define({method: 'GET', path: '/v1.0/refunds', response: listOf<Refund>(), paged: true}),
    void: define({method: 'POST', path: '/v1.0/refunds/void', body: VoidRequest, response: Refund, confirm: 'id', followsUp: {noun: 'refund', action: 'void'}}),
  },
  webHooks: {
    create: define({method: 'POST', path: '/v1.0/web_hooks', body: WebHookCreate, response: WebHook}),
    list: define({method: 'GET', path: '/v1.0/web_hooks', response: listOf<WebHook>(), paged: true}),
    update: define({method: 'PUT', path: '/v1.0/web_hooks/{id}', body: WebHookUpdate, response: WebHook}),
    delete: define({method: 'DELETE', path: '/v1.0/web_hooks/{id}', response: WebHook, confirm: 'id'}),
  },
  // The gateway's health check: no /v1.0, no envelope (gateway-beyond.md §11).
  health: {
    ping: define({method: 'GET', path: '/ping', response: Ping, bare: true}),
  },
  plans: {
    create: define({method: 'POST', path: '/v1.0/plans', body: PlanCreate, response: Plan}),
    list: define({method: 'GET', path: '/v1.0/plans.json', response: listOf<Plan>(), paged: true}),
    get: define({method: 'GET', path: '/v1.0/plans/{id}', response: Plan}),
    update: define({method: 'PUT', path: '/v1.0/plans/{id}', body: PlanUpdate, response: Plan}),
  },
  customers: {
    create: define({method: 'POST', path: '/v1.0/customers', body: CustomerCreate, response: Customer}),
    get: define({method: 'GET', path: '/v1.0/customers/{id}.json', response: Customer}),
    list: define({method: 'GET', path: '/v1.0/customers', response: listOf<Customer>(), paged: true}),
    update: define({method: 'PUT', path: '/v1.0/customers/{id}.json', body: CustomerUpdate, response: Customer}),
    delete: define({method: 'DELETE', path: '/v1.0/customers/{id}.json', response: Customer, confirm: 'id'}),
  },
  subscriptions: {
    create: define({method: 'POST', path: '/v1.0/subscriptions', body: SubscriptionCreate, response: Subscription}),
    get: define({method: 'GET', path: '/v1.0/subscriptions/{reference}.json', response: Subscription}),
    list: define({method: 'GET', path: '/v1.0/subscriptions.json', response: listOf<Subscription>(), paged: true}),
    // Stopping a subscription stops a customer's billing: confirmed like a delete.
    update: define({method: 'PUT', path: '/v1.0/subscriptions/{id}.json', body: SubscriptionUpdate, response: Subscription, confirm: 'id'}),
  },
  paymentPlans: paymentPlanEndpoints,
  directDebits: directDebitEndpoints,
  // The local gateway's own control API (src/sandbox/routes/control.ts), not part of the contract.
  // Every schema in this table is built when its endpoint is first used (lazily), not when it loads.
  sandbox: {
    clock: define({method: 'GET', path: '/_sandbox/clock', response: SandboxClock}),
    advanceClock: define({method: 'POST', path: '/_sandbox/clock/advance', body: ClockAdvance, response: ClockAdvanced}),
    trigger: define({method: 'POST', path: '/_sandbox/trigger', body: TriggerRequest, response: Triggered}),
    requests: define({method: 'GET', path: '/_sandbox/requests', response: RequestLogPage}),
    instance: define({method: 'GET', path: '/_sandbox/instance', response: InstanceHeld}),
    deliveries: define({method: 'GET', path: '/_sandbox/deliveries', response: lazily(() => z.array(Delivery))}),
    redeliver: define({method: 'POST', path: '/_sandbox/deliveries/{id}/redeliver', response: Delivery}),
    dateRecord: define({method: 'POST', path: '/_sandbox/dated/{key}', body: DateRecord, response: lazily(() => z.looseObject({}))}),
    history: define({method: 'POST', path: '/_sandbox/history', body: HistoryRequest, response: HistoryMade}),
    faults: define({method: 'GET', path: '/_sandbox/faults', response: lazily(() => z.array(Fault))}),
    addFault: define({method: 'POST', path: '/_sandbox/faults', body: FaultRequest, response: Fault}),
    clearFaults: define({method: 'DELETE', path: '/_sandbox/faults', response: lazily(() => z.array(Fault))}),
  },
} as const

/**
 * Fills `{name}` placeholders so that any id or reference reaches the gateway whole: each value is
 * URL-encoded (a `/`, `?`, `#` or `%` stays inside its segment), and a path that ends in a value
 * holding a dot gets the contract's `.json` suffix, so the gateway reads the last `.json` as the
 * format and the rest, `inv-a.json` too, as the key (it strips exactly one suffix).
 */
export function buildPath(template: string, params: Record<string, string> = {}): string {
  const last = /\{(\w+)\}$/.exec(template)?.[1]
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`)
    // `.` and `..` (or `%2e`) as a whole segment are steps in the path to every URL parser, never a
    // key; last, the `.json` suffix makes them one (`..json`), but not between two segments.
    if (name !== last && (value === '.' || value === '..')) throw new UsageError(`an id of "${value}" cannot be sent: the gateway would read it as a step in the path`)
    return encodeKey(value)
  })
  return last !== undefined && params[last]!.includes('.') ? path + '.json' : path
}

function encodeKey(value: string): string {
  // A blank key would address the collection, not a record.
  if (value === '') throw new UsageError('an id or reference is blank')
  try {
    return encodeURIComponent(value)
  } catch {
    // Only a lone UTF-16 surrogate cannot be encoded; no terminal or file gives one.
    throw new UsageError('an id or reference holds text that is not valid Unicode')
  }
}

/** Every endpoint of the table, for look-ups by method and path and for tests that enumerate them. */
export function allEndpoints(): Endpoint[] {
  return Object.values(endpoints).flatMap((group) => Object.values(group) as Endpoint[])
}

/**
 * The table's endpoint for a request written by hand (`gw api POST /v1.0/purchases`): the path is
 * matched with or without its query and `.json` suffix, a `{name}` standing for one segment. Where
 * two share a method and path (an increment and an extension, a refund of a purchase and an
 * unmatched one), the first whose body the request's fits; else the first.
 */
export function endpointAt(method: string, path: string, body?: unknown): Endpoint | undefined {
  const bare = barePath(path)
  const matching = allEndpoints().filter((endpoint) => endpoint.method === method.toUpperCase() && pathPattern(endpoint.path).test(bare))
  if (matching.length < 2) return matching[0]
  return matching.find((endpoint) => endpoint.body?.safeParse(body).success) ?? matching[0]
}

/** The `{name}` values of a hand-written path of that endpoint, decoded: the id a live confirmation asks for. */
export function paramsAt(endpoint: Pick<Endpoint, 'path'>, path: string): Record<string, string> {
  const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!)
  const values = pathPattern(endpoint.path).exec(barePath(path))?.slice(1) ?? []
  return Object.fromEntries(names.flatMap((name, i) => (values[i] === undefined ? [] : [[name, safeDecode(values[i])]])))
}

function barePath(path: string): string {
  return path.split(/[?#]/, 1)[0]!.replace(/\/+$/, '')
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

function pathPattern(template: string): RegExp {
  const source = template
    .replace(/\.json$/, '')
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([^/]+?)')
  return new RegExp(`^${source}(\\.json)?$`)
}
