import {expect, it} from 'vitest'
import {apiRequestsSince, describeInBothDialects, describeOnce, DIALECT, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'
import {addDays, sandboxToday} from './recurring-helpers.js'

interface DirectDebit {
  id: string
  amount: number
  reference: string
  status: string
  metadata: unknown
}

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

/** `metadata` `{}` in the contract's dialect (2017 to May 2018), null in the live gateway's (later builds). */
const METADATA = DIALECT === 'live' ? null : {}

const debitArgs = ({amount = '4242', reference = ref('dd')}: {amount?: string; reference?: string} = {}) => [
  'direct-debit', 'create', '--amount', amount, '--description', 'Rent', '--bsb', '123-456', '--account-name', 'Jane Citizen', '--account-number', '012345678', '--reference', reference,
]

async function createDebit(options: Parameters<typeof debitArgs>[0] = {}): Promise<DirectDebit> {
  const result = await sandbox.gw(debitArgs(options))
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return result.json as DirectDebit
}

describeInBothDialects('gw direct-debit create', () => {
  it('sends --amount in cents as the dollars the gateway takes: HTTP 201, New', async () => {
    const reference = ref('dd')
    const result = await sandbox.gw([...debitArgs({reference}), '--verbose'])
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/< 201 POST http:\/\/[^ ]+\/v1\.0\/direct_debits /)
    const debit = result.json as DirectDebit
    expect(debit).toMatchObject({amount: 42.42, bsb: '123-456', account_name: 'Jane Citizen', account_number: '012345678', description: 'Rent', reference, status: 'New', process_date: null, result: null, metadata: METADATA})
    expect(debit.id).toMatch(/^071-DD-/)
  })

  it('takes a BSB without its dash, and sends a debit without a reference under one gw makes, dd-DAY-RANDOM-R1', async () => {
    const result = await sandbox.gw(['direct-debit', 'create', '--amount', '1000', '--description', 'Dues', '--bsb', '123456', '--account-name', 'Jane', '--account-number', '42'])
    expect(result.code).toBe(0)
    const debit = result.json as DirectDebit
    expect(debit).toMatchObject({amount: 10, bsb: '123-456'})
    expect(debit.reference).toMatch(/^dd-\d{8}-[0-9a-z]{6}-R1$/)
  })

  it('a debit whose answer is lost is sent once, found by its reference (exit 0)', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/direct_debits', action: 'drop-after'})
    const reference = ref('dd')
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(debitArgs({reference}))
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({reference, status: 'New', amount: 42.42})
    expect(result.stderr).toContain(`looking reference ${reference} up at the gateway`)
    expect(result.stderr).toContain('Found the direct debit by its reference: the gateway processed it once.')
    const requests = await apiRequestsSince(sandbox, cursor)
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual(['/v1.0/direct_debits'])
  })

  it('a debit whose answer is lost and that is not found once the processing window is over: exit 8, never resent, the command to check it', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/direct_debits', action: 'drop-before'})
    const reference = ref('dd')
    const result = await sandbox.gw(debitArgs({reference}))
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`gw direct-debit list --reference ${reference} --all`)
  })
})

describeOnce("gw direct-debit create's flags", () => {
  it.each([
    ['a BSB of the wrong shape', ['--bsb', '12-34'], 'Error: --bsb must be six digits as 123-456, got "12-34"'],
    ['an account number with letters', ['--account-number', '12a'], 'Error: --account-number must be digits only (at most 20), got "12a"'],
    ['an amount in dollars', ['--amount', '42.42'], `Error: --amount must be a positive whole number in the currency's minor unit, got "42.42"`],
    ['a blank description', ['--description', ''], 'Error: --description must not be blank'],
  ])('refuses %s before sending anything (exit 2)', async (_, [flag, value], message) => {
    const args = debitArgs()
    args[args.indexOf(flag!) + 1] = value!
    const result = await sandbox.gw(args)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(message)
  })
})

describeInBothDialects('gw direct-debit get', () => {
  it('finds debits by id and by reference; an unknown one exits 5 with the gateway\'s words', async () => {
    const debit = await createDebit()
    const byId = await sandbox.gw(['direct-debit', 'get', debit.id])
    expect(byId.code).toBe(0)
    expect(byId.json).toEqual(debit)
    const several = await sandbox.gw(['direct-debit', 'get', debit.reference, 'no-such-debit'])
    expect(several.code).toBe(5)
    expect(several.records).toEqual([debit])
    expect(several.stderr).toContain('Error: No direct debit has the id or reference no-such-debit: Could not find Direct Entry (HTTP 404')
  })
})

describeInBothDialects('gw direct-debit delete and list', () => {
  it('deletes a debit, which the list still shows, Deleted, newest first', async () => {
    const older = await createDebit({amount: '100'})
    const newer = await createDebit({amount: '200'})
    const deleted = await sandbox.gw(['direct-debit', 'delete', older.id])
    expect(deleted.code).toBe(0)
    expect(deleted.json).toMatchObject({id: older.id, status: 'Deleted', amount: 1})
    const listed = await sandbox.gw(['direct-debit', 'list', '--limit', '2'])
    expect(listed.code).toBe(0)
    expect(listed.records.map((record) => [(record as DirectDebit).id, (record as DirectDebit).status])).toEqual([[newer.id, 'New'], [older.id, 'Deleted']])
  })

  it('an unknown debit exits 5 with the id in the gateway\'s words; the id is required (exit 2)', async () => {
    const unknown = await sandbox.gw(['direct-debit', 'delete', '071-DD-ZZZZZZZZ'])
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toContain('Error: No direct debit has the id or reference 071-DD-ZZZZZZZZ: Direct Debit 071-DD-ZZZZZZZZ could not be found. (HTTP 404')
    const none = await sandbox.gw(['direct-debit', 'delete'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('Missing 1 required arg')
  })

  it('--on is held to the day a debit goes to the bank (its date), not the day it was made', async () => {
    const today = await sandboxToday(sandbox)
    // A weekday two weeks on: the local gateway moves a weekend date to the Monday after.
    let later = addDays(today, 14)
    while ([0, 6].includes(new Date(`${later}T00:00:00Z`).getUTCDay())) later = addDays(later, 1)
    const reference = ref('dd-later')
    const made = await sandbox.gw(['api', 'POST', '/v1.0/direct_debits', '--data', JSON.stringify({description: 'Rent', amount: 42, bsb: '123-456', account_name: 'Jane Citizen', account_number: '012345678', reference, date: later})])
    expect(made.code, made.stderr).toBe(0)
    const onThatDay = await sandbox.gw(['direct-debit', 'list', '--on', later, '--all'])
    expect(onThatDay.code, onThatDay.stderr).toBe(0)
    expect(onThatDay.records.map((record) => [(record as DirectDebit).reference, (record as {date: string}).date])).toEqual([[reference, later]])
    const onTheDayMade = await sandbox.gw(['direct-debit', 'list', '--on', today, '--reference', reference])
    expect(onTheDayMade.records).toEqual([])
  })

  it('--reference finds the one debit', async () => {
    const debit = await createDebit()
    const result = await sandbox.gw(['direct-debit', 'list', '--reference', debit.reference, '--all'])
    expect(result.code).toBe(0)
    expect(result.records).toEqual([debit])
  })
})
