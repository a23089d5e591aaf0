import {debitOutcome} from '../../api/schemas/debit-outcomes.js'
import type {SandboxContext} from '../context.js'
import {DEBIT_CUT_OFF_HOUR, DEBIT_PROCESSED, DEBIT_STATUS} from './choices.js'
import {formatDate, formatDateTime} from './clock.js'
import {SandboxError, forbidden} from './errors.js'
import {blankMessage, isBlank, readFields} from './input.js'
import type {DirectDebitRecord} from './payment-records.js'
import {shiftDays} from './schedule.js'
import {isCalendarDate} from '../../lib/days.js'

/**
 * Direct debits (gateway-beyond.md §10): a debit from a bank account by BSB and account number,
 * its amount in dollars. Made `New`, dated the day it goes to the bank; the billing clock then
 * moves it on (runDirectDebits).
 */

const DEBIT_INPUT = {
  description: 'string',
  bsb: 'string',
  account_name: 'string',
  account_number: 'string',
  reference: 'string',
  date: 'string',
  bank_account: 'string',
} as const

const isWeekday = (date: string) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay())

/** `date`, or the Monday after it when it falls on a weekend. */
export function businessDayFrom(date: string): string {
  let day = date
  while (!isWeekday(day)) day = shiftDays(day, 1)
  return day
}

/** The day a debit made at `now` goes to the bank: that day before the cut-off, the next after it, never a weekend. */
export const firstDebitDay = (now: Date): string => businessDayFrom(shiftDays(formatDate(now), now.getHours() < DEBIT_CUT_OFF_HOUR ? 0 : 1))

/** The day the bank answers a debit sent on `date`: the next business day. */
export const processDay = (date: string): string => businessDayFrom(shiftDays(date, 1))

/** A debit as every answer shows it: `metadata` `{}` (the 2017 to May 2018 builds; the live dialect's row makes it null), without the date it was made. */
export function directDebitView(debit: DirectDebitRecord) {
  const {created_at: _created, ...view} = debit
  return {...view, metadata: {}}
}

/** Dollars as a JSON number, or the text of one (`"42.42"`). */
function readDollars(value: unknown): {dollars?: number; problem?: string} {
  if (value === undefined || value === null || value === '') return {}
  const dollars = typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value
  if (typeof dollars !== 'number' || !Number.isFinite(dollars)) return {problem: 'Amount is not a number'}
  // Whole cents only: 42.425 dollars is no amount a bank can debit.
  if (Math.abs(Math.round(dollars * 100) - dollars * 100) > 1e-6) return {dollars, problem: 'Amount must have no more than 2 decimal places'}
  return {dollars}
}

function readDebitInput(input: Record<string, unknown>) {
  try {
    return readFields(input, DEBIT_INPUT)
  } catch (error) {
    if (error instanceof SandboxError) throw new SandboxError(422, error.errors, {})
    throw error
  }
}

/** The day it goes to the bank: the first it can, or a later business day when `date` asks for one. */
function debitDate(sent: string | undefined, first: string): {date: string; problem?: string} {
  if (isBlank(sent)) return {date: first}
  // A date or a date-time: the .NET library sends a DateTime (2026-11-23T00:00:00+11:00).
  const day = /^\d{4}-\d{2}-\d{2}/.exec(sent.trim())?.[0]
  if (day === undefined || !isCalendarDate(day)) return {date: first, problem: 'Date must be a date as YYYY-MM-DD'}
  const asked = businessDayFrom(day)
  return {date: asked > first ? asked : first}
}

/**
 * A new debit, or the gateway's refusal: an unknown `bank_account` alone (the local gateway keeps
 * no bank accounts), else every problem at once in the recorded order, with the record as sent
 * and nulls (HTTP 422 both).
 */
export function addDirectDebit(ctx: SandboxContext, merchant: string, input: Record<string, unknown>): DirectDebitRecord {
  const fields = readDebitInput(input)
  if (!isBlank(fields.bank_account)) throw new SandboxError(422, [`Could not find bank account ${fields.bank_account}`], {})
  const {description, bsb, account_name: name, account_number: account, reference} = fields
  const amount = readDollars(input.amount)
  const when = debitDate(fields.date, firstDebitDay(ctx.clock.now()))
  const errors = [
    isBlank(account) ? blankMessage('account_number') : undefined,
    isBlank(account) || Number.isNaN(Number(account)) ? 'Account number is not a number' : undefined,
    (account ?? '').length < 1 ? 'Account number is too short (minimum is 1 characters)' : undefined,
    !/^\d+$/.test(account ?? '') ? 'Account number must be numbers only' : undefined,
    isBlank(name) ? blankMessage('account_name') : undefined,
    isBlank(bsb) ? blankMessage('bsb') : undefined,
    !/^\d{3}-\d{3}$/.test(bsb ?? '') ? 'Bsb is the incorrect format - expecting 111-222' : undefined,
    isBlank(description) ? blankMessage('description') : undefined,
    amount.problem ?? ((amount.dollars ?? 0) <= 0 ? 'Amount must be greater than 0' : undefined),
    !isBlank(reference) && ctx.store.isTaken('direct_debits', merchant, reference) ? 'Reference has already been taken' : undefined,
    when.problem,
  ].filter((error) => error !== undefined)
  if (errors.length > 0 || isBlank(bsb) || isBlank(account) || isBlank(name) || isBlank(description)) {
    const sent = {amount: amount.dollars ?? 0, bsb: bsb ?? null, account_number: account ?? null, account_name: name ?? null, description: description ?? null}
    throw new SandboxError(422, errors, {id: null, ...sent, reference: reference ?? null, date: when.date, process_date: null, status: DEBIT_STATUS.new, result: null, metadata: {}})
  }
  const id = ctx.newId(merchant, 'DD')
  const debit: DirectDebitRecord = {
    id,
    amount: amount.dollars ?? 0,
    bsb,
    account_number: account,
    account_name: name,
    description,
    reference: isBlank(reference) ? id : reference,
    date: when.date,
    process_date: null,
    status: DEBIT_STATUS.new,
    result: null,
    created_at: formatDateTime(ctx.clock.now()),
  }
  ctx.store.save('direct_debits', merchant, debit)
  return debit
}

/** By id or reference; another merchant's is a 403 as for every record, an unknown one the gateway's 404. */
export function findDirectDebit(ctx: SandboxContext, merchant: string, key: string, notFound: () => SandboxError): DirectDebitRecord {
  const found = ctx.store.find('direct_debits', merchant, key)
  if (found.found === 'foreign') throw forbidden()
  if (found.found === 'none') throw notFound()
  return found.record
}

/** `Deleted`, and still listed; one already deleted is answered as it is, one the bank has is refused. */
export function deleteDirectDebit(ctx: SandboxContext, merchant: string, debit: DirectDebitRecord): DirectDebitRecord {
  if (debit.status === DEBIT_STATUS.deleted) return debit
  if (debit.status !== DEBIT_STATUS.new) {
    throw new SandboxError(422, [`Direct Debit ${debit.id} is ${debit.status}: it has gone to the bank and can no longer be deleted`], directDebitView(debit))
  }
  const deleted = {...debit, status: DEBIT_STATUS.deleted}
  ctx.store.save('direct_debits', merchant, deleted)
  return deleted
}

/**
 * One merchant's debits at the end of `day`: a `New` one whose date has come goes to the bank
 * (`Pending`); a `Pending` one is answered at the end of the next business day, `Completed` or
 * `Rejected` by the amount's cents (api/schemas/debit-outcomes.ts), with that day as `process_date`.
 */
export function runDirectDebits(ctx: SandboxContext, merchant: string, day: string): void {
  for (const debit of ctx.store.list('direct_debits', merchant)) {
    const after = afterDay(debit, day)
    if (after !== debit) ctx.store.save('direct_debits', merchant, after)
  }
}

/** The debit at the end of `day`, as runDirectDebits moves it: one step on, or as it was. */
export function afterDay(debit: DirectDebitRecord, day: string): DirectDebitRecord {
  if (debit.status === DEBIT_STATUS.new && debit.date <= day) return {...debit, status: DEBIT_STATUS.pending}
  if (debit.status === DEBIT_STATUS.pending && processDay(debit.date) <= day) {
    const outcome = debitOutcome(debit.amount)
    const status = outcome.rejected ? DEBIT_STATUS.rejected : DEBIT_STATUS.completed
    return {...debit, status, result: outcome.rejected ? outcome.reason : DEBIT_PROCESSED, process_date: processDay(debit.date)}
  }
  return debit
}
