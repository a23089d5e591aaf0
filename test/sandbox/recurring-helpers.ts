import {call, type Answer} from './helpers.js'
import type {RunningSandbox} from '../../src/sandbox/server/server.js'

/** Records of the recurring area, made over HTTP as merchant TEST unless `auth` says otherwise. */

export const PLAN = {name: 'Gold', amount: 1000, reference: 'gold', description: 'Gold membership'}

export const CUSTOMER = {
  first_name: 'Jo',
  last_name: 'Citizen',
  reference: 'jo',
  email: 'jo@example.com',
  ip_address: '203.0.113.9',
  card: {card_holder: 'Jo Citizen', card_number: '5123456789012346', expiry_date: '02/2030', cvv: '123'},
  address: {address: '1 Main St', city: 'Sydney', state: 'NSW', postcode: '2000', country: 'AU'},
}

export const TODAY = '2026-11-22'

export function createPlan(base: RunningSandbox, fields: Record<string, unknown> = {}, auth?: string): Promise<Answer> {
  return call(base, 'POST', '/v1.0/plans', {body: {...PLAN, ...fields}, auth})
}

export function createCustomer(base: RunningSandbox, fields: Record<string, unknown> = {}, auth?: string): Promise<Answer> {
  return call(base, 'POST', '/v1.0/customers', {body: {...CUSTOMER, ...fields}, auth})
}

export function createSubscription(base: RunningSandbox, fields: Record<string, unknown> = {}, auth?: string): Promise<Answer> {
  const body = {customer: 'jo', plan: 'gold', frequency: 'Daily', start_date: TODAY, reference: 'jo-gold', is_active: true, ...fields}
  return call(base, 'POST', '/v1.0/subscriptions', {body, auth})
}

/** A plan, a customer with `card` (MM/YYYY expiry as `expiry`) and a subscription of `frequency` from today. */
export async function subscribed(
  base: RunningSandbox,
  {frequency = 'Daily', card = '5123456789012346', expiry = '02/2030', amount = 1000} = {},
): Promise<{plan: Answer; customer: Answer; subscription: Answer}> {
  const plan = await createPlan(base, {amount})
  const customer = await createCustomer(base, {card: {...CUSTOMER.card, card_number: card, expiry_date: expiry}})
  const subscription = await createSubscription(base, {frequency})
  for (const answer of [plan, customer, subscription]) if (answer.status !== 201) throw new Error(answer.text)
  return {plan, customer, subscription}
}

export function registerHook(base: RunningSandbox, address: string, fields: Record<string, unknown> = {}, auth?: string): Promise<Answer> {
  return call(base, 'POST', '/v1.0/web_hooks', {body: {name: 'test', address, events: '*', mode: 'Test', ...fields}, auth})
}

export async function advance(base: RunningSandbox, body: Record<string, unknown>): Promise<Answer> {
  return call(base, 'POST', '/_sandbox/clock/advance', {body, auth: null})
}
