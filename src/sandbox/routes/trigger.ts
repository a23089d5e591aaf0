import {GATEWAY_EVENTS, type GatewayEvent, type WebhookEvent, isPaymentPlanEvent} from '../../api/schemas/recurring-rules.js'
import {ABORTED, SUCCESSFUL, pendingStatus} from '../domain/billing.js'
import {chargeCard} from '../domain/charges.js'
import type {SandboxContext} from '../context.js'
import {takesEvent} from '../server/delivery.js'
import {badRequest, SandboxError} from '../domain/errors.js'
import {chargePayload, customerPayload, pendingPayload} from '../domain/events.js'
import {addPlan} from '../domain/plan.js'
import {addSubscription} from '../domain/subscription.js'
import type {RouteRequest, RouteResult} from './route.js'
import {LOWER_ALPHANUMERIC, TEST_MERCHANT, randomCode} from '../domain/ids.js'
import {readFields} from '../domain/input.js'
import {outcomeForCode} from '../../api/schemas/test-outcomes.js'
import type {SubscriptionRecord} from '../domain/records.js'
import {isHttpUrl} from '../domain/web-hook.js'
import {samplePlanPayload} from './plan-samples.js'
import {SAMPLE_METADATA, sampleCustomerId} from './samples.js'

/** How each charge event's sample reads: its subscription status and the bank's answer. */
const SAMPLE_CHARGES = {
  'charge:successful': {lastStatus: SUCCESSFUL, responseCode: '00'},
  'charge:retry': {lastStatus: pendingStatus(2), responseCode: '51'},
  'charge:failed': {lastStatus: ABORTED, responseCode: '51'},
} as const

/**
 * Delivers a sample of one of the gateway's events, built from the merchant's own records (a plan,
 * customer and subscription, or a payment plan, are created when it has none), to `webhook` only
 * or to its hooks.
 */
export function trigger({input, scope}: RouteRequest, ctx: SandboxContext): RouteResult {
  const {event, webhook, merchant = scope ?? TEST_MERCHANT} = readFields(input, {event: 'string', webhook: 'string', merchant: 'string'})
  if (scope !== undefined && merchant !== scope) throw new SandboxError(403, [`Merchant ${scope}'s credentials make sample events for ${scope} alone, not for ${merchant}`])
  const known: readonly unknown[] = GATEWAY_EVENTS
  if (!known.includes(event)) throw badRequest([`Event must be one of ${GATEWAY_EVENTS.join(', ')}`])
  const name = event as GatewayEvent
  if (!ctx.merchants.includes(merchant)) throw badRequest([`Merchant ${merchant} is not one of ${ctx.merchants.join(', ')}`])
  if (webhook !== undefined && !isHttpUrl(webhook)) throw badRequest([`Webhook must be an http or https URL, not ${webhook}`])
  const hooks = ctx.store.list('webhooks', merchant).filter((hook) => takesEvent(hook, name))
  if (webhook === undefined && hooks.length === 0) {
    throw badRequest([`Merchant ${merchant} has no web hook for ${name}: register one (POST /v1.0/web_hooks, or gw webhook create --url URL) or give webhook (gw sandbox trigger --webhook URL)`])
  }

  const before = MADE.map((collection) => ctx.store.ordered(collection, merchant).length)
  const payload = isPaymentPlanEvent(name) ? samplePlanPayload(ctx, merchant, name) : samplePayload(ctx, merchant, name)
  const created = MADE.flatMap((collection, index) => madeSince(ctx, merchant, collection, before[index]!))
  if (webhook === undefined) return {status: 200, response: {event: name, delivered_to: ctx.deliveries.publish(merchant, name, payload), created, payload}}
  // Sent as the gateway sends deliveries there: with the credentials of the merchant's web hook at that address, if it has one.
  const registered = ctx.store.list('webhooks', merchant).find((hook) => hook.address === webhook)
  const credentials = {username: registered?.authentication_username ?? null, password: registered?.authentication_password ?? null}
  ctx.deliveries.enqueue({hook_id: null, address: webhook, ...credentials}, name, payload)
  return {status: 200, response: {event: name, delivered_to: [webhook], created, payload}}
}

/** What a sample may make, in the order it makes them: it says which it did, so that nobody takes them for their own. */
const MADE = ['cards', 'customers', 'plans', 'subscriptions', 'payment_plans', 'purchases'] as const
const KIND: Record<(typeof MADE)[number], string> = {cards: 'card', customers: 'customer', plans: 'plan', subscriptions: 'subscription', payment_plans: 'payment_plan', purchases: 'purchase'}

function madeSince(ctx: SandboxContext, merchant: string, collection: (typeof MADE)[number], count: number): {kind: string; id: string; reference: string | null}[] {
  const records = ctx.store.ordered(collection, merchant)
  const made: {kind: string; id: string; reference: string | null}[] = []
  for (let index = count; index < records.length; index++) {
    const record = records.at(index)! as {id?: string; token?: string; reference?: string | null}
    made.push({kind: KIND[collection], id: record.id ?? record.token ?? '', reference: record.reference ?? null})
  }
  return made
}

function samplePayload(ctx: SandboxContext, merchant: string, event: WebhookEvent): unknown[] {
  const subscription = sampleSubscription(ctx, merchant)
  const customer = ctx.store.get('customers', merchant, subscription.customer, 'Record not found')
  if (event === 'card:expiring' || event === 'card:expired') return [customerPayload(customer)]
  if (event === 'charge:pending') return [pendingPayload(subscription, customer)]
  const {lastStatus, responseCode} = SAMPLE_CHARGES[event]
  const plan = ctx.store.get('plans', merchant, subscription.plan, 'Record not found')
  const card = ctx.store.get('cards', merchant, customer.card_token, 'Record not found')
  // A real, fetchable purchase; the subscription itself is left as it is.
  const purchase = chargeCard(ctx, merchant, {
    card,
    amount: plan.amount,
    reference: `${subscription.reference}-sample-${randomCode(6, LOWER_ALPHANUMERIC)}`,
    currency: plan.currency,
    source: 'Recurring',
    outcome: outcomeForCode(responseCode),
    metadata: SAMPLE_METADATA,
  })
  return [chargePayload({...subscription, last_status: lastStatus}, customer, purchase, ctx.mode)]
}

/** The merchant's first active subscription (or first of any), else a new one on sample records. */
function sampleSubscription(ctx: SandboxContext, merchant: string): SubscriptionRecord {
  const {store} = ctx
  let firstBillable: SubscriptionRecord | undefined
  const subscriptions = store.ordered('subscriptions', merchant)
  for (let index = 0; index < subscriptions.length; index++) {
    const subscription = subscriptions.at(index)!
    if (store.find('customers', merchant, subscription.customer).found !== 'own') continue
    if (subscription.is_active) return subscription
    firstBillable ??= subscription
  }
  if (firstBillable) return firstBillable

  const suffix = randomCode(6, LOWER_ALPHANUMERIC)
  const plan =
    store.ordered('plans', merchant).at(0)?.id ??
    addPlan(ctx, merchant, {name: 'Sample plan', amount: 1000, reference: `sample-plan-${suffix}`, description: 'Made by gw sandbox trigger'}).id
  const customer = sampleCustomerId(ctx, merchant, suffix)
  return addSubscription(ctx, merchant, {
    customer,
    plan,
    frequency: 'Monthly',
    start_date: ctx.clock.today(),
    reference: `sample-subscription-${suffix}`,
    is_active: true,
  })
}
