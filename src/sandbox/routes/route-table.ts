import type {SandboxContext} from '../context.js'
import type {Route} from './route.js'
import {addFault, advance, clearFaults, describeSandbox, listDeliveries, listFaults, listRequests, redeliver, resetSandbox, showClock, showInstance, showProcess, stopSandbox} from './control.js'
import {getCard, listCards, tokenizeCard, updateCard} from './credit-cards.js'
import {createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer} from './customers.js'
import {createPlan, getPlan, listPlans, updatePlan} from './plans.js'
import {createPurchase, getPurchase, listPurchases} from './purchases.js'
import {createRefund, getRefund, listRefunds, voidRefundRoute} from './refunds.js'
import {capturePurchase, listSettlement, updatePurchase, voidPurchaseRoute} from './authorizations.js'
import {ping} from './ping.js'
import {createSubscription, getSubscription, listSubscriptions, updateSubscription} from './subscriptions.js'
import {dateRecord} from './dated.js'
import {makeHistoryRoute} from './history.js'
import {trigger} from './trigger.js'
import {cancelPaymentPlan, createPaymentPlan, getPaymentPlan, listPaymentPlans, updatePaymentPlan} from './payment-plans.js'
import {createDirectDebit, getDirectDebit, listDirectDebits, removeDirectDebit} from './direct-debits.js'
import {createWebHook, deleteWebHook, listWebHooks, updateWebHook} from './web-hooks.js'

/** Every endpoint the sandbox answers; `:key` is an id, token, reference or alias. */
export const routes: Route<SandboxContext>[] = [
  {method: 'POST', path: '/v1.0/credit_cards', auth: 'merchant', handle: tokenizeCard},
  {method: 'GET', path: '/v1.0/credit_cards', auth: 'merchant', handle: listCards},
  {method: 'GET', path: '/v1.0/credit_cards/:key', auth: 'merchant', handle: getCard},
  {method: 'PUT', path: '/v1.0/credit_cards/:key', auth: 'merchant', handle: updateCard},
  {method: 'POST', path: '/v1.0/purchases', auth: 'merchant', handle: createPurchase},
  {method: 'GET', path: '/v1.0/purchases', auth: 'merchant', handle: listPurchases},
  // Before the look-up by key, which would take `settlement` for a reference.
  {method: 'GET', path: '/v1.0/purchases/settlement', auth: 'merchant', handle: listSettlement},
  {method: 'GET', path: '/v1.0/purchases/:key', auth: 'merchant', handle: getPurchase},
  {method: 'PUT', path: '/v1.0/purchases/:key', auth: 'merchant', handle: updatePurchase},
  {method: 'POST', path: '/v1.0/purchases/:key/capture', auth: 'merchant', handle: capturePurchase},
  {method: 'POST', path: '/v1.0/purchases/void', auth: 'merchant', handle: voidPurchaseRoute},
  {method: 'POST', path: '/v1.0/refunds', auth: 'merchant', handle: createRefund},
  {method: 'GET', path: '/v1.0/refunds', auth: 'merchant', handle: listRefunds},
  {method: 'GET', path: '/v1.0/refunds/:key', auth: 'merchant', handle: getRefund},
  {method: 'POST', path: '/v1.0/refunds/void', auth: 'merchant', handle: voidRefundRoute},
  {method: 'POST', path: '/v1.0/plans', auth: 'merchant', handle: createPlan},
  {method: 'GET', path: '/v1.0/plans', auth: 'merchant', handle: listPlans},
  {method: 'GET', path: '/v1.0/plans/:key', auth: 'merchant', handle: getPlan},
  {method: 'PUT', path: '/v1.0/plans/:key', auth: 'merchant', handle: updatePlan},
  {method: 'POST', path: '/v1.0/customers', auth: 'merchant', handle: createCustomer},
  {method: 'GET', path: '/v1.0/customers', auth: 'merchant', handle: listCustomers},
  {method: 'GET', path: '/v1.0/customers/:key', auth: 'merchant', handle: getCustomer},
  {method: 'PUT', path: '/v1.0/customers/:key', auth: 'merchant', handle: updateCustomer},
  {method: 'DELETE', path: '/v1.0/customers/:key', auth: 'merchant', handle: deleteCustomer},
  {method: 'POST', path: '/v1.0/subscriptions', auth: 'merchant', handle: createSubscription},
  {method: 'GET', path: '/v1.0/subscriptions', auth: 'merchant', handle: listSubscriptions},
  {method: 'GET', path: '/v1.0/subscriptions/:key', auth: 'merchant', handle: getSubscription},
  {method: 'PUT', path: '/v1.0/subscriptions/:key', auth: 'merchant', handle: updateSubscription},
  {method: 'POST', path: '/v1.0/web_hooks', auth: 'merchant', handle: createWebHook},
  {method: 'GET', path: '/v1.0/web_hooks', auth: 'merchant', handle: listWebHooks},
  {method: 'PUT', path: '/v1.0/web_hooks/:key', auth: 'merchant', handle: updateWebHook},
  {method: 'DELETE', path: '/v1.0/web_hooks/:key', auth: 'merchant', handle: deleteWebHook},
  {method: 'POST', path: '/v1.0/payment_plans', auth: 'merchant', handle: createPaymentPlan},
  {method: 'GET', path: '/v1.0/payment_plans', auth: 'merchant', handle: listPaymentPlans},
  {method: 'GET', path: '/v1.0/payment_plans/:key', auth: 'merchant', handle: getPaymentPlan},
  {method: 'PUT', path: '/v1.0/payment_plans/:key', auth: 'merchant', handle: updatePaymentPlan},
  {method: 'DELETE', path: '/v1.0/payment_plans/:key', auth: 'merchant', handle: cancelPaymentPlan},
  {method: 'POST', path: '/v1.0/direct_debits', auth: 'merchant', handle: createDirectDebit},
  {method: 'GET', path: '/v1.0/direct_debits', auth: 'merchant', handle: listDirectDebits},
  {method: 'GET', path: '/v1.0/direct_debits/:key', auth: 'merchant', handle: getDirectDebit},
  {method: 'DELETE', path: '/v1.0/direct_debits/:key', auth: 'merchant', handle: removeDirectDebit},
  {method: 'GET', path: '/ping', auth: 'merchant', handle: ping},
  {method: 'GET', path: '/_sandbox/info', auth: 'none', handle: describeSandbox},
  // The guard lets only the control token in: guard.ts.
  {method: 'GET', path: '/_sandbox/process', auth: 'none', handle: showProcess},
  {method: 'POST', path: '/_sandbox/stop', auth: 'none', handle: stopSandbox},
  {method: 'POST', path: '/_sandbox/reset', auth: 'none', handle: resetSandbox},
  {method: 'GET', path: '/_sandbox/faults', auth: 'none', handle: listFaults},
  {method: 'POST', path: '/_sandbox/faults', auth: 'none', handle: addFault},
  {method: 'DELETE', path: '/_sandbox/faults', auth: 'none', handle: clearFaults},
  {method: 'GET', path: '/_sandbox/instance', auth: 'none', handle: showInstance},
  {method: 'GET', path: '/_sandbox/clock', auth: 'none', handle: showClock},
  {method: 'POST', path: '/_sandbox/clock/advance', auth: 'none', handle: advance},
  {method: 'POST', path: '/_sandbox/trigger', auth: 'none', handle: trigger},
  {method: 'POST', path: '/_sandbox/dated/:key', auth: 'merchant', handle: dateRecord},
  {method: 'POST', path: '/_sandbox/history', auth: 'merchant', handle: makeHistoryRoute},
  {method: 'GET', path: '/_sandbox/deliveries', auth: 'none', handle: listDeliveries},
  {method: 'POST', path: '/_sandbox/deliveries/:id/redeliver', auth: 'none', handle: redeliver},
  {method: 'GET', path: '/_sandbox/requests', auth: 'none', handle: listRequests},
]
