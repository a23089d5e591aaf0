import {describe, expect, it} from 'vitest'
import PurchaseCreate from '../../../src/commands/purchase/create.js'
import PurchaseGet from '../../../src/commands/purchase/get.js'
import PurchaseList from '../../../src/commands/purchase/list.js'
import RefundGet from '../../../src/commands/refund/get.js'
import {NotFoundError} from '../../../src/errors.js'
import {fakeClient} from '../operations/fake-client.js'
import {runCommand} from './run-command.js'

// Commands run whole in this process with a fake client (gh's xRun(opts) with fakes): parse
// errors, rendering and exit codes without spawning gw; their parse alone is in the tables (parse-
// table.ts); what needs a process (signals, a real sandbox) stays in test/e2e.

const purchase = {
  id: '071-P-ABCDEFGH',
  reference: 'order-1001',
  amount: 1000,
  currency: 'AUD',
  successful: true,
  message: 'Approved',
  card_holder: 'Jane Citizen',
  card_number: '424242XXXXXX4242',
  transaction_date: '2026-11-17T09:00:00+00:00',
}
const declined = {...purchase, id: '071-P-DECLINED', reference: 'order-1002', amount: 1051, successful: false, message: 'Insufficient Funds'}
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!
const card = ['--card-holder', 'Jane Citizen', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123']

describe('gw purchase get, in process', () => {
  it('prints one record as one JSON line when piped, exit 0', async () => {
    const fake = fakeClient({'purchases.get': () => purchase})
    const ran = await runCommand(PurchaseGet, ['order-1001'], {name: 'purchase get', client: fake.client})
    expect(ran).toMatchObject({code: 0, stderr: ''})
    expect(JSON.parse(ran.stdout)).toEqual(purchase)
    expect(fake.calls).toEqual([{method: 'purchases.get', args: ['order-1001']}])
    fake.verify()
  })

  it('shows a field list on a terminal, and only the --fields asked for', async () => {
    const fake = fakeClient({'purchases.get': () => purchase})
    const ran = await runCommand(PurchaseGet, ['order-1001', '--fields', 'reference,amount'], {name: 'purchase get', client: fake.client, tty: true})
    expect(ran.code).toBe(0)
    expect(ran.stdout).toBe('Reference  order-1001\nAmount     10.00 AUD\n')
  })

  it('exits 5 naming what was not found, nothing on stdout', async () => {
    const fake = fakeClient({'purchases.get': () => Promise.reject(new NotFoundError('No purchase order-9 at the gateway'))})
    const ran = await runCommand(PurchaseGet, ['order-9'], {name: 'purchase get', client: fake.client})
    expect(ran.code).toBe(5)
    expect(ran.stdout).toBe('')
    expect(ran.stderr).toContain('No purchase order-9 at the gateway')
  })

  it('several ids: each record in the order given, a failed one reported in its place, the worst exit code', async () => {
    const fake = fakeClient({'refunds.get': (id: string) => (id === 'r-2' ? Promise.reject(new NotFoundError(`No refund ${id}`)) : {id, amount: 500})})
    const ran = await runCommand(RefundGet, ['r-1', 'r-2', 'r-3'], {name: 'refund get', client: fake.client})
    expect(ran.code).toBe(5)
    expect(ran.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(['r-1', 'r-3'])
    expect(ran.stderr).toContain('r-2: No refund r-2')
    expect(ran.stderr).toContain('1 of 3 look-ups failed')
  })
})

describe('gw purchase create, in process', () => {
  it('an approval prints the record and exits 0, the card sent as given', async () => {
    const fake = fakeClient({'purchases.create': () => purchase})
    const ran = await runCommand(PurchaseCreate, ['--amount', '1000', '--reference', 'order-1001', ...card], {name: 'purchase create', client: fake.client})
    expect(ran).toMatchObject({code: 0, stderr: ''})
    expect(JSON.parse(ran.stdout)).toEqual(purchase)
    expect(fake.calls[0]!.args[0]).toEqual({amount: 1000, reference: 'order-1001', currency: 'AUD', card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
  })

  it('a decline prints its record on stdout, says why on stderr, and exits 3', async () => {
    const fake = fakeClient({'purchases.create': () => declined})
    const ran = await runCommand(PurchaseCreate, ['--amount', '1051', '--reference', 'order-1002', ...card], {name: 'purchase create', client: fake.client})
    expect(ran.code).toBe(3)
    expect(JSON.parse(ran.stdout)).toEqual(declined)
    expect(ran.stderr).toContain('Purchase declined: Insufficient Funds')
  })

  it('with --json a decline is the JSON error object on stderr', async () => {
    const fake = fakeClient({'purchases.create': () => declined})
    const ran = await runCommand(PurchaseCreate, ['--amount', '1051', '--reference', 'order-1002', '--json', ...card], {name: 'purchase create', client: fake.client})
    expect(ran.code).toBe(3)
    expect(JSON.parse(ran.stdout)).toEqual(declined)
    expect(ran.stderr).toBe('Error: Purchase declined: Insufficient Funds (HTTP 200)\n' + JSON.stringify({error: {kind: 'declined', status: 200, messages: ['Insufficient Funds'], request_id: null, exit_code: 3}}) + '\n')
  })
})

describe('gw purchase list, in process', () => {
  const purchases = Array.from({length: 3}, (_, i) => ({...purchase, id: `071-P-${i}`, reference: `order-${i}`, transaction_date: `2026-11-17T09:0${i}:00+00:00`}))

  it('prints the newest first, one JSON line a purchase, asking the gateway for a page', async () => {
    const fake = fakeClient({'purchases.list': () => ({records: purchases, paging: {page: 1, pages: 1, total: 3}})})
    const ran = await runCommand(PurchaseList, ['--limit', '2'], {name: 'purchase list', client: fake.client})
    expect(ran).toMatchObject({code: 0, stderr: ''})
    expect(ran.stdout.trim().split('\n').map((line) => JSON.parse(line).reference)).toEqual(['order-2', 'order-1'])
    expect(fake.calls[0]!.args[0]).toMatchObject({offset: 0})
  })
})

describe('parse errors, in process', () => {
  it('an unknown flag exits 2 naming it and the closest one, and sends nothing', async () => {
    const fake = fakeClient({})
    const ran = await runCommand(PurchaseCreate, ['--ammount', '100', '--reference', 'order-1', ...card], {name: 'purchase create', client: fake.client})
    expect(ran.code).toBe(2)
    expect(ran.stdout).toBe('')
    expect(ran.stderr).toContain('unknown flag: --ammount')
    expect(ran.stderr).toContain('Did you mean --amount?')
    expect(fake.calls).toEqual([])
  })

  it('a missing required flag with no terminal to ask on exits 2 naming it', async () => {
    const ran = await runCommand(PurchaseCreate, ['--amount', '100', ...card], {name: 'purchase create'})
    expect(ran.code).toBe(2)
    expect(ran.stderr).toBe('Error: Missing required flag reference\nHint: See gw purchase create --help for the flags and examples.\n')
    expect(ran.stdout).toBe('')
  })

  it('a bad value is refused by the flag, with the error as JSON under --json', async () => {
    const ran = await runCommand(PurchaseGet, ['order-1', '--concurrency', 'many', '--json'], {name: 'purchase get'})
    expect(ran.code).toBe(2)
    expect(JSON.parse(lastLine(ran.stderr))).toMatchObject({error: {kind: 'usage', exit_code: 2}})
    expect(ran.stderr).toContain('--concurrency')
  })

  it('--fields naming no field of the records is refused before anything is sent', async () => {
    const fake = fakeClient({})
    const ran = await runCommand(PurchaseGet, ['order-1', '--fields', 'nope'], {name: 'purchase get', client: fake.client})
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain('--json FIELDS or --fields: no such field nope')
    expect(fake.calls).toEqual([])
  })
})
