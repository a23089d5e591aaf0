import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {folder, startedInTest} from './identity-helpers.js'
import {apiRequestsSince, cardArgs, ref, requestLogCursor, type Sandbox, sandboxForFile} from './helpers.js'

// Words that match what happened (issue 60.5): a journal that cannot be read is said so (exit 2),
// an increment that changes nothing is refused before it is sent, and a taken reference found to be
// this very transaction is not said to have sent nothing when its request reached the gateway.

let sandbox: Sandbox
sandboxForFile((started) => void (sandbox = started))

/** A purchase of 100.00 AUD made at the gateway by gw: its id. */
async function purchase(extra: string[] = []): Promise<string> {
  const made = await sandbox.gw(['purchase', 'create', '--amount', '10000', '--reference', ref('tw'), ...cardArgs(), ...extra, '--json'])
  expect(made.code, made.stderr).toBe(0)
  return (made.json as {id: string}).id
}

describe('a journal cut short', () => {
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

describe('an increment to the total authorized already', () => {
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

describe('a reference taken by this same refund, made earlier', () => {
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
