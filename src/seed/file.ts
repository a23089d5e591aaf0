import {createReadStream} from 'node:fs'
import type * as z from 'zod'
import type {GatewayTime} from '../api/client.js'
import {tooLong} from '../api/schemas/rules.js'
import {UsageError} from '../errors.js'
import {dayText, fromWallTime, MACHINE_CALENDAR} from '../lib/calendar.js'
import {instantOf, isCalendarDate} from '../lib/days.js'
import type {Io} from '../output/io.js'
import {maskCardNumbersIn} from '../safety/redact.js'
import {acrossStepProblems} from './across.js'
import {FIELDS, fieldsOf, recordFields, STEP_KINDS, type StepKind} from './kinds.js'
import {keptText, MAX_KEPT_BYTES, NotUtf8Error, oversizedLength, TooLargeError} from './read.js'
import {type DatedAt, REFERENCE, type SeedStep, stepName} from './step.js'
import {whyUnreadable} from '../lib/file-error-words.js'
import type {GwRecord} from '../api/schemas/record.js'

/** The kinds whose records carry the date they were made, and may be dated in the past with `at`. */
export const DATED_KINDS = ['purchase', 'refund', 'customer', 'subscription', 'payment_plan', 'direct_debit'] as const satisfies readonly StepKind[]

const NAME = /^[A-Za-z][\w-]*$/
const TEMPLATE = /\{\{([^{}]*)\}\}/g
const STEP_KEYS = ['name', 'create', 'fields', 'at']
/** More problems than this are summed up: the first ones are enough to start fixing. */
const SHOWN_PROBLEMS = 20

/** The file's text, or stdin's for `-`, as it streams in: a string too long for any field is not kept (read.ts). */
export async function readSeedFile(file: string, io: Io): Promise<{text: string; source: string}> {
  if (file === '-' && io.isStdinTTY) throw new UsageError('- reads the fixtures from stdin, but stdin is a terminal', 'Give the file, or pipe it in: gw sandbox seed - < fixtures.json')
  const source = file === '-' ? 'stdin' : file
  try {
    return {text: await keptText(file === '-' ? io.stdinChunks() : createReadStream(file)), source}
  } catch (err) {
    if (err instanceof NotUtf8Error) throw new UsageError(`${source} line ${err.line} holds bytes that are not UTF-8, and nothing was sent`, 'Save the file as UTF-8 and run it again.')
    if (err instanceof TooLargeError) {
      throw new UsageError(`${source} is too large for a fixtures file: over ${MAX_KEPT_BYTES / 1024 / 1024} MiB once its overlong strings are set aside`, 'Split it into files of fewer steps.')
    }
    const why = whyUnreadable(err)
    throw new UsageError(`${source} cannot be read: ${why}`)
  }
}

/**
 * The steps of a fixtures file's text, every one checked; a UsageError listing each problem
 * otherwise. A step's at is judged by `here`, the gateway's now and calendar (Factory.gatewayTime):
 * a local gateway's clock may have been moved on, and its days are its own.
 */
export function checkSeedFile(text: string, source: string, here: GatewayTime = {now: new Date(), calendar: MACHINE_CALENDAR}): SeedStep[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${source} is not JSON: ${jsonProblem(text, error as Error)}`, 'A fixtures file is JSON: {"steps": [{"name": "gold", "create": "plan", "fields": {...}}]}.')
  }
  const problems: string[] = []
  const steps: SeedStep[] = []
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || !Array.isArray((parsed as {steps?: unknown}).steps)) {
    throw new UsageError(`${source} must be an object with a list of steps`, 'For example {"steps": [{"name": "gold", "create": "plan", "fields": {"name": "Gold", "amount": 2500, "reference": "gold", "description": "Gold plan"}}]}.')
  }
  for (const key of Object.keys(parsed)) if (key !== 'steps' && !key.startsWith('_')) problems.push(`${key} is not a key of a fixtures file: it has steps (and comments, keys starting with _)`)
  const list = (parsed as {steps: unknown[]}).steps
  if (list.length === 0) problems.push('steps is empty: give one step or more')
  const kinds = new Map<string, StepKind>()
  for (const [index, raw] of list.entries()) {
    const step = readStep(raw, index + 1, {earlier: kinds, here}, problems)
    if (!step) continue
    const overlong = strings(step.fields).flatMap(({path, text}) => {
      const length = oversizedLength(text)
      return length === undefined ? [] : [{path, problem: `fields.${path} ${tooLong(length)}`}]
    })
    for (const {problem} of overlong) problems.push(`${stepName(step)}: ${problem}`)
    for (const problem of referenceProblems(step.fields, kinds)) problems.push(`${stepName(step)}: ${problem}`)
    const judged = [...templatedPaths(step.fields), ...overlong.map(({path}) => path)]
    for (const problem of fieldProblems(step.create, step.fields, judged)) problems.push(`${stepName(step)}: ${problem}`)
    kinds.set(step.name, step.create)
    steps.push(step)
  }
  problems.push(...acrossStepProblems(steps))
  if (problems.length > 0) throw problemsError(source, problems)
  return steps
}

/** Whether a fixtures file's text dates a step (`at`): its steps are then judged by the gateway's today, which is asked for. Text that is not a file of steps dates none (checkSeedFile says what is wrong). */
export function datesSteps(text: string): boolean {
  try {
    const steps = (JSON.parse(text) as {steps?: unknown} | null)?.steps
    return Array.isArray(steps) && steps.some((step) => step !== null && typeof step === 'object' && Object.hasOwn(step, 'at'))
  } catch {
    return false
  }
}

/** `fixtures.json has 3 problems; nothing was sent:` and each problem on a line of its own, the first twenty. */
export function problemsError(source: string, problems: string[], where = ''): UsageError {
  const shown = problems.slice(0, SHOWN_PROBLEMS).map((problem) => `  ${problem}`)
  if (problems.length > SHOWN_PROBLEMS) shown.push(`  and ${problems.length - SHOWN_PROBLEMS} more`)
  return new UsageError(`${source} has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}${where}; nothing was sent:\n${shown.join('\n')}`)
}

function readStep(raw: unknown, number: number, {earlier, here}: {earlier: Map<string, StepKind>; here: GatewayTime}, problems: string[]): SeedStep | undefined {
  const where = `step ${number}`
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return void problems.push(`${where} must be an object: {"name", "create", "fields"}`)
  const {name, create, fields, at} = raw as {name?: unknown; create?: unknown; fields?: unknown; at?: unknown}
  const before = problems.length
  for (const key of Object.keys(raw)) if (!STEP_KEYS.includes(key) && !key.startsWith('_')) problems.push(`${where}: ${key} is not a key of a step: it has name, create, fields and at`)
  if (typeof name !== 'string' || !NAME.test(name)) problems.push(`${where}: name must be a letter then letters, digits, _ or -, for later steps to refer to it ({{name.id}})`)
  else if (earlier.has(name)) problems.push(`${where}: name ${name} is the name of an earlier step`)
  if (typeof create !== 'string' || !(STEP_KINDS as readonly string[]).includes(create)) problems.push(`${where}: create must be one of ${STEP_KINDS.join(', ')}`)
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) problems.push(`${where}: fields must be an object of the API's fields`)
  if (problems.length > before) return undefined
  const step: SeedStep = {step: number, name: name as string, create: create as StepKind, fields: withoutComments(fields as Record<string, unknown>)}
  if (at === undefined) return step
  const dated = datedAt(at, step.create, here)
  if ('problem' in dated) return void problems.push(`${stepName(step)}: at ${dated.problem}`)
  return {...step, at: dated}
}

/**
 * A step's `at`: a day (noon of it on the gateway's calendar, or now if that is earlier) or a
 * date-time with its offset, not after the gateway's now, for a kind whose record carries a date;
 * the instant and the gateway's day it falls on, or what is wrong.
 */
export function datedAt(at: unknown, kind: StepKind, {now, calendar}: GatewayTime): DatedAt | {problem: string} {
  if (!(DATED_KINDS as readonly string[]).includes(kind)) return {problem: `dates the record a step makes, and a ${kind} carries no date: give at to a ${DATED_KINDS.join(', ')} step`}
  const shape = 'must be a date (2026-11-17) or a date-time with its offset (2026-11-17T10:31:00+11:00)'
  if (typeof at !== 'string') return {problem: shape}
  if (isCalendarDate(at)) {
    const noon = new Date(`${at}T12:00:00Z`)
    const today = dayText(calendar, now)
    if (at > today) return {problem: `${at} is in the future: the gateway's today is ${today}, and a record can be dated today or before`}
    const when = fromWallTime(calendar, noon.getUTCFullYear(), noon.getUTCMonth(), noon.getUTCDate(), 12)
    return {instant: (when > now ? now : when).toISOString(), day: at, onDay: at}
  }
  const when = instantOf(at)
  if (!when) return {problem: `${JSON.stringify(at)} ${shape}`}
  if (when > now) return {problem: `${at} is in the future: the gateway's clock says ${now.toISOString()}, and a record can be dated now or before`}
  return {instant: when.toISOString(), onDay: dayText(calendar, when)}
}

function withoutComments(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !key.startsWith('_')))
}

/** Every `{{name.field}}` in the fields: a step before this one, and a field its record has. */
function referenceProblems(fields: Record<string, unknown>, earlier: Map<string, StepKind>): string[] {
  const problems: string[] = []
  for (const {path, text} of strings(fields)) {
    if (text.replace(TEMPLATE, '').includes('{{')) problems.push(`fields.${path}: a {{ is not closed with }}`)
    for (const [whole, inner] of text.matchAll(TEMPLATE)) {
      const match = REFERENCE.exec(inner!)
      if (!match) {
        problems.push(`fields.${path}: ${whole} is not a reference: write {{step.field}}, such as {{customer.id}}`)
        continue
      }
      const [, name, field] = match as unknown as [string, string, string]
      const kind = earlier.get(name)
      if (!kind) problems.push(`fields.${path}: ${whole} names ${name}, which is not an earlier step`)
      else if (!recordFields(kind).includes(field)) problems.push(`fields.${path}: ${whole} names the field ${field}, which a ${kind} has not; it has ${recordFields(kind).join(', ')}`)
    }
  }
  return problems
}

/** The paths of the strings that hold a reference: what they will be is known only once the steps before have run. */
function templatedPaths(fields: Record<string, unknown>): string[] {
  return strings(fields)
    .filter(({text}) => /\{\{/.test(text))
    .map(({path}) => path)
}

/** Every string in the fields, at any depth, with its path (`card.card_number`). */
function strings(value: unknown, path = ''): {path: string; text: string}[] {
  if (typeof value === 'string') return [{path, text: value}]
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) => strings(inner, path === '' ? key : `${path}.${key}`))
}

/**
 * What is wrong with a step's fields, each naming its field, but where a reference stands: its
 * value is checked once the step it names has run (resolveFields).
 */
export function fieldProblems(kind: StepKind, fields: Record<string, unknown>, templated: string[] = []): string[] {
  const result = (FIELDS[kind] as z.ZodType).safeParse(fields)
  if (result.success) return []
  return result.error.issues
    .filter((issue) => !templated.some((path) => issue.path.join('.') === path || issue.path.join('.').startsWith(`${path}.`)))
    .map((issue) => issueText(kind, issue, fields))
}

function issueText(kind: StepKind, issue: z.core.$ZodIssue, fields: Record<string, unknown>): string {
  const at = ['fields', ...issue.path.map(String)].join('.')
  if (issue.code === 'unrecognized_keys') {
    const taken = issue.path.length === 0 ? fieldsOf(kind).join(', ') : 'the fields the API names'
    return issue.keys.map((key) => `${at}.${key} is not a field of a ${kind}; it takes ${taken}`).join('; ')
  }
  if (issue.code === 'invalid_type') return valueAt(fields, issue.path) === undefined ? `${at} is required` : `${at} must be ${article(issue.expected)}`
  return `${at} ${issue.message}`
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((inner, key) => (inner !== null && typeof inner === 'object' ? (inner as Record<PropertyKey, unknown>)[key] : undefined), value)
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)

/**
 * The step's fields with each reference replaced by the value in the record it names, then
 * checked as the file's own values were; a UsageError naming the step and field otherwise.
 */
export function resolveFields(step: SeedStep, records: ReadonlyMap<string, GwRecord>): Record<string, unknown> {
  const problems: string[] = []
  const resolve = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') return resolveText(value, path, records, problems)
    if (Array.isArray(value)) return value.map((inner, index) => resolve(inner, `${path}.${index}`))
    if (value === null || typeof value !== 'object') return value
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner, path === '' ? key : `${path}.${key}`)]))
  }
  const fields = resolve(step.fields, '') as Record<string, unknown>
  if (problems.length === 0) problems.push(...fieldProblems(step.create, fields))
  if (problems.length > 0) throw new UsageError(`${problems.join('; ')}; it was not sent`)
  return fields
}

function resolveText(text: string, path: string, records: ReadonlyMap<string, GwRecord>, problems: string[]): unknown {
  const valueOf = (inner: string): unknown => {
    const [, name, field] = REFERENCE.exec(inner) as unknown as [string, string, string]
    const value = records.get(name)?.[field]
    if (value === undefined || value === null) problems.push(`fields.${path}: {{${inner.trim()}}} is empty in the record step ${name} gave`)
    return value
  }
  const whole = /^\{\{([^{}]*)\}\}$/.exec(text)
  if (whole) return valueOf(whole[1]!)
  return text.replace(TEMPLATE, (_, inner: string) => {
    const value = valueOf(inner)
    return typeof value === 'object' ? JSON.stringify(value) : String(value)
  })
}

/**
 * `Unexpected token } in JSON at position 40 (line 3, column 5)`: where, for a file edited by
 * hand. JSON.parse may quote the text, card numbers too: they are masked. V8 12 and later add a
 * line and column of their own (`(line 3 column 5)`) and older V8 none: gw counts them itself, so
 * the message reads the same on every Node.
 */
function jsonProblem(text: string, error: Error): string {
  const message = maskCardNumbersIn(error.message).replace(/ \(line \d+ column \d+\)$/, '')
  const position = /at position (\d+)/.exec(message)?.[1]
  if (position === undefined) return message
  const before = text.slice(0, Number(position)).split('\n')
  return `${message} (line ${before.length}, column ${before.at(-1)!.length + 1})`
}
