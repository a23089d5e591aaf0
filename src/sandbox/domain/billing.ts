import {frequencyNamed} from '../../api/schemas/recurring-rules.js'
import {chargeCard} from './charges.js'
import type {SandboxContext} from '../context.js'
import {chargePayload, customerPayload, pendingPayload} from './events.js'
import type {CardRecord, CustomerRecord, SubscriptionRecord} from './records.js'
import type {Lookup} from './shelves.js'
import {billingDateAfter, billingDateFrom, daysBetween, shiftDays} from './schedule.js'
import {runPlanPayments} from './plan-billing.js'
import {runDirectDebits} from './direct-debit.js'

/**
 * The billing engine. A day's run happens at the end of that day: advancing from today to a
 * later date runs today and every day after it up to the day before the target, in order, so a
 * subscription that starts today is billed when the clock moves on.
 */

export const SCHEDULED = 'Scheduled'
/** The contract does not show `last_status` after a successful charge. */
export const SUCCESSFUL = 'Successful'

/** Contract §8: retries of a failed charge before it is abandoned. */
const RETRIES = 3

/**
 * How the retry count reads: the first failed charge queues retry 1 (`Failed (1), Pending`), each
 * failed retry queues the next, and when retry 3 fails the charge is abandoned
 * (`Failed (3), Aborted`). So a card that always declines gives `charge:retry` three times, with
 * `Failed (1)`, `(2)` and `(3), Pending`, then one `charge:failed`: "fewer than three retries
 * used" while n retries are queued, and "third retry fails" at the end (contract §3.2).
 */
export const pendingStatus = (retry: number) => `Failed (${retry}), Pending`
export const ABORTED = `Failed (${RETRIES}), Aborted`

const PENDING = /^Failed \((\d+)\), Pending$/

/** The retry a subscription has queued, or undefined when none is. */
export function queuedRetry(subscription: SubscriptionRecord): number | undefined {
  const match = PENDING.exec(subscription.last_status)
  return match ? Number(match[1]) : undefined
}

/** Due on `day`: active, no retry queued, and its billing date has come. */
export const isDue = (subscription: SubscriptionRecord, day: string) =>
  subscription.is_active &&
  queuedRetry(subscription) === undefined &&
  subscription.next_billing_date !== null &&
  subscription.next_billing_date <= day

type ChargeEvent = 'charge:successful' | 'charge:retry' | 'charge:failed'

/** The subscription after a charge on `day`, and the event that reports it. */
export function afterCharge(
  subscription: SubscriptionRecord,
  approved: boolean,
  day: string,
): {subscription: SubscriptionRecord; event: ChargeEvent} {
  const retry = queuedRetry(subscription)
  const nextDate = () => nextBillingDate(subscription, day)
  if (approved) return {subscription: {...subscription, last_status: SUCCESSFUL, next_billing_date: nextDate()}, event: 'charge:successful'}
  if (retry === undefined || retry < RETRIES) {
    return {subscription: {...subscription, last_status: pendingStatus((retry ?? 0) + 1)}, event: 'charge:retry'}
  }
  return {subscription: {...subscription, last_status: ABORTED, next_billing_date: nextDate()}, event: 'charge:failed'}
}

/** The first billing date after `day`: the dates a retry chain covered are not billed again. */
function nextBillingDate(subscription: SubscriptionRecord, day: string): string {
  const frequency = frequencyNamed(subscription.frequency)
  if (!frequency) throw new Error(`subscription ${subscription.id} has an unknown frequency ${subscription.frequency}`)
  return billingDateAfter(subscription.start_date, frequency, day)
}

/** A resumed subscription bills from its next date on or after today, not for the days it was stopped. */
export function resumed(subscription: SubscriptionRecord, today: string): SubscriptionRecord {
  const frequency = frequencyNamed(subscription.frequency)
  const from = subscription.next_billing_date
  if (!frequency || from === null || from >= today) return {...subscription, is_active: true}
  return {...subscription, is_active: true, next_billing_date: billingDateFrom(subscription.start_date, frequency, today)}
}

/** Contract §8: the card expiring notice goes out this many days before the end of the expiry month. */
const EXPIRING_NOTICE_DAYS = 30

/** `card:expiring` from 30 days before the card's last valid day; `card:expired` once that day is over. */
export function expiryNotice(card: CardRecord, day: string): 'card:expiring' | 'card:expired' | undefined {
  if (card.card_expiry <= day) return 'card:expired'
  if (shiftDays(card.card_expiry, -EXPIRING_NOTICE_DAYS) <= day) return 'card:expiring'
  return undefined
}

interface AdvanceResult {
  from: string
  today: string
  days: number
  /** Events emitted, whether or not a hook takes them. */
  events: number
  /** Card charges made by subscriptions and payment plans, retries included, by outcome. */
  charges_approved: number
  charges_declined: number
  /** Web hook deliveries those events queued: one per event per hook that takes it. */
  deliveries_queued: number
}

type DayTally = Omit<AdvanceResult, 'from' | 'today' | 'days'>

/** Runs each day from today up to the day before `to`, then makes `to` today. */
export function advanceClock(ctx: SandboxContext, to: string): AdvanceResult {
  const from = ctx.clock.today()
  const tally: DayTally = {events: 0, charges_approved: 0, charges_declined: 0, deliveries_queued: 0}
  // Nothing is sent while the days run (this is synchronous), so the queue only grows.
  const queuedBefore = ctx.store.deliveries().length
  for (let day = from; day < to; day = shiftDays(day, 1)) {
    for (const merchant of ctx.store.merchantsWithRecords()) {
      runDay(ctx, merchant, day, tally)
      runPlanPayments(ctx, merchant, day, tally)
      runDirectDebits(ctx, merchant, day)
    }
    ctx.clock.moveTo(shiftDays(day, 1))
  }
  tally.deliveries_queued = ctx.store.deliveries().length - queuedBefore
  return {from, today: ctx.clock.today(), days: daysBetween(from, to), ...tally}
}

/**
 * Keeps the virtual date from falling behind the real one: a sandbox left running past midnight,
 * or restarted days later, runs the days it missed. A first start records today.
 */
export function catchUp(ctx: SandboxContext): void {
  const realToday = ctx.clock.realToday()
  if (ctx.store.today === undefined) ctx.clock.moveTo(realToday)
  else if (realToday > ctx.store.today) advanceClock(ctx, realToday)
}

/** One merchant's run at the end of `day`: queue what is due, charge it and the retries, then the cards. */
function runDay(ctx: SandboxContext, merchant: string, day: string, tally: DayTally): void {
  const {store, deliveries} = ctx
  const customers = new Map(store.list('customers', merchant).map((customer) => [customer.id, customer]))
  const subscriptions = store.list('subscriptions', merchant).filter((subscription) => customers.has(subscription.customer))
  const due = subscriptions.filter((subscription) => isDue(subscription, day))
  const retrying = subscriptions.filter((subscription) => subscription.is_active && queuedRetry(subscription) !== undefined)
  const customerOf = (subscription: SubscriptionRecord) => customers.get(subscription.customer) as CustomerRecord

  if (due.length > 0) {
    deliveries.publish(merchant, 'charge:pending', due.map((subscription) => pendingPayload(subscription, customerOf(subscription))))
    tally.events++
  }
  for (const subscription of [...due, ...retrying]) {
    const outcome = chargeSubscription(ctx, merchant, subscription, customerOf(subscription), day)
    if (outcome === undefined) continue
    tally.events++
    if (outcome === 'approved') tally.charges_approved++
    else tally.charges_declined++
  }
  for (const customer of customers.values()) {
    if (noticeCard(ctx, merchant, customer, day)) tally.events++
  }
}

function chargeSubscription(
  ctx: SandboxContext,
  merchant: string,
  subscription: SubscriptionRecord,
  customer: CustomerRecord,
  day: string,
): 'approved' | 'declined' | undefined {
  const plan = ownRecord(ctx.store.find('plans', merchant, subscription.plan))
  const card = ownRecord(ctx.store.find('cards', merchant, customer.card_token))
  if (!plan || !card) return undefined
  const purchase = chargeCard(ctx, merchant, {
    card,
    amount: plan.amount,
    reference: `${subscription.reference}-${day}`,
    currency: plan.currency,
    source: 'Recurring',
  })
  const after = afterCharge(subscription, purchase.successful, day)
  ctx.store.save('subscriptions', merchant, after.subscription)
  ctx.deliveries.publish(merchant, after.event, [chargePayload(after.subscription, customer, purchase, ctx.mode)])
  return purchase.successful ? 'approved' : 'declined'
}

/** Each notice goes out once per card and expiry date; `card:expired` only for an active subscription, which it stops. */
function noticeCard(ctx: SandboxContext, merchant: string, customer: CustomerRecord, day: string): boolean {
  const {store} = ctx
  const card = ownRecord(store.find('cards', merchant, customer.card_token))
  const notice = card && expiryNotice(card, day)
  if (!card || !notice || store.cardNoticesSent(card).includes(notice)) return false
  if (notice === 'card:expired') {
    const active = store.related('subscriptions', merchant, 'customer', customer.id).filter((subscription) => subscription.is_active)
    if (active.length === 0) return false
    for (const subscription of active) store.save('subscriptions', merchant, {...subscription, is_active: false})
  }
  store.recordCardNotice(card, notice)
  ctx.deliveries.publish(merchant, notice, [customerPayload(customer)])
  return true
}

const ownRecord = <T>(lookup: Lookup<T>): T | undefined => (lookup.found === 'own' ? lookup.record : undefined)
