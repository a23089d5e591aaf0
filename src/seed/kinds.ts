import * as z from 'zod'
import {Card, CardTokenize, Customer, DirectDebit, PaymentPlan, Plan, PlanCreate, Purchase, PurchaseCreate, Refund, RefundCreate, Subscription, WebHook} from '../api/schemas/index.js'
import * as bankRules from '../api/schemas/bank-rules.js'
import {amountField, cardExpiryField, cardKeyField, cardNumberField, currencyField, cvvField, dateField, emailField, frequencyField, optionalText, requiredText} from '../api/schemas/fields.js'
import {GATEWAY_EVENTS} from '../api/schemas/recurring-rules.js'

/**
 * What a step of a fixtures file (gw sandbox seed) may create, the fields each takes (the API's
 * request fields, as the interface names them) and the checks each is held to before anything is
 * sent: the request fields' own rules (api/schemas/rules.ts), so a step is refused in the words a
 * flag or a batch row would be, naming the field.
 */
export const STEP_KINDS = ['card', 'plan', 'customer', 'purchase', 'refund', 'subscription', 'webhook', 'payment_plan', 'direct_debit'] as const
export type StepKind = (typeof STEP_KINDS)[number]

const httpUrl = z.string().refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}, 'must be an http or https URL')

// A step's fields are the request body's, but that no other key is taken (a typo would be dropped).
const CardFields = z.strictObject({...CardTokenize.shape, alias: cardKeyField})

const PlanFields = z.strictObject(PlanCreate.shape)

const CustomerFields = z.strictObject({
  first_name: requiredText,
  last_name: requiredText,
  reference: requiredText,
  email: emailField,
  ip_address: requiredText.optional(),
  card: z.strictObject({card_holder: requiredText.optional(), card_number: cardNumberField, expiry_date: cardExpiryField, cvv: cvvField}),
  address: z.strictObject({address: optionalText, city: optionalText, state: optionalText, postcode: optionalText, country: optionalText}).partial().optional(),
})

const PurchaseFields = z
  .strictObject(PurchaseCreate.shape)
  .superRefine((fields, check) => {
    const details = ['card_holder', 'card_number', 'card_expiry'] as const
    if (fields.card_token !== undefined) {
      for (const field of details) if (fields[field] !== undefined) check.addIssue({code: 'custom', path: [field], message: 'cannot be given with card_token: give the card or its token'})
      return
    }
    for (const field of details) if (fields[field] === undefined) check.addIssue({code: 'custom', path: [field], message: 'is required (or card_token, a stored card)'})
  })

const RefundFields = z.strictObject(RefundCreate.shape)

const SubscriptionFields = z.strictObject({
  customer: requiredText,
  plan: requiredText,
  frequency: frequencyField,
  start_date: dateField,
  reference: requiredText,
  /** Active unless the file says otherwise. */
  is_active: z.boolean().optional(),
})

const WebHookFields = z
  .strictObject({
    address: httpUrl,
    /** Every event unless the file names some. */
    events: z.union([z.literal('*'), z.array(z.enum(GATEWAY_EVENTS)).nonempty()], {error: `must be "*" or a list of event names: ${GATEWAY_EVENTS.join(', ')}`}).optional(),
    name: requiredText.optional(),
    authentication_username: requiredText.optional(),
    authentication_password: z.string().min(1, 'must not be blank').optional(),
  })
  .refine((fields) => (fields.authentication_username === undefined) === (fields.authentication_password === undefined), {
    message: 'authentication_username and authentication_password come together',
    path: ['authentication_password'],
  })

/** A payment plan as gw's flags take it, in the API's names: amounts in cents, a count of payments or an end date. */
const PaymentPlanFields = z
  .strictObject({
    customer: requiredText,
    reference: requiredText,
    amount: amountField,
    currency: currencyField.optional(),
    setup_fee: z.number().int().nonnegative().optional(),
    start_date: dateField,
    frequency: frequencyField,
    anniversary: z.number().int().min(0, 'must be a whole number from 0 to 31').max(31, 'must be a whole number from 0 to 31'),
    total_count: z.number().int().positive().optional(),
    end_date: dateField.optional(),
    description: requiredText.optional(),
  })
  .refine((fields) => fields.total_count !== undefined || fields.end_date !== undefined, {message: 'is required (or end_date): how many payments, or the day they end', path: ['total_count']})

/** Bank details by the rules --bsb and --account-number keep (bank-rules.ts). */
const bankField = (rule: (input: string) => {value: string} | {problem: string}, problem: string) => z.string().refine((value) => 'value' in rule(value), problem)

/** A direct debit: its amount in cents, as every amount in gw (sent in dollars); a reference, to be found by on a second run. */
const DirectDebitFields = z.strictObject({
  amount: amountField,
  description: requiredText,
  bsb: bankField(bankRules.bsb, 'must be six digits as 123-456'),
  account_name: requiredText,
  account_number: bankField(bankRules.accountNumber, 'must be digits only (at most 20)'),
  reference: requiredText,
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
  payment_plan: PaymentPlanFields,
  direct_debit: DirectDebitFields,
} as const satisfies Record<StepKind, z.ZodType>

export type StepFields = {[K in StepKind]: z.infer<(typeof FIELDS)[K]>}

/** The record a step makes, by its schema: the fields later steps may name in `{{step.field}}`. */
const RECORDS = {card: Card, plan: Plan, customer: Customer, purchase: Purchase, refund: Refund, subscription: Subscription, webhook: WebHook, payment_plan: PaymentPlan, direct_debit: DirectDebit} as const

export function recordFields(kind: StepKind): string[] {
  return Object.keys(RECORDS[kind].shape)
}

/** The fields a step of this kind takes, for an error that names an unknown one. */
export function fieldsOf(kind: StepKind): string[] {
  return Object.keys(FIELDS[kind].shape)
}
