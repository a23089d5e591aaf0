import {spawn} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {StateFileError} from '../../src/sandbox/server/state-file-error.js'
import {TEST_AUTH, call, sandbox} from './helpers.js'
import {CUSTOMER, advance, createCustomer} from './recurring-helpers.js'
import {rowsOf, runSql} from './state-file.js'
import {expectReject} from '../expect-error.js'

// Payment plans and direct debits in the --state file: kept through a clean restart and a kill -9, checked on load.
const SERVE = join(import.meta.dirname, 'fixtures', 'serve-state.ts')
const stateFileIn = () => join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'state.json')

const PLAN = {customer: 'jo', reference: 'weekly-jo', amount: 100, start_date: '2026-11-25', frequency: 'Weekly', anniversary: 5, total_count: 5, total_amount: 500}
const DEBIT = {description: 'Rent', amount: 42.42, bsb: '123-123', account_name: 'Jo Citizen', account_number: '012345678'}

type Gateway = Awaited<ReturnType<typeof sandbox>>
const get = async (gateway: Gateway, path: string) => (await call(gateway, 'GET', path)).body

describe('payment plans and direct debits in the state file', () => {
  it('survive a restart as they were answered, found by id and reference, listed alike, and the clock bills on from there', async () => {
    const stateFile = stateFileIn()
    const first = await sandbox({stateFile})
    await createCustomer(first)
    const plan = (await call(first, 'POST', '/v1.0/payment_plans', {body: PLAN})).body.response
    await call(first, 'PUT', `/v1.0/payment_plans/${plan.id}`, {body: {new_status: 'Suspended'}})
    await call(first, 'PUT', `/v1.0/payment_plans/${plan.id}`, {body: {new_status: 'Active'}})
    const debit = (await call(first, 'POST', '/v1.0/direct_debits', {body: DEBIT})).body.response
    const deleted = (await call(first, 'POST', '/v1.0/direct_debits', {body: {...DEBIT, reference: 'gone'}})).body.response
    await call(first, 'DELETE', `/v1.0/direct_debits/${deleted.id}`)
    await advance(first, {to: '2026-11-28'})
    const before = {
      plan: await get(first, '/v1.0/payment_plans/weekly-jo'),
      plans: await get(first, '/v1.0/payment_plans'),
      debits: await get(first, '/v1.0/direct_debits'),
    }
    expect(before.plan.response.payments[0].status).toBe('Completed')
    await first.close()

    const second = await sandbox({stateFile})
    for (const key of [plan.id, 'weekly-jo']) expect(JSON.stringify(await get(second, `/v1.0/payment_plans/${key}`))).toBe(JSON.stringify(before.plan))
    expect(await get(second, '/v1.0/payment_plans')).toStrictEqual(before.plans)
    expect(await get(second, '/v1.0/direct_debits')).toStrictEqual(before.debits)
    expect((await get(second, `/v1.0/direct_debits/${debit.id}`)).response).toMatchObject({status: 'Completed', process_date: '2026-11-24'})
    expect((await get(second, '/v1.0/direct_debits/gone')).response.status).toBe('Deleted')
    await advance(second, {to: '2026-12-05'})
    expect((await get(second, '/v1.0/payment_plans/weekly-jo')).response.payments.map((payment: {status: string}) => payment.status)).toStrictEqual(['Completed', 'Completed', 'Scheduled', 'Scheduled', 'Scheduled'])
  })

  it('lose nothing acknowledged when the gateway is killed with SIGKILL', async () => {
    const stateFile = stateFileIn()
    const child = spawn(process.execPath, ['--import', 'tsx', SERVE, stateFile], {stdio: ['ignore', 'pipe', 'inherit']})
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()))
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)))
    })
    const send = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(url + path, {method, headers: {'Content-Type': 'application/json', Authorization: TEST_AUTH}, body: body === undefined ? undefined : JSON.stringify(body)})
      return (await answer.json()) as {response: {id: string}}
    }
    await send('POST', '/v1.0/customers', CUSTOMER)
    const plan = (await send('POST', '/v1.0/payment_plans', {...PLAN, start_date: '2099-01-01'})).response
    const suspended = (await send('PUT', `/v1.0/payment_plans/${plan.id}`, {new_status: 'Suspended'})).response
    const debit = (await send('DELETE', `/v1.0/direct_debits/${(await send('POST', '/v1.0/direct_debits', DEBIT)).response.id}`)).response
    const gone = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    // Until its parent has reaped it, a killed process still holds its pid, and its lock looks held.
    await gone

    const restarted = await sandbox({stateFile})
    expect((await get(restarted, `/v1.0/payment_plans/${plan.id}`)).response).toStrictEqual(suspended)
    expect((await get(restarted, `/v1.0/direct_debits/${debit.id}`)).response).toStrictEqual(debit)
  })

  it.each([
    ['payment_plans', 'start_date', 'soon', 'must be a date, YYYY-MM-DD'],
    ['direct_debits', 'amount', '42.42', 'Invalid input: expected number, received string'],
  ])('refuse to load a file whose %s record has a bad %s, naming its path', async (collection, field, value, problem) => {
    const stateFile = stateFileIn()
    const first = await sandbox({stateFile})
    await createCustomer(first)
    const made = (await call(first, 'POST', collection === 'payment_plans' ? '/v1.0/payment_plans' : '/v1.0/direct_debits', {body: collection === 'payment_plans' ? PLAN : DEBIT})).body.response
    await first.close()
    const state = JSON.parse(rowsOf(stateFile).snapshot)
    state.merchants.TEST[collection][made.id][field] = value
    runSql(stateFile, 'UPDATE snapshot SET state = ?', JSON.stringify(state))
    await expectReject(sandbox({stateFile}), StateFileError, `(snapshot, merchants.TEST.${collection}.${made.id}.${field}: ${problem})`)
  })
})
