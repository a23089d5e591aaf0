import * as z from 'zod'
import {luhnValid, MM_YYYY} from '../api/schemas/card-rules.js'
import {Card, Customer, Plan, Purchase, Refund, Subscription, WebHook} from '../api/schemas/index.js'
import {FREQUENCIES, frequencyNamed, WEBHOOK_EVENTS} from '../api/schemas/recurring-rules.js'
import {looksLikeCardNumber} from '../redact.js'

/**
 * What a step of a fixtures file (gw sandbox seed) may create, the fields each takes (the API's
 * request fields, as the interface names them) and the checks each is held to before anything is
 * sent: what the gateway would refuse as blank or malformed is refused here, naming the field.
 */
export const STEP_KINDS = ['card', 'plan', 'customer', 'purchase', 'refund', 'subscription', 'webhook'] as const
export type StepKind = (typeof STEP_KINDS)[number]

const text = z.string().refine((value) => value.trim() !== '', "can't be blank")
const cardDigits = (value: string) => value.replace(/[\s-]/g, '')
const cardNumber = z.string().superRefine((value, check) => {
  const digits = cardDigits(value)
  if (!/^\d{12,19}$/.test(digits)) check.addIssue({code: 'custom', message: 'must be 12 to 19 digits (spaces and dashes are ignored)'})
  else if (!luhnValid(digits)) check.addIssue({code: 'custom', message: 'fails the Luhn check: a digit is wrong or missing'})
})
const expiry = z.string().superRefine((value, check) => {
  if (!MM_YYYY.test(value.trim())) return check.addIssue({code: 'custom', message: 'must be MM/YYYY, such as 08/2031'})
  const [month, year] = value.trim().split('/').map(Number) as [number, number]
  const now = new Date()
  if (year * 12 + month - 1 < now.getFullYear() * 12 + now.getMonth()) check.addIssue({code: 'custom', message: `${value.trim()} is in the past: the card has expired`})
})
const cvv = z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits')
const amount = z.number().int('must be a whole number in the minor unit (1000 is 10.00)').positive('must be greater than 0')
/** A token or alias: never a card number given in its place, which would be sent and kept. */
const cardKey = text.refine((value) => !looksLikeCardNumber(value), 'is a card number, not a token or alias')
const calendarDate = z.string().refine((value) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  return match !== null && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
}, 'must be a date as YYYY-MM-DD')
const httpUrl = z.string().refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}, 'must be an http or https URL')

const CardFields = z.strictObject({card_holder: text, card_number: cardNumber, card_expiry: expiry, cvv, alias: cardKey})

const PlanFields = z.strictObject({name: text, amount, reference: text, description: text})

const CustomerFields = z.strictObject({
  first_name: text,
  last_name: text,
  reference: text,
  email: z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address'),
  ip_address: text.optional(),
  card: z.strictObject({card_holder: text.optional(), card_number: cardNumber, expiry_date: expiry, cvv}),
  address: z.strictObject({address: z.string(), city: z.string(), state: z.string(), postcode: z.string(), country: z.string()}).partial().optional(),
})

const PurchaseFields = z
  .strictObject({
    amount,
    reference: text,
    currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be a three-letter code such as AUD').optional(),
    customer_ip: text.optional(),
    card_holder: text.optional(),
    card_number: cardNumber.optional(),
    card_expiry: expiry.optional(),
    cvv: cvv.optional(),
    card_token: cardKey.optional(),
  })
  .superRefine((fields, check) => {
    const details = ['card_holder', 'card_number', 'card_expiry'] as const
    if (fields.card_token !== undefined) {
      for (const field of details) if (fields[field] !== undefined) check.addIssue({code: 'custom', path: [field], message: 'cannot be given with card_token: give the card or its token'})
      return
    }
    for (const field of details) if (fields[field] === undefined) check.addIssue({code: 'custom', path: [field], message: 'is required (or card_token, a stored card)'})
  })

const RefundFields = z.strictObject({transaction_id: text, amount, reference: text})

const SubscriptionFields = z.strictObject({
  customer: text,
  plan: text,
  frequency: z.string().refine((value) => frequencyNamed(value) !== undefined, `must be one of ${FREQUENCIES.join(', ')}`),
  start_date: calendarDate,
  reference: text,
  /** Active unless the file says otherwise. */
  is_active: z.boolean().optional(),
})

const WebHookFields = z
  .strictObject({
    address: httpUrl,
    /** Every event unless the file names some. */
    events: z.union([z.literal('*'), z.array(z.enum(WEBHOOK_EVENTS)).nonempty()], {error: `must be "*" or a list of event names: ${WEBHOOK_EVENTS.join(', ')}`}).optional(),
    name: text.optional(),
    authentication_username: text.optional(),
    authentication_password: z.string().min(1, "can't be blank").optional(),
  })
  .refine((fields) => (fields.authentication_username === undefined) === (fields.authentication_password === undefined), {
    message: 'authentication_username and authentication_password come together',
    path: ['authentication_password'],
  })

/** The fields of each step's `fields`, checked. */
export const FIELDS = {
  card: CardFields,
  plan: PlanFields,
  customer: CustomerFields,
  purchase: PurchaseFields,
  refund: RefundFields,
  subscription: SubscriptionFields,
  webhook: WebHookFields,
} as const satisfies Record<StepKind, z.ZodType>

export type StepFields = {[K in StepKind]: z.infer<(typeof FIELDS)[K]>}

/** The record a step makes, by its schema: the fields later steps may name in `{{step.field}}`. */
const RECORDS = {card: Card, plan: Plan, customer: Customer, purchase: Purchase, refund: Refund, subscription: Subscription, webhook: WebHook} as const

export function recordFields(kind: StepKind): string[] {
  return Object.keys(RECORDS[kind].shape)
}

/** The fields a step of this kind takes, for an error that names an unknown one. */
export function fieldsOf(kind: StepKind): string[] {
  return Object.keys(FIELDS[kind].shape)
}
