import {bsb as bsbRule, centsOf} from '../api/schemas/bank-rules.js'
import {frequencyNamed} from '../api/schemas/recurring-rules.js'
import type {StepFields} from '../seed/kinds.js'
import {createDirectDebit} from './direct-debits.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {createPaymentPlan} from './payment-plans.js'
import {madeRecord} from './made-once.js'
import {existing, idOf} from './seed-dates.js'

/**
 * The steps of a fixtures file that bill on a schedule: a payment plan and a direct debit, made
 * through the operations gw payment-plan create and gw direct-debit create run, found again by
 * their reference. What was found is handed back with the fields to compare it with, read alike.
 */
export type Made = {created: GwRecord} | {held: GwRecord; compared: Record<string, unknown>; against?: GwRecord}

export async function paymentPlanStep(fields: StepFields['payment_plan'], deps: Deps): Promise<Made> {
  const held = await existing('paymentPlans', fields.reference, deps)
  if (held) return {held, compared: {...fields, customer: await idOf('customers', fields.customer, held.customer, deps)}}
  const input = {
    customer: fields.customer,
    reference: fields.reference,
    amount: fields.amount,
    currency: fields.currency?.toUpperCase(),
    setupFee: fields.setup_fee,
    startDate: fields.start_date,
    frequency: frequencyNamed(fields.frequency)!,
    anniversary: fields.anniversary,
    totalCount: fields.total_count,
    endDate: fields.end_date,
    description: fields.description,
  }
  return {created: madeRecord(await createPaymentPlan(input, deps))}
}

export async function directDebitStep(fields: StepFields['direct_debit'], deps: Deps): Promise<Made> {
  const checked = bsbRule(fields.bsb)
  const bsb = 'value' in checked ? checked.value : fields.bsb
  const held = await existing('directDebits', fields.reference, deps)
  // The gateway keeps a debit's amount in dollars: compared in cents, as the file gives it.
  if (held) return {held, compared: {...fields, bsb}, against: {...held, amount: typeof held.amount === 'number' ? centsOf(held.amount) : held.amount}}
  const input = {amount: fields.amount, description: fields.description, bsb, accountName: fields.account_name, accountNumber: fields.account_number.trim(), reference: fields.reference}
  return {created: madeRecord(await createDirectDebit(input, deps))}
}
