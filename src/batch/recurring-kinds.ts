import {centsOf} from '../api/schemas/bank-rules.js'
import * as bankRules from '../api/schemas/bank-rules.js'
import type {DirectDebitCreate} from '../api/schemas/direct-debit.js'
import type {PaymentPlanCreate} from '../api/schemas/payment-plan.js'
import * as rules from '../api/schemas/rules.js'
import {debitReferences, debitRequest, directDebitBody, type DirectDebitInput} from '../operations/direct-debits.js'
import {findEarlierMade, makeOnce} from '../operations/made-once.js'
import {isCustomerId, paymentPlanBody, type PaymentPlanInput, planCustomerId, planRequest} from '../operations/payment-plans.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {BatchKind} from './kinds.js'
import {field, required, type RowSchema} from './rows.js'

/**
 * Payment plans and direct debits made from a file (gateway-beyond.md §9-10), journaled as
 * purchases are (design.md §5): each row is made once, its outcome `made` (exit 0). A lost answer,
 * or a row an earlier run left in doubt, is looked up by its reference: a plan the gateway does not
 * have is sent once the processing window is over; a debit it does not find is left in doubt
 * (exit 8), never sent again, as the gateway is known to find a debit by its id only.
 */

export const paymentPlanRows: RowSchema<PaymentPlanInput> = {
  required: ['customer', 'amount', 'frequency', 'anniversary', 'start_date', 'reference'],
  optional: ['total_count', 'end_date', 'currency', 'setup_fee', 'description'],
  example: 'customer,amount,frequency,anniversary,start_date,total_count,reference',
  read(fields) {
    const errors: string[] = []
    const optional = <T>(name: string, rule: (text: string) => rules.Checked<T>) => (fields[name] ? field(fields, name, rule, errors) : undefined)
    const customer = field(fields, 'customer', rules.notBlank, errors)
    const reference = field(fields, 'reference', rules.reference, errors)
    const amount = field(fields, 'amount', required(rules.amount), errors)
    const frequency = field(fields, 'frequency', rules.frequency, errors)
    const anniversary = field(fields, 'anniversary', bankRules.anniversary, errors)
    const startDate = field(fields, 'start_date', rules.date, errors)
    const totalCount = optional('total_count', bankRules.count)
    const endDate = optional('end_date', rules.date)
    // A plan says when it ends: a count of payments, an end date, or both (gateway-beyond.md §9).
    if (!fields.total_count && !fields.end_date) errors.push('total_count or end_date must be given: a plan says when it ends')
    const currency = optional('currency', rules.currency)
    const setupFee = optional('setup_fee', bankRules.fee)
    const description = optional('description', rules.text)
    if (errors.length > 0) return {errors, reference: fields.reference || undefined}
    const input = {customer: customer!, reference: reference!, amount: amount!, currency, setupFee, startDate: startDate!, frequency: frequency!, anniversary: anniversary!, totalCount, endDate, description}
    return {input, reference: reference!}
  },
}

export const directDebitRows: RowSchema<DirectDebitInput> = {
  required: ['amount', 'description', 'bsb', 'account_name', 'account_number'],
  optional: ['reference'],
  example: 'amount,description,bsb,account_name,account_number,reference',
  read(fields) {
    const errors: string[] = []
    const amount = field(fields, 'amount', required(rules.amount), errors)
    const description = field(fields, 'description', rules.text, errors)
    const bsb = field(fields, 'bsb', required(bankRules.bsb), errors)
    const accountName = field(fields, 'account_name', rules.text, errors)
    const accountNumber = field(fields, 'account_number', required(bankRules.accountNumber), errors)
    // A blank reference is made when the row is sent (derivedDebitReference), or is the one its journal holds for the row on a rerun.
    const reference = fields.reference ? field(fields, 'reference', rules.reference, errors) : undefined
    if (errors.length > 0) return {errors, reference: fields.reference || undefined}
    return {input: {amount: amount!, description: description!, bsb: bsb!, accountName: accountName!, accountNumber: accountNumber!, reference}, reference}
  },
}

/** A plan's money: each payment's amount, in the currency sent or the one the gateway answered with. */
function planMoney(body: PaymentPlanCreate, record?: GwRecord): {amount?: number; currency?: string} {
  return {amount: body.amount, currency: body.currency ?? (typeof record?.currency === 'string' ? record.currency : undefined)}
}

/** A debit's money in cents, as every amount gw shows: the gateway takes and gives dollars, of the merchant's account (AUD). */
function debitMoney(body: DirectDebitCreate): {amount?: number; currency?: string} {
  return {amount: centsOf(body.amount), currency: 'AUD'}
}

/** `gw payment-plan create --input FILE`: a row's customer given by reference is looked up first, and the plan sent with its id. */
export const paymentPlanBatch: BatchKind<PaymentPlanInput, PaymentPlanCreate> = {
  noun: 'payment plan',
  commandId: 'payment-plan create',
  schema: paymentPlanRows,
  preview: (input) => paymentPlanBody(input),
  sender: (deps) => ({
    noun: 'payment plan',
    request: async (input) => paymentPlanBody({...input, customer: await planCustomerId(input.customer, deps)}),
    asksFirst: (input) => !isCustomerId(input.customer),
    send: (body) => makeOnce(planRequest(body, deps.client), deps.client),
    findEarlier: (body) => findEarlierMade(planRequest(body, deps.client)),
    asked: (input) => paymentPlanBody(input),
    money: planMoney,
  }),
}

/**
 * A debit row as the file asks for it: its amount in cents, as the file gives it (the request's is
 * in dollars), in the account's currency. What a rerun tells an edited row by, and the dry run shows.
 */
function debitAsked(input: DirectDebitInput): Record<string, unknown> & {amount: number; currency: string} {
  return {...directDebitBody(input), amount: input.amount, currency: 'AUD'}
}

/** `gw direct-debit create --input FILE`: a row without a reference gets one made for it (debitReferences), journaled before it is sent. */
export const directDebitBatch: BatchKind<DirectDebitInput, DirectDebitCreate & {reference: string}> = {
  noun: 'direct debit',
  commandId: 'direct-debit create',
  schema: directDebitRows,
  preview: debitAsked,
  sender: (deps, taken) => {
    const made = debitReferences(taken)
    return {
      noun: 'direct debit',
      request: async (input) => {
        // The row's reference from now on (rows.ts): its journal entries and its line name it.
        input.reference ??= made()
        return {...directDebitBody(input), reference: input.reference}
      },
      asksFirst: () => false,
      send: (body) => makeOnce(debitRequest(body, deps.client), deps.client),
      // The gateway finds a debit by its id: one an earlier answer gave is looked up by it.
      findEarlier: (body, answered) => findEarlierMade(debitRequest(body, deps.client), typeof answered?.id === 'string' ? answered.id : undefined),
      asked: debitAsked,
      money: debitMoney,
    }
  },
}
