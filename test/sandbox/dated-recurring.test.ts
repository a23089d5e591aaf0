import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {call, sandbox} from './helpers.js'
import {advance, createCustomer, createSubscription, subscribed} from './recurring-helpers.js'

// POST /_sandbox/dated/{key} for subscriptions, payment plans and direct debits (gw sandbox seed's at): made then, billed from then.
// The clock's today is 2026-11-22, a Sunday.

/** Noon of a day here: the instant gw sends for a day (the gateway's dates are this process's local ones). */
const noon = (day: string) => new Date(`${day}T12:00:00`).toISOString()
const dated = (gateway: Awaited<ReturnType<typeof sandbox>>, key: string, body: Record<string, unknown>) => call(gateway, 'POST', `/_sandbox/dated/${key}`, {body})
const get = async (gateway: Awaited<ReturnType<typeof sandbox>>, path: string) => (await call(gateway, 'GET', path)).body.response

// 2026-11-10 is a Tuesday: anniversary 2.
const PLAN = {customer: 'jo', reference: 'weekly-jo', amount: 100, start_date: '2026-11-01', frequency: 'Weekly', anniversary: 2, total_count: 4, total_amount: 400}
const DEBIT = {description: 'Rent', amount: 42.42, bsb: '123-123', account_name: 'Jo Citizen', account_number: '012345678'}

describe('a payment plan dated in the past', () => {
  it('has its schedule made again from that day, is listed on it, and what fell due is charged at the end of the clock\'s today', async () => {
    const gateway = await sandbox()
    await createCustomer(gateway)
    const made = (await call(gateway, 'POST', '/v1.0/payment_plans', {body: PLAN})).body.response
    expect(made.payments.map((payment: {scheduled_date: string}) => payment.scheduled_date)).toStrictEqual(['2026-11-24', '2026-12-01', '2026-12-08', '2026-12-15'])
    const answer = await dated(gateway, made.id, {collection: 'payment_plans', at: noon('2026-11-10')})
    expect(answer.status, answer.text).toBe(200)
    const plan = await get(gateway, '/v1.0/payment_plans/weekly-jo')
    expect(plan.created_at.slice(0, 10)).toBe('2026-11-10')
    expect(plan.payments.map((payment: {reference: string; scheduled_date: string}) => [payment.reference, payment.scheduled_date])).toStrictEqual([
      ['weekly-jo-0001', '2026-11-10'],
      ['weekly-jo-0002', '2026-11-17'],
      ['weekly-jo-0003', '2026-11-24'],
      ['weekly-jo-0004', '2026-12-01'],
    ])
    await advance(gateway, {days: 1})
    const billed = await get(gateway, '/v1.0/payment_plans/weekly-jo')
    expect(billed.payments.map((payment: {status: string}) => payment.status)).toStrictEqual(['Completed', 'Completed', 'Scheduled', 'Scheduled'])
    // Billed, it is dated no more.
    const again = await dated(gateway, made.id, {collection: 'payment_plans', at: noon('2026-11-03')})
    expect({status: again.status, errors: again.body.errors}).toStrictEqual({status: 400, errors: ['Payment plan weekly-jo has made payments: only one not yet billed is dated']})
  })

  it('starts on its start date when that is later than the day it is dated; a suspended one is not dated', async () => {
    const gateway = await sandbox()
    await createCustomer(gateway)
    const made = (await call(gateway, 'POST', '/v1.0/payment_plans', {body: {...PLAN, total_count: undefined, total_amount: undefined, start_date: '2026-11-24', end_date: '2026-11-24'}})).body.response
    const answer = await dated(gateway, made.id, {collection: 'payment_plans', at: noon('2026-11-10')})
    expect(answer.status).toBe(200)
    expect((await get(gateway, '/v1.0/payment_plans/weekly-jo')).payments.map((payment: {scheduled_date: string}) => payment.scheduled_date)).toStrictEqual(['2026-11-24'])
    await call(gateway, 'PUT', `/v1.0/payment_plans/${made.id}`, {body: {new_status: 'Suspended'}})
    const suspended = await dated(gateway, made.id, {collection: 'payment_plans', at: noon('2026-11-10')})
    expect({status: suspended.status, errors: suspended.body.errors}).toStrictEqual({status: 400, errors: ['Payment plan weekly-jo is Suspended: only an Active one is dated']})
  })
})

describe('a direct debit dated in the past', () => {
  it('has been to the bank and been answered by the days that have ended since, as the clock moves one', async () => {
    const gateway = await sandbox()
    const done = (await call(gateway, 'POST', '/v1.0/direct_debits', {body: {...DEBIT, reference: 'done'}})).body.response
    const returned = (await call(gateway, 'POST', '/v1.0/direct_debits', {body: {...DEBIT, amount: 42.03, reference: 'returned'}})).body.response
    // Friday the 20th: to the bank that day, answered the Monday after, the clock's tomorrow.
    const friday = (await call(gateway, 'POST', '/v1.0/direct_debits', {body: {...DEBIT, reference: 'friday'}})).body.response
    for (const [debit, day] of [[done, '2026-11-12'], [returned, '2026-11-12'], [friday, '2026-11-20']] as const) {
      const answer = await dated(gateway, debit.id, {collection: 'direct_debits', at: noon(day)})
      expect(answer.status, answer.text).toBe(200)
    }
    expect(await get(gateway, '/v1.0/direct_debits/done')).toMatchObject({date: '2026-11-12', process_date: '2026-11-13', status: 'Completed', result: 'Processed'})
    expect(await get(gateway, '/v1.0/direct_debits/returned')).toMatchObject({date: '2026-11-12', process_date: '2026-11-13', status: 'Rejected', result: 'Account Closed'})
    expect(await get(gateway, '/v1.0/direct_debits/friday')).toMatchObject({date: '2026-11-20', process_date: null, status: 'Pending'})
    await advance(gateway, {to: '2026-11-24'})
    expect(await get(gateway, '/v1.0/direct_debits/friday')).toMatchObject({process_date: '2026-11-23', status: 'Completed'})
    // Listed newest first by when each was made.
    expect((await call(gateway, 'GET', '/v1.0/direct_debits')).body.response.map((debit: {reference: string}) => debit.reference)).toStrictEqual(['friday', 'returned', 'done'])
    const again = await dated(gateway, done.id, {collection: 'direct_debits', at: noon('2026-11-02')})
    expect({status: again.status, errors: again.body.errors}).toStrictEqual({status: 400, errors: ['Direct debit done is Completed: only a New one is dated']})
  })
})

describe('a subscription dated in the past', () => {
  it('starts on the start date the body gives, on or after the day it is dated, and is billed from it', async () => {
    const gateway = await sandbox()
    const {subscription} = await subscribed(gateway, {frequency: 'Monthly'})
    const early = await dated(gateway, subscription.body.response.id, {collection: 'subscriptions', at: noon('2026-10-05'), start_date: '2026-10-01'})
    expect({status: early.status, errors: early.body.errors}).toStrictEqual({status: 400, errors: ['Start date 2026-10-01 is before the subscription was made (2026-10-05): it starts then or later']})
    const answer = await dated(gateway, subscription.body.response.id, {collection: 'subscriptions', at: noon('2026-10-05'), start_date: '2026-10-15'})
    expect(answer.status, answer.text).toBe(200)
    expect(await get(gateway, '/v1.0/subscriptions/jo-gold')).toMatchObject({start_date: '2026-10-15', next_billing_date: '2026-10-15', last_status: 'Scheduled'})
    await advance(gateway, {days: 1})
    expect(await get(gateway, '/v1.0/subscriptions/jo-gold')).toMatchObject({start_date: '2026-10-15', next_billing_date: '2026-12-15', last_status: 'Successful'})
    const other = (await createSubscription(gateway, {reference: 'jo-gold-2'})).body.response
    const plan = await dated(gateway, other.id, {collection: 'payment_plans', at: noon('2026-10-05'), start_date: '2026-10-15'})
    expect({status: plan.status, errors: plan.body.errors}).toStrictEqual({status: 400, errors: ['Start date is taken for subscriptions only']})
  })
})

describe('dated records in the state file', () => {
  it('come back from a restart as they were dated', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'state.json')
    const first = await sandbox({stateFile})
    await createCustomer(first)
    const plan = (await call(first, 'POST', '/v1.0/payment_plans', {body: PLAN})).body.response
    const debit = (await call(first, 'POST', '/v1.0/direct_debits', {body: {...DEBIT, reference: 'done'}})).body.response
    await dated(first, plan.id, {collection: 'payment_plans', at: noon('2026-11-10')})
    await dated(first, debit.id, {collection: 'direct_debits', at: noon('2026-11-12')})
    const before = {plans: await get(first, '/v1.0/payment_plans'), debits: await get(first, '/v1.0/direct_debits')}
    await first.close()
    const second = await sandbox({stateFile})
    expect({plans: await get(second, '/v1.0/payment_plans'), debits: await get(second, '/v1.0/direct_debits')}).toStrictEqual(before)
  })
})
