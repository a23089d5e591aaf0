import {maskCardNumbersIn} from '../safety/redact.js'
import type {StepKind} from './kinds.js'
import {type DatedAt, REFERENCE, type SeedStep, stepName} from './step.js'

/**
 * What a fixtures file gets wrong between its steps, which no step shows alone: two steps naming one
 * record, a refund dated before its purchase. Each would be found only once the steps before it
 * were sent; the file's text tells it first.
 */
export function acrossStepProblems(steps: readonly SeedStep[]): string[] {
  return [...sharedKeys(steps), ...refundsBeforePurchases(steps)].sort((one, other) => one.step - other.step).map(({problem}) => problem)
}

/** A problem and the step it is of, for the problems to be listed in the order of the steps. */
interface StepProblem {
  step: number
  problem: string
}

/** The field a step's record is found by on the gateway (operations/seed.ts): one value of it names one record. */
export const KEY_FIELD = {card: 'alias', plan: 'reference', customer: 'reference', purchase: 'reference', refund: 'reference', subscription: 'reference', webhook: 'address', payment_plan: 'reference', direct_debit: 'reference'} as const satisfies Record<StepKind, string>

/** A value the file gives as it will be sent: no `{{...}}` in it. */
export function literal(value: unknown): string | undefined {
  return typeof value === 'string' && !value.includes('{{') ? value : undefined
}

/** A second step with one key would find the first's record: reported present, or differing, once the first was sent. */
function sharedKeys(steps: readonly SeedStep[]): StepProblem[] {
  const holders = new Map<string, SeedStep>()
  const problems: StepProblem[] = []
  for (const step of steps) {
    const field = KEY_FIELD[step.create]
    const key = literal(step.fields[field])
    // A blank key is refused as a field already.
    if (key === undefined || key.trim() === '') continue
    const holder = holders.get(`${step.create} ${key}`)
    if (holder) {
      const problem = `${stepName(step)}: fields.${field} ${JSON.stringify(maskCardNumbersIn(key))} is also the ${field} of ${stepName(holder)}: it names one ${step.create}, which this step would find made already; give each step a ${field} of its own`
      problems.push({step: step.step, problem})
    } else holders.set(`${step.create} ${key}`, step)
  }
  return problems
}

/** The fields of a purchase's record that a refund's transaction_id may name it by: the gateway finds a purchase by id or reference. */
const PURCHASE_KEYS = ['id', 'transaction_id', 'reference']

/**
 * The purchase step a refund step refunds, when the file says which: its transaction_id is
 * `{{order.id}}` (or the purchase's reference, through a reference or as the file gives it).
 */
export function purchaseStepOf(refund: SeedStep, steps: readonly SeedStep[]): SeedStep | undefined {
  const id = refund.fields.transaction_id
  if (typeof id !== 'string') return undefined
  const purchases = steps.filter((step) => step.create === 'purchase' && step.step < refund.step)
  const whole = /^\{\{([^{}]*)\}\}$/.exec(id)
  if (whole) {
    const [, name, field] = REFERENCE.exec(whole[1]!) ?? []
    return PURCHASE_KEYS.includes(field ?? '') ? purchases.find((step) => step.name === name) : undefined
  }
  return purchases.find((step) => literal(step.fields.reference) === id)
}

/** How the file gave an `at`: its day, or the instant it names. */
export const shownAt = (at: DatedAt) => at.day ?? at.instant

/**
 * The local gateway dates a refund no earlier than its purchase (sandbox/routes/dated.ts), and dates a
 * purchase without `at` when it is made: on its clock, when the run reaches it, after any `at`.
 * Either way the refund would be made and then refused its date.
 */
function refundsBeforePurchases(steps: readonly SeedStep[]): StepProblem[] {
  const problems: StepProblem[] = []
  for (const step of steps) {
    if (step.create !== 'refund' || step.at === undefined) continue
    const purchase = purchaseStepOf(step, steps)
    if (!purchase) continue
    const at = shownAt(step.at)
    if (purchase.at === undefined) {
      const problem = `at ${at} is before its purchase is made: ${stepName(purchase)} has no at, so the gateway dates it when the run makes it, today; give step ${purchase.step} an at on or before ${at}, or leave at out of this step`
      problems.push({step: step.step, problem: `${stepName(step)}: ${problem}`})
    } else if (Date.parse(step.at.instant) < Date.parse(purchase.at.instant)) {
      const dated = shownAt(purchase.at)
      const problem = `at ${at} is before its purchase, ${stepName(purchase)}, dated ${dated}: a refund is made on or after the purchase it refunds; date it ${dated} or later`
      problems.push({step: step.step, problem: `${stepName(step)}: ${problem}`})
    }
  }
  return problems
}
