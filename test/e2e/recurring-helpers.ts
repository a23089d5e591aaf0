import {expect} from 'vitest'
import type {ClockAdvanced} from '../../src/api/schemas/sandbox-control.js'
import {CARDS, ref, type RunOptions, type Sandbox} from './helpers.js'

export interface PlanRecord {
  id: string
  name: string
  reference: string
  amount: number
}
export interface CustomerRecord {
  id: string
  reference: string
  first_name: string
  last_name: string
  email: string
  card_token: string
}
export interface SubscriptionRecord {
  id: string
  reference: string
  customer: string
  plan: string
  frequency: string
  start_date: string
  next_billing_date: string | null
  last_status: string
  is_active: boolean
}

/** Runs gw with --json and expects exit 0, returning the record. */
async function created<T>(sandbox: Sandbox, args: string[], options?: RunOptions): Promise<T> {
  const result = await sandbox.gw([...args, '--json'], options)
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return result.json as T
}

export const createPlan = (sandbox: Sandbox, {amount = 1000, reference = ref('plan'), name = 'Gold'} = {}, options?: RunOptions) =>
  created<PlanRecord>(sandbox, ['plan', 'create', '--name', name, '--amount', String(amount), '--reference', reference, '--description', `${name} plan`], options)

export const customerArgs = ({reference = ref('cust'), card = CARDS.visa as string, expiry = '12/2030'} = {}) => [
  '--first-name', 'Jane', '--last-name', 'Citizen', '--reference', reference, '--email', 'jane@example.com',
  '--card-number', card, '--card-expiry', expiry, '--cvv', '123',
]

export const createCustomer = (sandbox: Sandbox, options: {reference?: string; card?: string; expiry?: string} = {}, run?: RunOptions) =>
  created<CustomerRecord>(sandbox, ['customer', 'create', ...customerArgs(options)], run)

export const createSubscription = (
  sandbox: Sandbox,
  {customer, plan, frequency = 'Daily', startDate, reference = ref('sub'), inactive = false}: {customer: string; plan: string; frequency?: string; startDate: string; reference?: string; inactive?: boolean},
  run?: RunOptions,
) =>
  created<SubscriptionRecord>(
    sandbox,
    ['subscription', 'create', '--customer', customer, '--plan', plan, '--frequency', frequency, '--start-date', startDate, '--reference', reference, ...(inactive ? ['--inactive'] : [])],
    run,
  )

/** The local gateway's today, through gw. */
export async function sandboxToday(sandbox: Sandbox): Promise<string> {
  const result = await sandbox.gw(['sandbox', 'clock', '--json'])
  expect(result.code).toBe(0)
  return (result.json as {today: string}).today
}

/**
 * The local gateway's today, held for a day: its clock is moved on a day first. A real midnight
 * between reading it and sending it as a start date then leaves it today, not yesterday.
 */
export async function heldToday(sandbox: Sandbox): Promise<string> {
  const {today} = await advance(sandbox, 1)
  expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  return today as string
}

/** The local gateway's clock moved on `days`, through gw: what its days' runs did. */
export async function advance(sandbox: Sandbox, days: number): Promise<ClockAdvanced> {
  const result = await sandbox.gw(['sandbox', 'clock', 'advance', '--days', String(days), '--json'])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return result.json as ClockAdvanced
}

export function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`)
  day.setUTCDate(day.getUTCDate() + days)
  return day.toISOString().slice(0, 10)
}
