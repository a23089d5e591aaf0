import type {SandboxContext} from '../context.js'
import type {Route} from '../http.js'
import {addFault, clearFaults, describeSandbox, listFaults, resetSandbox} from './control.js'
import {getCard, tokenizeCard, updateCard} from './credit-cards.js'
import {createPurchase, getPurchase} from './purchases.js'
import {createRefund, getRefund} from './refunds.js'

/** Every endpoint the sandbox answers; `:key` is an id, token, reference or alias. */
export const routes: Route<SandboxContext>[] = [
  {method: 'POST', path: '/v1.0/credit_cards', auth: 'merchant', handle: tokenizeCard},
  {method: 'GET', path: '/v1.0/credit_cards/:key', auth: 'merchant', handle: getCard},
  {method: 'PUT', path: '/v1.0/credit_cards/:key', auth: 'merchant', handle: updateCard},
  {method: 'POST', path: '/v1.0/purchases', auth: 'merchant', handle: createPurchase},
  {method: 'GET', path: '/v1.0/purchases/:key', auth: 'merchant', handle: getPurchase},
  {method: 'POST', path: '/v1.0/refunds', auth: 'merchant', handle: createRefund},
  {method: 'GET', path: '/v1.0/refunds/:key', auth: 'merchant', handle: getRefund},
  {method: 'GET', path: '/_sandbox/info', auth: 'none', handle: describeSandbox},
  {method: 'POST', path: '/_sandbox/reset', auth: 'none', handle: resetSandbox},
  {method: 'GET', path: '/_sandbox/faults', auth: 'none', handle: listFaults},
  {method: 'POST', path: '/_sandbox/faults', auth: 'none', handle: addFault},
  {method: 'DELETE', path: '/_sandbox/faults', auth: 'none', handle: clearFaults},
]
