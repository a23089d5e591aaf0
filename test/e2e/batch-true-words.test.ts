import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {inRowOrder} from './batch-helpers.js'
import {folder, startedInTest} from './identity-helpers.js'
import {ANSWERS, apiRequestsSince, cardArgs, describeInBothDialects, describeOnce, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'

// Words that match what happened: a journal that cannot be read is said so (exit 2),
// an increment that changes nothing is refused before it is sent, and a taken reference found to be
// this very transaction is not said to have sent nothing when its request reached the gateway.

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

/** A purchase of 100.00 AUD made at the gateway by gw: its id. */
async function purchase(extra: string[] = []): Promise<string> {
  const made = await sandbox.gw(['purchase', 'create', '--amount', '10000', '--reference', ref('tw'), ...cardArgs(), ...extra, '--json'])
  expect(made.code, made.stderr).toBe(0)
  return (made.json as {id: string}).id
}

describeOnce('a journal cut short', () => {
  it.for([3, 12])('of a %s-row batch, cut to half its bytes: exit 2, "cannot be read", nothing sent, the file left as it was', async (count, {onTestFinished}) => {
    const {counted} = startedInTest(onTestFinished)
    const id = await purchase()
    const dir = folder()
    const file = join(dir, 'refunds.csv')
    const prefix = ref('cut')
    writeFileSync(file, ['transaction_id,amount,reference', ...Array.from({length: count}, (_, i) => `${id},100,${prefix}-${i}`)].join('\n') + '\n')
    const journal = join(dir, 'j.sqlite')
    // More rows than --concurrency hold the journal on a worker thread, fewer on gw's own (run-batch.ts): both read it alike.
    const first = await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal, '--concurrency', '4'])
    expect(first.code, first.stderr).toBe(0)
    const whole = readFileSync(journal)
    writeFileSync(journal, whole.subarray(0, whole.length / 2))
    const cut = readFileSync(journal)
    const proxy = await counted(sandbox.url)
    const cursor = await requestLogCursor(sandbox)
    const again = await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal, '--concurrency', '4'], {env: {GW_BASE_URL: proxy.url}})
    expect(again.stderr).toContain(`Error: The batch journal ${journal} cannot be read (it is damaged: `)
    expect(again.stderr).toContain('): nothing was sent, and it is left as it is')
    expect(again.stderr).not.toContain('cannot be written')
    expect(again.code).toBe(2)
    expect(again.stdout).toBe('')
    expect(proxy.seen.filter((request) => request.method === 'POST')).toEqual([])
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')).toEqual([])
    expect(readFileSync(journal).equals(cut)).toBe(true)
    // Its dry run says the same.
    const dry = await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal, '--dry-run'])
    expect(dry.code).toBe(2)
    expect(dry.stderr).toContain(`Error: The batch journal ${journal} cannot be read (`)
  })
})

describeInBothDialects('an increment to the total authorized already', () => {
  it('never raised: refused before anything is sent (exit 2), naming --amount; raised to it before: done before, nothing sent (exit 0)', async ({onTestFinished}) => {
    const {counted} = startedInTest(onTestFinished)
    const id = await purchase(['--no-capture'])
    const proxy = await counted(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    const same = await sandbox.gw(['purchase', 'increment', id, '--amount', '10000'], {env})
    expect(same.stderr).toContain(`Error: --amount 10000 is what ${id} is authorized for already (100.00 AUD): an increment raises it to a new total, and nothing was sent`)
    expect(same.stderr).not.toContain('was done before')
    expect(same.code).toBe(2)
    expect(same.stdout).toBe('')
    const puts = () => proxy.seen.filter((request) => request.method === 'PUT')
    expect(puts()).toEqual([])
    const raised = await sandbox.gw(['purchase', 'increment', id, '--amount', '10200', '--json'], {env})
    expect(raised.code, raised.stderr).toBe(0)
    expect(raised.json).toMatchObject({amount: 10200, metadata: {original_amount: '10000'}})
    expect(puts()).toHaveLength(1)
    const again = await sandbox.gw(['purchase', 'increment', id, '--amount', '10200', '--json'], {env})
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toBe(`Increment of ${id} was done before: nothing changed now.\n`)
    expect(again.json).toMatchObject({amount: 10200})
    expect(puts()).toHaveLength(1)
  })
})

describeInBothDialects('a reference taken by this same refund, made earlier', () => {
  it('says the gateway refused the request for it (it was sent), not that nothing was sent', async ({onTestFinished}) => {
    const {counted} = startedInTest(onTestFinished)
    const id = await purchase()
    const reference = ref('twice')
    const first = await sandbox.gw(['refund', 'create', '--transaction-id', id, '--amount', '500', '--reference', reference, '--json'])
    expect(first.code, first.stderr).toBe(0)
    const proxy = await counted(sandbox.url)
    const again = await sandbox.gw(['refund', 'create', '--transaction-id', id, '--amount', '500', '--reference', reference], {env: {GW_BASE_URL: proxy.url}})
    expect(again.code, again.stderr).toBe(0)
    expect(proxy.posts(reference)).toBe(1)
    expect(again.stderr).toBe(`Reference ${reference} was taken by this same refund (${(first.json as {id: string}).id}), made earlier: the gateway refused this request for it, and nothing more was made.\n`)
    expect(again.records).toMatchObject([{reference, amount: expect.any(Number)}])
  })
})

describeInBothDialects('batch refund rows held to what is certainly left, as a single refund create', () => {
  it('a row in full with nothing left and rows of an amount beyond what is left: refused unsent (exit 7), their money in the purchase’s currency', async () => {
    const id = await purchase()
    const full = await sandbox.gw(['refund', 'create', '--transaction-id', id, '--json'])
    expect(full.code, full.stderr).toBe(0)
    const file = join(folder(), 'refunds.csv')
    const given = ref('left')
    writeFileSync(file, `transaction_id,amount,reference\n${id},,\n${id},300,${given}\n${id},200,\n`)
    const cursor = await requestLogCursor(sandbox)
    const run = await sandbox.gw(['refund', 'create', '--input', file])
    expect(run.code).toBe(7)
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')).toEqual([])
    const {reference} = (await sandbox.gw(['purchase', 'get', id, '--json'])).json as {reference: string}
    const nothingLeft = `Nothing is left of purchase ${reference} to refund (100.00 AUD of 100.00 AUD refunded for certain: 1 refund gw made for it): nothing was sent`
    expect(inRowOrder(run.records)).toMatchObject([1, 2, 3].map((row) => ({row, status: 'rejected', exit_code: 7, error: {status: null, messages: [nothingLeft]}})))
    expect(run.stderr).toContain('3 refunds: 3 rejected in ')
    expect(run.stderr).toContain('\n  rejected 105.00 AUD\n')
    expect(run.stderr).not.toContain('currency not known')
  })

  it('rows of amounts within what is left are each sent', async () => {
    const id = await purchase()
    const file = join(folder(), 'refunds.csv')
    writeFileSync(file, `transaction_id,amount,reference\n${id},4000,\n${id},4000,\n`)
    const run = await sandbox.gw(['refund', 'create', '--input', file])
    expect(run.code, run.stderr).toBe(0)
    expect(inRowOrder(run.records)).toMatchObject([{row: 1, status: 'approved'}, {row: 2, status: 'approved'}])
    expect(run.stderr).toContain('\n  approved 80.00 AUD\n')
  })
})

describeInBothDialects('a batch of refund rows with amounts, held to what is certainly left of each purchase', () => {
  it('one within what is left is sent; rows beyond it (given a reference or not) fail unsent, exit 7, naming what is left; a purchase that does not exist fails unsent, exit 5; one POST in all', async () => {
    const within = await purchase()
    const refunded = await purchase()
    const earlier = await sandbox.gw(['refund', 'create', '--transaction-id', refunded, '--amount', '6000', '--json'])
    expect(earlier.code, earlier.stderr).toBe(0)
    const refundedRef = ((await sandbox.gw(['purchase', 'get', refunded, '--json'])).json as {reference: string}).reference
    const file = join(folder(), 'refunds.csv')
    const given = [ref('within'), ref('beyond')]
    writeFileSync(file, `transaction_id,amount,reference\n${within},3000,${given[0]}\n${refunded},5000,\n${refunded},4500,${given[1]}\n071-P-NOSUCH01,700,\n`)
    const cursor = await requestLogCursor(sandbox)
    const run = await sandbox.gw(['refund', 'create', '--input', file])
    expect(run.code, run.stderr).toBe(7)
    const posts = (await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')
    expect(posts).toEqual([expect.objectContaining({path: '/v1.0/refunds', status: 200})])
    const lines = inRowOrder(run.records)
    const beyond = (amount: string) => `A refund of purchase ${refundedRef}: ${amount} AUD is more than is left of it, 40.00 AUD (60.00 AUD of 100.00 AUD refunded for certain: 1 refund gw made for it): nothing was sent`
    expect(lines).toEqual([
      expect.objectContaining({row: 1, line: 2, reference: given[0], status: 'approved', exit_code: 0, record: expect.objectContaining({reference: given[0]})}),
      expect.objectContaining({row: 2, line: 3, reference: null, status: 'rejected', exit_code: 7, error: expect.objectContaining({status: null, messages: [beyond('50.00')], hint: 'Refund 40.00 AUD (4000 in the minor unit) or less.'})}),
      expect.objectContaining({row: 3, line: 4, reference: given[1], status: 'rejected', exit_code: 7, error: expect.objectContaining({status: null, messages: [beyond('45.00')]})}),
      expect.objectContaining({row: 4, line: 5, reference: null, status: 'rejected', exit_code: 5, error: expect.objectContaining({kind: 'not_found', status: 404, messages: [`No purchase has the id or reference 071-P-NOSUCH01: ${ANSWERS.purchaseNotFound}`, ANSWERS.purchaseNotFound]})}),
    ])
    expect(run.stderr).toContain('\n4 refunds: 1 approved, 3 rejected in ')
    // Each row's money in its purchase's currency, the refused ones too; only the purchase not found leaves its currency untold.
    expect(run.stderr).toContain('\n  approved 30.00 AUD\n  rejected 95.00 AUD; 7.00 (currency not known)\n')
  })
})

describeInBothDialects('two rows of one batch refunding the same purchase', () => {
  it.for(['1', '4'])('the second asking more than the first leaves: it fails unsent, exit 7, and the purchase has one refund (--concurrency %s)', async (concurrency) => {
    const id = await purchase()
    const file = join(folder(), 'refunds.csv')
    writeFileSync(file, `transaction_id,amount,reference\n${id},6000,\n${id},5000,\n`)
    const cursor = await requestLogCursor(sandbox)
    const run = await sandbox.gw(['refund', 'create', '--input', file, '--concurrency', concurrency])
    expect(run.code, run.stderr).toBe(7)
    const posts = (await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')
    expect(posts).toEqual([expect.objectContaining({path: '/v1.0/refunds', status: 200})])
    const lines = inRowOrder(run.records)
    expect(lines).toEqual([
      expect.objectContaining({row: 1, status: 'approved', exit_code: 0}),
      expect.objectContaining({row: 2, status: 'rejected', exit_code: 7, error: expect.objectContaining({status: null, messages: [expect.stringMatching(/ 50\.00 AUD.*: nothing was sent$/)]})}),
    ])
    expect(run.stderr).toContain('\n2 refunds: 1 approved, 1 rejected in ')
    // What is left still goes, in a batch of its own.
    const rest = join(folder(), 'rest.csv')
    writeFileSync(rest, `transaction_id,amount,reference\n${id},4000,\n`)
    const after = await sandbox.gw(['refund', 'create', '--input', rest])
    expect(after.code, after.stderr).toBe(0)
  })
})
