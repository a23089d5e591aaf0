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

/** A step's `at`: the instant the record is dated, and the day when the file named a day (the instant is then noon of it, or now). */
export interface DatedAt {
  instant: string
  day?: string
}

/**
 * The day a step's record is dated on: the day the file named, or the instant's day on this
 * machine's calendar, as the local gateway beside it dates records (a UTC day could be another).
 */
export function atDay(at: DatedAt): string {
  if (at.day !== undefined) return at.day
  const when = new Date(at.instant)
  return `${String(when.getFullYear()).padStart(4, '0')}-${String(when.getMonth() + 1).padStart(2, '0')}-${String(when.getDate()).padStart(2, '0')}`
}

/** `step 3 "order" (purchase)`, as every message about a step starts. */
export const stepName = (step: Pick<SeedStep, 'step' | 'name' | 'create'>) => `step ${step.step} "${step.name}" (${step.create})`

/** What stands inside `{{...}}`: a step's name and a field of its record. */
export const REFERENCE = /^\s*([A-Za-z][\w-]*)\.([A-Za-z_]\w*)\s*$/
