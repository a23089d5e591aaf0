import * as z from 'zod'
import {Card} from '../../api/schemas/card.js'
import {Address, Customer} from '../../api/schemas/customer.js'
import {Plan} from '../../api/schemas/plan.js'
import {Purchase} from '../../api/schemas/purchase.js'
import {Refund} from '../../api/schemas/refund.js'
import {Subscription} from '../../api/schemas/subscription.js'
import {WebHook} from '../../api/schemas/web-hook.js'
import {COLLECTIONS, type Collection, globalKeyField} from '../domain/collections.js'
import {DirectDebitState, PaymentPlanState} from './payment-state.js'
import {date, dateTime, nullableText, text} from './state-fields.js'

/**
 * The records as the state file holds them: the shared record
 * schemas (the client's), with the fields the sandbox relies on made required, so a file that
 * would break a request later is refused when it is loaded.
 */
const RECORDS = {
  cards: Card.extend({token: text, card_number: text, card_expiry: date, card_holder: text, transaction_count: z.number().int(), alias: nullableText}),
  purchases: Purchase.extend({
    id: text,
    reference: text,
    amount: z.number().int(),
    successful: z.boolean(),
    card_token: text,
    card_number: text,
    currency: text,
    settlement_date: date.nullable(),
    transaction_date: dateTime,
    rrn: text,
  }),
  refunds: Refund.extend({id: text, reference: text, amount: z.number().int(), successful: z.boolean(), transaction_id: text, purchase_id: nullableText, transaction_date: dateTime, rrn: text}),
  plans: Plan.extend({id: text, name: text, reference: text, description: text, amount: z.number().int(), currency: text, created_at: dateTime}),
  customers: Customer.extend({
    id: text,
    reference: text,
    first_name: text,
    last_name: text,
    email: text,
    card_token: text,
    address: Address,
    created_at: dateTime,
  }),
  subscriptions: Subscription.extend({
    id: text,
    customer: text,
    plan: text,
    frequency: text,
    start_date: date,
    end_date: date.nullable(),
    next_billing_date: date.nullable(),
    created_at: dateTime,
    reference: text,
    last_status: text,
    is_active: z.boolean(),
  }),
  webhooks: WebHook.extend({id: text, address: text, events: z.union([text, z.array(text)]), mode: z.enum(['Test', 'Live']), created_at: dateTime}),
  payment_plans: PaymentPlanState,
  direct_debits: DirectDebitState,
} as const satisfies {[C in Collection]: z.ZodType}

const MerchantRecords = z.object(
  Object.fromEntries(COLLECTIONS.map((collection) => [collection, z.record(z.string(), RECORDS[collection]).optional()])),
)

const CardNotice = z.enum(['card:expiring', 'card:expired'])

const QueuedDelivery = z.object({
  id: text,
  target: z.object({hook_id: nullableText, address: text, username: nullableText, password: nullableText}),
  event: text,
  payload: z.array(z.unknown()),
  attempts: z.number().int(),
  last_error: nullableText,
  redelivery_of: text.optional(),
})

const State = z
  .object({
    merchants: z.record(z.string(), MerchantRecords),
    today: date.optional(),
    cardNotices: z.record(z.string(), z.array(CardNotice)).optional(),
    deliveries: z.array(QueuedDelivery).optional(),
    runs: z.array(z.object({id: text, from: z.number().int().nonnegative()})).optional(),
    changes: z.number().int().nonnegative().optional(),
    nameSecret: text.optional(),
    nameHashes: z.record(z.string(), z.partialRecord(z.enum(COLLECTIONS), z.record(z.string(), text))).optional(),
  })
  .superRefine((state, check) => {
    // A record filed under another key would be found by one key and saved under the other.
    for (const [merchant, records] of Object.entries(state.merchants)) {
      for (const collection of COLLECTIONS) {
        for (const [key, record] of Object.entries(records[collection] ?? {})) {
          const field = globalKeyField(collection)
          if ((record as Record<string, unknown>)[field] !== key) {
            check.addIssue({code: 'custom', path: ['merchants', merchant, collection, key, field], message: `must be ${JSON.stringify(key)}, the key it is filed under`})
          }
        }
      }
    }
  })

const put = COLLECTIONS.map((collection) =>
  z.object({op: z.literal('put'), collection: z.literal(collection), merchant: text, record: RECORDS[collection], nameHash: text.optional()}),
)

const ChangeSchema = z.discriminatedUnion('op', [
  z.discriminatedUnion('collection', put as unknown as [(typeof put)[number], ...(typeof put)[number][]]),
  z.object({op: z.literal('remove'), collection: z.enum(COLLECTIONS), merchant: text, key: text}),
  z.discriminatedUnion('collection', [
    z.object({op: z.literal('dated'), collection: z.literal('purchases'), merchant: text, record: RECORDS.purchases}),
    z.object({op: z.literal('dated'), collection: z.literal('refunds'), merchant: text, record: RECORDS.refunds}),
    z.object({op: z.literal('dated'), collection: z.literal('customers'), merchant: text, record: RECORDS.customers}),
    z.object({op: z.literal('dated'), collection: z.literal('subscriptions'), merchant: text, record: RECORDS.subscriptions}),
    z.object({op: z.literal('dated'), collection: z.literal('payment_plans'), merchant: text, record: RECORDS.payment_plans}),
    z.object({op: z.literal('dated'), collection: z.literal('direct_debits'), merchant: text, record: RECORDS.direct_debits}),
  ]),
  z.object({op: z.literal('today'), date}),
  z.object({op: z.literal('nameSecret'), secret: text}),
  z.object({op: z.literal('notice'), key: text, notices: z.array(CardNotice)}),
  z.object({op: z.literal('enqueue'), delivery: QueuedDelivery}),
  z.object({op: z.literal('attempted'), id: text, attempts: z.number().int(), last_error: nullableText}),
  z.object({op: z.literal('dequeue'), id: text}),
  z.object({op: z.literal('reset'), instance: text}),
])

/** The whole state, as the state file's snapshot holds it. */
export const StateSnapshot = State

/** The changes of one group commit: a row of the state file. */
export const ChangeBatch = z.array(ChangeSchema)

/**
 * Why `value` does not fit `schema`, `where` it is first (`line 1, snapshot.merchants...`); undefined
 * when it fits. The loaders keep `value` itself: zod's output would put a record's fields in the
 * schema's order, not the gateway's.
 */
export function misfit(schema: z.ZodType, value: unknown, where: string): string | undefined {
  const result = schema.safeParse(value)
  return result.success ? undefined : `${where}, ${firstProblem(result.error)}`
}

/** `merchants.TEST.purchases.071-P-X.amount: Invalid input: expected number, received string`. */
function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid'
  const path = issue.path.map(String).join('.')
  return path === '' ? issue.message : `${path}: ${issue.message}`
}
