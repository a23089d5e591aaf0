import type {PaymentPlanCreate} from '../api/schemas/payment-plan.js'
import type {Frequency} from '../api/schemas/recurring-rules.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {makeOnce, type MadeRequest} from './made-once.js'
import type {Sent} from './money.js'

/** A payment plan as gw takes it (gateway-beyond.md §9): a count of payments or an end date, or both. */
export interface PaymentPlanInput {
  customer: string
  reference: string
  amount: number
  currency?: string
  setupFee?: number
  startDate: string
  frequency: Frequency
  anniversary: number
  totalCount?: number
  endDate?: string
  description?: string
}

/** The request body, as the Ruby library sends it: `total_amount` is the count times the amount, and the one payment method recorded. */
export function paymentPlanBody(input: PaymentPlanInput): PaymentPlanCreate {
  return {
    customer: input.customer,
    payment_method: 'Credit Card',
    reference: input.reference,
    amount: input.amount,
    // Every official library's default, as a purchase's: sent, so the plan's record says it (the 2017-2019 builds answer null for none).
    currency: input.currency ?? 'AUD',
    setup_fee: input.setupFee ?? 0,
    start_date: input.startDate,
    frequency: input.frequency,
    anniversary: input.anniversary,
    ...(input.totalCount === undefined ? {} : {total_count: input.totalCount, total_amount: input.totalCount * input.amount}),
    ...(input.endDate === undefined ? {} : {end_date: input.endDate}),
    ...(input.description === undefined ? {} : {description: input.description}),
  }
}

/** The recorded gateway names a plan's customer by id (`071-C-…`): a reference is looked up first. */
const CUSTOMER_ID = /^\d{3}-C-/

/** Whether a plan's customer is given by its id, or by a reference to look up first. */
export const isCustomerId = (customer: string): boolean => CUSTOMER_ID.test(customer)

/** The plan's customer by id, as the gateway names it: a reference looked up. */
export async function planCustomerId(customer: string, {client}: Pick<Deps, 'client'>): Promise<string> {
  return isCustomerId(customer) ? customer : String((await client.customers.get(customer)).id ?? customer)
}

/** A plan sent once (made-once.ts): a lost answer is looked up by its reference, never resent. */
export async function createPaymentPlan(input: PaymentPlanInput, deps: Pick<Deps, 'client'>): Promise<Sent> {
  const body = paymentPlanBody({...input, customer: await planCustomerId(input.customer, deps)})
  return makeOnce(planRequest(body, deps.client), deps.client)
}

export function planRequest(body: PaymentPlanCreate, client: Deps['client']): MadeRequest {
  return {noun: 'payment plan', body, post: () => client.paymentPlans.create(body), lookUp: (reference) => client.paymentPlans.get(reference)}
}

/** Suspended: its schedule emptied; Active again: a new schedule (gateway-beyond.md §9). */
export async function setPaymentPlanStatus(id: string, status: 'Active' | 'Suspended', {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.paymentPlans.changeStatus(id, {new_status: status})
}

export async function cancelPaymentPlan(id: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.paymentPlans.cancel(id)
}
