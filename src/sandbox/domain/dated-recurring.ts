import type {SandboxContext} from '../context.js'
import {SCHEDULED} from './billing.js'
import {DEBIT_STATUS, PLAN_STATUS} from './choices.js'
import {formatDate, formatDateTime} from './clock.js'
import {afterDay, firstDebitDay} from './direct-debit.js'
import {badRequest} from './errors.js'
import type {DirectDebitRecord, PaymentPlanRecord} from './payment-records.js'
import {scheduled} from './payment-plan.js'
import type {SubscriptionRecord} from './records.js'
import {shiftDays} from './schedule.js'
import {isCalendarDate} from '../../lib/days.js'

/**
 * Subscriptions, payment plans and direct debits dated in the past (gw sandbox seed's `at`): each
 * made then, its billing following from that day as the clock bills it. Only one not yet billed
 * is dated: what it made cannot be moved. A subscription's or plan's payments that fell due since
 * are charged at the end of the clock's today, as anything due is (gw sandbox clock advance); a
 * debit has been to the bank and back by the days that have ended since, as the clock runs them.
 */

/** `start_date`: the day its billing starts, on or after the day it is dated (the gateway refuses one before its today on creation). */
export function datedSubscription(ctx: SandboxContext, merchant: string, key: string, when: Date, startDate: string | undefined): SubscriptionRecord {
  const subscription = ctx.store.get('subscriptions', merchant, key, 'Record not found')
  const day = formatDate(when)
  const start = startDate ?? subscription.start_date
  if (!isCalendarDate(start)) throw badRequest(['Start date must be a date as YYYY-MM-DD'])
  if (start < day) throw badRequest([`Start date ${start} is before the subscription was made (${day}): it starts then or later`])
  if (subscription.last_status !== SCHEDULED || subscription.next_billing_date !== subscription.start_date) {
    throw badRequest([`Subscription ${subscription.reference} has been billed already: only one not yet billed is dated`])
  }
  const dated = {...subscription, created_at: formatDateTime(when), start_date: start, next_billing_date: start} satisfies SubscriptionRecord
  ctx.store.saveDated('subscriptions', merchant, dated)
  return dated
}

/** Its schedule made again from the day it is dated (or its start date, if later), as it would have been made then. */
export function datedPaymentPlan(ctx: SandboxContext, merchant: string, key: string, when: Date): PaymentPlanRecord {
  const plan = ctx.store.get('payment_plans', merchant, key, 'Record not found')
  if (plan.status !== PLAN_STATUS.active) throw badRequest([`Payment plan ${plan.reference} is ${plan.status}: only an Active one is dated`])
  if (plan.payments.some((payment) => payment.records.length > 0)) throw badRequest([`Payment plan ${plan.reference} has made payments: only one not yet billed is dated`])
  const day = formatDate(when)
  const from = plan.start_date > day ? plan.start_date : day
  const dated = scheduled(ctx, merchant, {...plan, created_at: formatDateTime(when), payments: []}, from)
  if (dated.payments.length === 0) throw badRequest([`End date ${plan.end_date} is before the first payment day from ${from}`])
  ctx.store.saveDated('payment_plans', merchant, dated)
  return dated
}

/** Sent to the bank the first business day it could be from then, and moved on by each day that has ended since. */
export function datedDirectDebit(ctx: SandboxContext, merchant: string, key: string, when: Date): DirectDebitRecord {
  const debit = ctx.store.get('direct_debits', merchant, key, 'Record not found')
  if (debit.status !== DEBIT_STATUS.new) throw badRequest([`Direct debit ${debit.reference} is ${debit.status}: only a New one is dated`])
  const yesterday = shiftDays(ctx.clock.today(), -1)
  // At most two steps: to the bank, then its answer.
  const dated = afterDay(afterDay({...debit, created_at: formatDateTime(when), date: firstDebitDay(when)}, yesterday), yesterday)
  ctx.store.saveDated('direct_debits', merchant, dated)
  return dated
}
