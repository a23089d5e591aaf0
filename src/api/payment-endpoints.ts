import {DirectDebit, DirectDebitCreate, listOf, PaymentPlan, PaymentPlanCreate, PaymentPlanStatus} from './schemas/index.js'

/**
 * The gateway's newer recurring and bank-debit systems (gateway-beyond.md §9-10), declared as the
 * rest of the endpoint table (endpoints.ts takes them in). Neither is a purchase or refund: no
 * look-up recovers a lost answer; a create is confirmed on a live profile by its amount, and what
 * stops a customer's billing or removes a debit by its id.
 */
const define = <const E>(endpoint: E): E => endpoint

export const paymentPlanEndpoints = {
  create: define({method: 'POST', path: '/v1.0/payment_plans', body: PaymentPlanCreate, response: PaymentPlan, confirm: 'amount'}),
  // Recorded by reference; the local gateway takes an id as well.
  get: define({method: 'GET', path: '/v1.0/payment_plans/{id}', response: PaymentPlan}),
  // No recorded gateway shows one; the local gateway has it (payment-plan list says when a gateway has none).
  list: define({method: 'GET', path: '/v1.0/payment_plans', response: listOf<PaymentPlan>(), paged: true}),
  changeStatus: define({method: 'PUT', path: '/v1.0/payment_plans/{id}', body: PaymentPlanStatus, response: PaymentPlan, confirm: 'id'}),
  cancel: define({method: 'DELETE', path: '/v1.0/payment_plans/{id}', response: PaymentPlan, confirm: 'id'}),
} as const

export const directDebitEndpoints = {
  // Its amount is in dollars: a live confirmation reads it as such.
  create: define({method: 'POST', path: '/v1.0/direct_debits', body: DirectDebitCreate, response: DirectDebit, confirm: 'amount', dollars: true}),
  get: define({method: 'GET', path: '/v1.0/direct_debits/{id}', response: DirectDebit}),
  list: define({method: 'GET', path: '/v1.0/direct_debits', response: listOf<DirectDebit>(), paged: true}),
  delete: define({method: 'DELETE', path: '/v1.0/direct_debits/{id}', response: DirectDebit, confirm: 'id'}),
} as const
