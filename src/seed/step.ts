import type {StepKind} from './kinds.js'

/**
 * A fixtures file for `gw sandbox seed`: JSON, `{"steps": [{"name", "create", "fields"}, ...]}`,
 * each step creating one record of its kind with the API's own fields. A string may name a field of
 * an earlier step's record as `{{name.field}}`: alone, it takes that value as it is (a number stays
 * a number); inside other text, as text. Keys starting with `_` are comments, ignored. The whole
 * file is checked before anything is sent, and every problem is named with its step and field.
 */
export interface SeedStep {
  /** 1 for the first step. */
  step: number
  name: string
  create: StepKind
  /** As the file has them, references unresolved. */
  fields: Record<string, unknown>
  /** When the record is to be dated (the file's `at`): a purchase, refund or customer made in the past. */
  at?: DatedAt
}

/**
 * A step's `at`: the instant the record is dated, the day the file named if it named one (the
 * instant is then noon of it, or now), and the day the record is dated on, on the gateway's
 * calendar, as the local gateway dates records (a UTC day, or this machine's, could be another).
 */
export interface DatedAt {
  instant: string
  day?: string
  onDay: string
}

/** `step 3 "order" (purchase)`, as every message about a step starts. */
export const stepName = (step: Pick<SeedStep, 'step' | 'name' | 'create'>) => `step ${step.step} "${step.name}" (${step.create})`

/** What stands inside `{{...}}`: a step's name and a field of its record. */
export const REFERENCE = /^\s*([A-Za-z][\w-]*)\.([A-Za-z_]\w*)\s*$/
