import type {Mode} from './mode.js'
import {envelope} from './envelope.js'
import type {CustomerRecord, PurchaseRecord, SubscriptionRecord} from './records.js'

/** The payload elements of web hook events, field for field as contract §6 lists them. */

export const customerPayload = (customer: CustomerRecord) => ({
  email: customer.email,
  first_name: customer.first_name,
  last_name: customer.last_name,
  reference: customer.reference,
  id: customer.id,
})

/** A `charge:pending` element: the queued subscription and its customer. */
export const pendingPayload = (subscription: SubscriptionRecord, customer: CustomerRecord) => ({
  id: subscription.id,
  frequency: subscription.frequency,
  start_date: subscription.start_date,
  end_date: subscription.end_date,
  reference: subscription.reference,
  customer: customerPayload(customer),
})

/** A `charge:successful`, `charge:retry` or `charge:failed` element: the subscription and the purchase answer. */
export const chargePayload = (subscription: SubscriptionRecord, customer: CustomerRecord, purchase: PurchaseRecord, mode: Mode) => ({
  subscription: {...pendingPayload(subscription, customer), last_status: subscription.last_status},
  response: envelope(mode, true, purchase, []),
})
