import type {PurchaseCreate} from '../api/schemas/purchase.js'
import type {RefundCreate} from '../api/schemas/refund.js'
import {frequencyNamed, type GatewayEvent} from '../api/schemas/recurring-rules.js'
import type {Environment} from '../auth/config.js'
import {type GwError, RejectedError, stoppedByStdout, UsageError} from '../errors.js'
import {asGwError} from '../lib/as-gw-error.js'
import type {Difference} from '../money/decide.js'
import {maskCardNumber} from '../safety/redact.js'
import {describeSeedDifferences, seedDifferences} from '../seed/differences.js'
import {resolveFields} from '../seed/file.js'
import {type DatedAt, type SeedStep, stepName} from '../seed/step.js'
import type {StepFields, StepKind} from '../seed/kinds.js'
import {tokenizeCard, updateCard} from './cards.js'
import {createCustomer} from './customers.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {lookUp} from './look-up.js'
import type {Sent} from './money.js'
import {createPlan} from './plans.js'
import {findEarlierPurchase, sendPurchase} from './purchases.js'
import {findEarlierRefund, sendRefund} from './refunds.js'
import {createSubscription} from './subscriptions.js'
import {createWebHook} from './webhooks.js'
import {listRecords} from './lists.js'
import {existing, idOf, refuseGatewayDates} from './seed-dates.js'
import {directDebitStep, type Made, paymentPlanStep} from './seed-recurring.js'

/**
 * created: sent now; present: found under its reference (alias, address) with the step's values,
 * so not sent again; differs: found there with other values (exit 7), nothing sent; declined: a
 * purchase sent now, and declined.
 */
export type SeedStatus = 'created' | 'present' | 'differs' | 'declined' | 'failed'

export interface SeedReport {
  step: number
  name: string
  create: StepKind
  status: SeedStatus
  record?: GwRecord
  /** Where the record found differs from the step: the file's value (expected) and the gateway's (found). */
  differences?: Difference[]
  error?: GwError
}

type Outcome = {status: Exclude<SeedStatus, 'failed' | 'differs'>; record: GwRecord} | {status: 'differs'; record: GwRecord; differences: Difference[]; error: GwError}

/**
 * Runs a fixtures file's steps in order, through the same operations as gw's commands, against
 * a sandbox only. A step whose record exists already (its reference, a card's alias, a web hook's
 * address) with the step's values is reported present and not sent, so a second run creates
 * nothing; with other values, it differs (exit 7, naming the fields): the gateway does not hold what
 * the file says. Each step is reported as it ends; the first that fails or differs stops the run
 * (later steps may need it) with its error.
 */
export async function seed(steps: SeedStep[], {environment, source, recordRefund}: {environment: Environment; source: string; recordRefund?: RecordRefund}, deps: Deps, onStep: (report: SeedReport) => void): Promise<SeedReport[]> {
  if (environment !== 'sandbox') {
    throw new UsageError('Fixtures are created on a sandbox only, and the target is live: nothing was sent')
  }
  await refuseGatewayDates(steps, source, deps)
  const records = new Map<string, GwRecord>()
  const reports: SeedReport[] = []
  for (const step of steps) {
    // stdout's reader went away (`| head -1`): no new step starts, as no new batch row does. What
    // was printed is let out first, for a failure to write it to be known.
    await deps.io.flushOut()
    const broken = deps.io.outFailure()
    if (broken) throw stoppedByStdout(broken, `no more steps were started (${reports.length} of ${steps.length} ran)`, 'Run the same command again: the steps that ran are found present and not sent again, and the rest are made.')
    const {step: number, name, create} = step
    let outcome: Outcome
    try {
      const fields = resolveFields(step, records)
      outcome = await dated(step, fields, await runStep(step, fields, {environment, deps, at: step.at, recordRefund}), deps)
    } catch (err) {
      const error = asGwError(err)
      const failed = {step: number, name, create, status: 'failed' as const, error}
      onStep(failed)
      error.message = `${stepName(step)}: ${error.message}`
      throw error
    }
    const report = {step: number, name, create, ...outcome}
    onStep(report)
    if (outcome.status === 'differs') {
      outcome.error.message = `${stepName(step)}: ${outcome.error.message}`
      throw outcome.error
    }
    records.set(name, outcome.record)
    reports.push(report)
  }
  return reports
}

/** Where each dated kind is dated at the local gateway, the resource it is read again from, and the field its date is in. */
const DATED = {
  purchase: {collection: 'purchases', resource: 'purchases', field: 'transaction_date'},
  refund: {collection: 'refunds', resource: 'refunds', field: 'transaction_date'},
  customer: {collection: 'customers', resource: 'customers', field: 'created_at'},
  subscription: {collection: 'subscriptions', resource: 'subscriptions', field: 'created_at'},
  payment_plan: {collection: 'payment_plans', resource: 'paymentPlans', field: 'created_at'},
  // A debit shows no date it was made: the day it goes to the bank, the first business day from then.
  direct_debit: {collection: 'direct_debits', resource: 'directDebits', field: 'date'},
} as const

/** A debit made on `day` goes to the bank on that day, or up to three days later (after the cut-off on a Friday). */
const debitDayOf = (day: string, found: string) => found >= day && Date.parse(found) - Date.parse(day) <= 3 * 86_400_000

/** Whether the record found holds the date the step names: the day it names, or the instant to the second. */
function datedSo(create: keyof typeof DATED, at: DatedAt, found: unknown): boolean {
  if (typeof found !== 'string') return false
  if (create === 'direct_debit') return debitDayOf(at.onDay, found)
  return at.day === undefined ? Math.floor(Date.parse(found) / 1000) === Math.floor(Date.parse(at.instant) / 1000) : found.slice(0, 10) === at.day
}

/**
 * A step with `at`: the record it made dated then at the local gateway, and read again as the API
 * shows it. One found present must be dated so already (the day the file names, or the instant),
 * or it differs: the gateway does not hold what the file says. A subscription is billed from the
 * file's start date, which may be before the gateway's today (it was made to start today).
 */
async function dated(step: SeedStep, fields: Record<string, unknown>, outcome: Outcome, deps: Deps): Promise<Outcome> {
  const {at, create} = step
  if (at === undefined || outcome.status === 'differs' || !(create in DATED)) return outcome
  const {collection, resource, field} = DATED[create as keyof typeof DATED]
  const id = String(outcome.record.id)
  if (outcome.status === 'present') {
    const found = outcome.record[field]
    if (datedSo(create as keyof typeof DATED, at, found)) return outcome
    const differences: Difference[] = [{field: 'at', against: 'sent', expected: at.day ?? at.instant, found}]
    const error = new RejectedError(`the ${create} ${id} exists dated otherwise: ${describeSeedDifferences(differences)}. Nothing was sent`, {hint: 'Seed a fresh local gateway, or give the step a reference of its own.'})
    return {status: 'differs', record: outcome.record, differences, error}
  }
  const start = create === 'subscription' && typeof fields.start_date === 'string' ? {start_date: fields.start_date} : {}
  await deps.client.sandbox.dateRecord(id, {collection, at: at.instant, ...start})
  return {...outcome, record: await lookUp(resource, id, deps)}
}

/** Records a refund a step sent for the purchase its transaction_id names, as gw records every refund it makes (lists/refunds-of-purchase.ts recordMade). */
export type RecordRefund = (sent: Sent, transactionId: string) => Promise<unknown>

/** What a step runs with: `at`, for a subscription dated to start before the gateway's today; how a refund sent is recorded. */
type StepContext = {environment: Environment; deps: Deps; at?: DatedAt; recordRefund?: RecordRefund}

function runStep(step: SeedStep, fields: Record<string, unknown>, context: StepContext): Promise<Outcome> {
  const run = STEPS[step.create] as (fields: unknown, context: StepContext) => Promise<Outcome>
  return run(fields, context)
}

const created = (record: GwRecord): Outcome => ({status: 'created', record})

/** The later of two days as YYYY-MM-DD; a day the clock does not give leaves the first. */
const laterDay = (day: string, other: unknown): string => (typeof other === 'string' && other > day ? other : day)

/** The record found under the step's key: present when it holds the step's values, else it differs, naming where. */
function found(kind: StepKind, fields: Record<string, unknown>, record: GwRecord, key: string): Outcome {
  return foundAgainst(kind, fields, record, key)
}

/** As found, the step's values compared with `against`: the record read as the file gives its values (a debit's amount in cents). */
function foundAgainst(kind: StepKind, fields: Record<string, unknown>, record: GwRecord, key: string, against = record): Outcome {
  const differences = seedDifferences(kind, fields, against)
  if (differences.length === 0) return {status: 'present', record}
  const error = new RejectedError(`the ${kind} ${key} exists with other values: ${describeSeedDifferences(differences)}. Nothing was sent`, {
    hint: 'Seed a fresh local gateway, or give the step a reference of its own.',
  })
  return {status: 'differs', record, differences, error}
}

/** A plan's or debit's step, made or found (seed-recurring.ts). */
const outcomeOf = (kind: StepKind, made: Made, key: string): Outcome => ('created' in made ? created(made.created) : foundAgainst(kind, made.compared, made.held, key, made.against))

const STEPS: {[K in StepKind]: (fields: StepFields[K], context: StepContext) => Promise<Outcome>} = {
  async card({alias, ...card}, {deps}) {
    const digits = card.card_number.replace(/[\s-]/g, '')
    const held = await existing('cards', alias, deps)
    if (held) {
      // An alias names one card: another card under it is not this step's.
      if (maskCardNumber(String(held.card_number ?? '')) !== maskCardNumber(digits)) {
        throw new UsageError(`alias ${alias} is already the alias of another card (${maskCardNumber(String(held.card_number ?? ''))})`, 'Give this card another alias.')
      }
      return found('card', card, held, `with alias ${alias}`)
    }
    const tokenized = await tokenizeCard({...card, card_number: digits}, deps)
    return created(await updateCard({token: String(tokenized.token), alias}, deps))
  },

  async plan(fields, {deps}) {
    const held = await existing('plans', fields.reference, deps)
    return held ? found('plan', fields, held, fields.reference) : created(await createPlan(fields, deps))
  },

  async customer(fields, {deps}) {
    const held = await existing('customers', fields.reference, deps)
    if (held) return found('customer', fields, held, fields.reference)
    const {card, address} = fields
    const named = {'first-name': fields.first_name, 'last-name': fields.last_name, reference: fields.reference, email: fields.email, 'ip-address': fields.ip_address, ...address}
    const holder = card.card_holder ?? `${fields.first_name} ${fields.last_name}`
    return created(await createCustomer(named, {card_holder: holder, card_number: card.card_number.replace(/[\s-]/g, ''), card_expiry: card.expiry_date, cvv: card.cvv}, deps))
  },

  async purchase(fields, {deps}) {
    const body: PurchaseCreate = {...fields, ...(fields.card_number ? {card_number: fields.card_number.replace(/[\s-]/g, '')} : {}), ...(fields.currency ? {currency: fields.currency.toUpperCase()} : {})}
    const earlier = await findEarlierPurchase(body, deps)
    return moneyOutcome(earlier ?? (await sendPurchase(body, deps)), earlier !== undefined)
  },

  async refund(fields, {deps, recordRefund}) {
    const body: RefundCreate = fields
    const earlier = await findEarlierRefund({body}, deps)
    if (earlier) return moneyOutcome(earlier, true)
    const sent = await sendRefund({body}, deps)
    // Recorded before it is reported, as refund create records its own: certain for its purchase.
    await recordRefund?.(sent, body.transaction_id)
    return moneyOutcome(sent, false)
  },

  async subscription(fields, {deps, at}) {
    const held = await existing('subscriptions', fields.reference, deps)
    if (held) {
      const ids = {customer: await idOf('customers', fields.customer, held.customer, deps), plan: await idOf('plans', fields.plan, held.plan, deps)}
      return found('subscription', {...fields, ...ids}, held, fields.reference)
    }
    // Dated, it may start before the gateway's today, which refuses such a start: made to start today, its start is then moved (dated).
    const startDate = at === undefined ? fields.start_date : laterDay(fields.start_date, (await deps.client.sandbox.clock()).today)
    const input = {customer: fields.customer, plan: fields.plan, frequency: frequencyNamed(fields.frequency)!, startDate, reference: fields.reference, active: fields.is_active ?? true}
    return created(await createSubscription(input, deps))
  },

  async payment_plan(fields, {deps}) {
    return outcomeOf('payment_plan', await paymentPlanStep(fields, deps), fields.reference)
  },

  async direct_debit(fields, {deps}) {
    return outcomeOf('direct_debit', await directDebitStep(fields, deps), fields.reference)
  },

  async webhook(fields, {environment, deps}) {
    const {pages} = listRecords({resource: 'webHooks', window: {}, filters: {}, concurrency: 1}, deps)
    for await (const page of pages) {
      const held = page.find((hook) => hook.address === fields.address)
      if (held) return found('webhook', fields, held, `at ${fields.address}`)
    }
    const {authentication_username: username, authentication_password: password} = fields
    const events = fields.events === undefined || fields.events === '*' ? [] : (fields.events as GatewayEvent[])
    return created(await createWebHook({address: fields.address, events, name: fields.name, environment, auth: username && password ? {username, password} : undefined}, deps))
  },
}

/**
 * A purchase or refund as the money module decided it: approved, or declined (a record like any
 * other, which a fixtures file may well want); found earlier under its reference, present. A
 * reference taken by another transaction, or an outcome not known, fails the step.
 */
function moneyOutcome(sent: Sent, earlier: boolean): Outcome {
  const {decided} = sent
  if (sent.wrongGateway) throw sent.wrongGateway
  if (decided.outcome === 'approved') return {status: earlier ? 'present' : 'created', record: decided.record}
  if (decided.outcome === 'declined') return {status: earlier ? 'present' : 'declined', record: decided.record}
  if (decided.outcome === 'taken') return {status: 'differs', record: decided.record, differences: decided.differences, error: sent.failure!}
  throw sent.failure!
}
