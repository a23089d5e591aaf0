import {NotFoundError, UsageError} from '../errors.js'
import {literal, purchaseStepOf, shownAt} from '../seed/across.js'
import {problemsError} from '../seed/file.js'
import {type SeedStep, stepName} from '../seed/step.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {type LookUpResource, lookUp} from './look-up.js'

/** The record found under the key, or undefined when the gateway has none (404). */
export async function existing(resource: LookUpResource, key: string, deps: Deps): Promise<GwRecord | undefined> {
  try {
    return await lookUp(resource, key, deps)
  } catch (err) {
    if (err instanceof NotFoundError) return undefined
    throw err
  }
}

/** A customer's or plan's id, as a subscription or payment plan record names it, for what the file names by id or reference. */
export async function idOf(resource: 'customers' | 'plans', given: string, held: unknown, deps: Deps): Promise<string> {
  if (given === held) return given
  const record = await existing(resource, given, deps)
  return typeof record?.id === 'string' ? record.id : given
}

/**
 * The dates of a fixtures file against the gateway's clock and records, read before anything is
 * sent (design.md: a file is checked whole first). Only the local gateway dates a record in the past
 * (its /_sandbox/ control, by the instance it names itself with): against any other, a file with
 * `at` is refused. On the local gateway, a subscription starting before the clock's today (which
 * `gw sandbox clock advance` moves on), or a refund dated before the purchase it holds already, would
 * be made and then refused: a UsageError names each step, nothing sent. A subscription dated with
 * `at` may start before today, on or after that day: it is billed from then (operations/seed.ts). A step whose record is there
 * already is not made again, and is left to be compared.
 */
export async function refuseGatewayDates(steps: SeedStep[], source: string, deps: Deps): Promise<void> {
  const dated = steps.some((step) => step.at !== undefined)
  const starts = steps.some((step) => step.create === 'subscription')
  if (!dated && !starts) return
  const today = await localToday(deps, dated)
  if (today === undefined) {
    if (dated) throw new UsageError('at dates records on the local gateway only, and this gateway is not one: nothing was sent', 'Seed the local gateway, or leave at out of the file.')
    return
  }
  const problems: string[] = []
  for (const step of steps) {
    const reference = literal(step.fields.reference)
    if (reference === undefined) continue
    if (step.create === 'subscription') {
      const start = literal(step.fields.start_date)
      // Dated, it starts on or after the day it is dated; else on or after the gateway's today.
      const from = step.at === undefined ? today : step.at.onDay
      if (start === undefined || start >= from || (await existing('subscriptions', reference, deps))) continue
      problems.push(
        step.at === undefined
          ? `${stepName(step)}: fields.start_date ${start} is before the gateway's today (${today}): a subscription starts then or later; give a start_date of ${today} or later, or date the step with at`
          : `${stepName(step)}: fields.start_date ${start} is before the day it is dated (${from}): a subscription starts then or later; give a start_date of ${from} or later`,
      )
    }
    if (step.create === 'refund' && step.at !== undefined && !purchaseStepOf(step, steps)) {
      const purchaseKey = literal(step.fields.transaction_id)
      if (purchaseKey === undefined || (await existing('refunds', reference, deps))) continue
      const made = (await existing('purchases', purchaseKey, deps))?.transaction_date
      if (typeof made !== 'string' || !(Date.parse(made) > Date.parse(step.at.instant))) continue
      problems.push(`${stepName(step)}: at ${shownAt(step.at)} is before its purchase ${purchaseKey} was made (${made}): a refund is made on or after the purchase it refunds; date it ${made} or later`)
    }
  }
  if (problems.length > 0) throw problemsError(source, problems, ' on this gateway')
}

/**
 * The local gateway's today (its virtual clock), or undefined when the gateway is another. Asked
 * only for what a file dates; for a subscription's start alone, a gateway that does not answer the
 * question is taken for another, and the start left to it.
 */
async function localToday(deps: Deps, required: boolean): Promise<string | undefined> {
  let today: unknown
  try {
    today = (await deps.client.sandbox.clock()).today
  } catch (err) {
    if (err instanceof NotFoundError || !required) return undefined
    throw err
  }
  return deps.client.gatewayInstance === undefined || typeof today !== 'string' ? undefined : today
}
