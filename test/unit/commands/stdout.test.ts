import {describe, expect, it} from 'vitest'
import PurchaseCreate from '../../../src/commands/purchase/create.js'
import PurchaseGet from '../../../src/commands/purchase/get.js'
import PurchaseList from '../../../src/commands/purchase/list.js'
import {testIo} from '../../test-io.js'
import {fakeClient} from '../operations/fake-client.js'
import {runCommand} from './run-command.js'

// stdout's reader as testIo makes it (behind, gone, or a file that takes no more): what gw does
// then, in this process (design.md §3 and §4: output waits for its reader; a closed pipe is
// silent, exit 141; any other failure to write says so, exit 1).

const purchases = Array.from({length: 120}, (_, i) => ({
  id: `071-P-${String(i).padStart(8, '0')}`,
  reference: `order-${i}`,
  amount: 1000,
  currency: 'AUD',
  successful: true,
  message: 'Approved',
  transaction_date: new Date(Date.UTC(2026, 10, 17, 9, i)).toISOString(),
}))

/** A gateway's list of the purchases above, paged as it is asked (offset and limit), oldest first. */
function pagedGateway() {
  return fakeClient({
    'purchases.list': ({offset, limit}: {offset: number; limit: number}) => ({
      records: purchases.slice(offset, offset + limit),
      paging: {page: offset / limit + 1, pages: Math.ceil(purchases.length / limit), total: purchases.length},
    }),
  })
}

const offsetsAsked = (fake: ReturnType<typeof pagedGateway>) => fake.calls.map((call) => (call.args[0] as {offset: number}).offset)
const lines = (text: string) => text.split('\n').filter(Boolean)

describe('a list waits for its reader', () => {
  it('asks for no page while its reader is behind, and goes on once the reader catches up', async () => {
    const fake = pagedGateway()
    const io = testIo({behind: true})
    const running = runCommand(PurchaseList, ['--all', '--oldest-first', '--concurrency', '1'], {name: 'purchase list', client: fake.client, io})
    await io.waitingForReader()
    expect(offsetsAsked(fake)).toEqual([0])
    expect(lines(io.stdout())).toHaveLength(50)
    io.catchUp()
    const ran = await running
    expect(ran).toMatchObject({code: 0, stderr: ''})
    expect(offsetsAsked(fake)).toEqual([0, 50, 100])
    expect(lines(ran.stdout)).toHaveLength(120)
  })

  it('prints nothing more once its reader has gone, and exits 141 saying nothing', async () => {
    const fake = pagedGateway()
    const io = testIo({behind: true})
    const running = runCommand(PurchaseList, ['--all', '--oldest-first', '--concurrency', '1'], {name: 'purchase list', client: fake.client, io})
    await io.waitingForReader()
    io.closeOut()
    const ran = await running
    expect(ran).toMatchObject({code: 141, stderr: ''})
    expect(lines(ran.stdout)).toHaveLength(50)
  })
})

describe('stdout that cannot be written', () => {
  const ids = ['071-P-00000000', '071-P-00000001', '071-P-00000002']
  const lookUps = () => fakeClient({'purchases.get': (id: string) => purchases.find((purchase) => purchase.id === id)})

  it('a closed pipe is silent: exit 141, nothing on stderr', async () => {
    const ran = await runCommand(PurchaseGet, ids, {name: 'purchase get', client: lookUps().client, io: testIo({failWrites: {code: 'EPIPE'}})})
    expect(ran).toMatchObject({code: 141, stdout: '', stderr: ''})
  })

  it('a reader gone after the first record: that record is out, exit 141', async () => {
    const ran = await runCommand(PurchaseGet, ids, {name: 'purchase get', client: lookUps().client, io: testIo({failWrites: {code: 'EPIPE', afterWrites: 1}})})
    expect(ran).toMatchObject({code: 141, stderr: ''})
    expect(lines(ran.stdout).map((line) => JSON.parse(line).id)).toEqual([ids[0]])
  })

  it('any other failure (a full disk) says so in one line and exits 1, never a silent 0', async () => {
    const ran = await runCommand(PurchaseGet, ids, {name: 'purchase get', client: lookUps().client, io: testIo({failWrites: {code: 'ENOSPC'}})})
    expect(ran).toMatchObject({code: 1, stdout: '', stderr: 'Error: stdout could not be written (ENOSPC): what was printed there is incomplete\n'})
  })

  it('an approved purchase whose record cannot be printed says what became of it and not to resend it', async () => {
    const fake = fakeClient({'purchases.create': () => purchases[0]})
    const argv = ['--amount', '1000', '--reference', 'order-0', '--card-token', 'customer-42']
    const ran = await runCommand(PurchaseCreate, argv, {name: 'purchase create', client: fake.client, io: testIo({failWrites: {code: 'EPIPE'}})})
    expect(ran).toMatchObject({code: 141, stdout: ''})
    expect(ran.stderr).toBe('The purchase was approved (id 071-P-00000000, reference order-0), but its record could not be printed: do not resend it; gw purchase get order-0 shows it.\n')
  })
})
