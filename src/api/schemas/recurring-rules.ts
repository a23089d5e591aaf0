/** Subscription frequencies and web hook events with no zod in them, for flag checks at start-up. */

/** As the vendor spells them (gateway-notes.md); the contract shows only Daily and Weekly. */
export const FREQUENCIES = ['Daily', 'Weekly', 'Fortnightly', 'Monthly', 'Quarterly', 'Bi-Annually', 'Annually'] as const
export type Frequency = (typeof FREQUENCIES)[number]

/** The gateway's spelling of a frequency given in any case, or undefined for an unknown one. */
export function frequencyNamed(input: string): Frequency | undefined {
  const wanted = input.trim().toLowerCase()
  return FREQUENCIES.find((frequency) => frequency.toLowerCase() === wanted)
}

/** The events of the contract's §6. */
export const WEBHOOK_EVENTS = ['charge:pending', 'charge:successful', 'charge:retry', 'charge:failed', 'card:expiring', 'card:expired'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/**
 * A payment plan's payment made (`completed`), declined by the bank (`declined`), or not attempted
 * (`error`): the names the vendor's web hooks send, as an integrator lists them (docs.meiro.io,
 * "FatZebra webhook"); their payloads are not published.
 */
export const PAYMENT_PLAN_EVENTS = ['payment_plan_payment:completed', 'payment_plan_payment:declined', 'payment_plan_payment:error'] as const
export type PaymentPlanEvent = (typeof PAYMENT_PLAN_EVENTS)[number]

/** Every event the local gateway sends: the contract's, then the payment plans'. */
export const GATEWAY_EVENTS = [...WEBHOOK_EVENTS, ...PAYMENT_PLAN_EVENTS] as const
export type GatewayEvent = (typeof GATEWAY_EVENTS)[number]

const PLAN_EVENT_NAMES: readonly string[] = PAYMENT_PLAN_EVENTS
export const isPaymentPlanEvent = (event: GatewayEvent): event is PaymentPlanEvent => PLAN_EVENT_NAMES.includes(event)

/** Where a web hook delivery of the local gateway stands (gw sandbox deliveries --status). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]
