import {copyFileSync, existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {countingProxy, type CountingProxy} from '../counting-proxy.js'
import {journalText} from '../journal-text.js'
import {rowsOf, spawnGw} from './batch-helpers.js'
import {folder, purchasedAt, startedInTest} from './identity-helpers.js'
import {apiRequestsSince, describeInBothDialects, isolatedHome, ref, requestLogCursor, type Sandbox} from './helpers.js'
import {until} from '../until.js'

// The gateway has the last word (design.md §5): whether a row of a batch was made does not
// depend on which copy of gw's files runs it. A journal copied mid-batch and resumed after the original
// finished, and the same file run from a second data directory, refund nothing again: counted at a
// proxy in front of the gateway, and at the gateway (its request log, and the refunds it holds).

// Each test has a gateway of its own, whose request log holds its requests alone: the tests run at once.

/** A refund batch of `count` rows over as many purchases of 10.00 AUD (made at the gateway): `blank` rows give no reference. */
async function refundBatch(sandbox: Sandbox, count: number, blank: (row: number) => boolean): Promise<{file: string; dir: string; purchases: string[]; references: string[]}> {
  const purchases = await purchasedAt(sandbox, count)
  const dir = folder()
  const file = join(dir, 'refunds.csv')
  const references = purchases.map((purchase, i) => (blank(i) ? `${purchase}-R1` : `${purchase}-given`))
  writeFileSync(file, ['transaction_id,amount,reference', ...purchases.map((purchase, i) => `${purchase},400,${blank(i) ? '' : references[i]}`)].join('\n') + '\n')
  return {file, dir, purchases, references}
}

/** The refunds the gateway holds of a purchase, by the references gw derives for it (-R1, -R2...) and the one the row gave. */
async function refundsAt(sandbox: Sandbox, purchase: string): Promise<string[]> {
  const held: string[] = []
  for (const reference of [`${purchase}-given`, ...[1, 2, 3].map((n) => `${purchase}-R${n}`)]) {
    const answer = await fetch(`${sandbox.url}/v1.0/refunds/${encodeURIComponent(reference)}`, {headers: {authorization: `Basic ${Buffer.from('TEST:TEST').toString('base64')}`}})
    await answer.text()
    if (answer.status === 200) held.push(reference)
  }
  return held
}

/** Every reference POSTed once at the proxy, and each purchase holding its one refund at the gateway. */
async function madeOnce(sandbox: Sandbox, proxy: CountingProxy, batch: {purchases: string[]; references: string[]}): Promise<void> {
  expect(proxy.repeats()).toEqual({})
  expect(batch.references.map((reference) => proxy.posts(reference))).toEqual(batch.references.map(() => 1))
  expect(await Promise.all(batch.purchases.map((purchase) => refundsAt(sandbox, purchase)))).toEqual(batch.references.map((reference) => [reference]))
}

describeInBothDialects.concurrent('a journal copied mid-batch, resumed after the original finished', () => {
  it('refunds nothing again: the rows the copy had not started (blank references and given ones) are found made by this batch, each reported done by an earlier run', {timeout: 90_000}, async ({onTestFinished}) => {
    const {cleanups, gateway} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const batch = await refundBatch(sandbox, 20, (row) => row % 4 !== 3)
    // The 6th refund sent is held at the proxy while the journal is copied, as a backup or a sync would take it mid-batch.
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let posts = 0
    const proxy = await countingProxy(sandbox.url, {hold: (request) => (request.method === 'POST' && ++posts === 6 ? released : undefined)})
    cleanups.push(() => proxy.close(), release)
    const journal = join(batch.dir, 'j.sqlite')
    const copy = join(folder(), 'copy.sqlite')
    const original = spawnGw(sandbox, ['refund', 'create', '--input', batch.file, '--journal', journal, '--concurrency', '1'], {GW_BASE_URL: proxy.url})
    cleanups.push(() => original.child.kill('SIGKILL'))
    await proxy.arrived((request) => request.method === 'POST' && proxy.seen.filter((each) => each.method === 'POST').length >= 6)
    // Five rows answered in the journal, the sixth in flight: the copy is taken then (and SQLite's undo record with it, where there is one).
    await until('five answers in the journal', () => (journalText(journal).split('\n').filter((line) => line.startsWith('{"result"')).length === 5 ? true : undefined))
    copyFileSync(journal, copy)
    if (existsSync(`${journal}-journal`)) copyFileSync(`${journal}-journal`, `${copy}-journal`)
    release()
    const done = await original.done
    expect(done.code, done.stderr).toBe(0)
    await madeOnce(sandbox, proxy, batch)

    const cursor = await requestLogCursor(sandbox)
    const resumed = await sandbox.gw(['refund', 'create', '--input', batch.file, '--journal', copy], {env: {GW_BASE_URL: proxy.url}})
    expect(resumed.code, resumed.stderr).toBe(0)
    // Rows journaled ahead of the one in flight are in doubt in the copy; the rest it never started.
    const [, inDoubt, notStarted] = /\(resuming: 5 rows answered, (\d) in doubt, (\d+) not started\)/.exec(resumed.stderr) ?? []
    expect(Number(inDoubt) + Number(notStarted), resumed.stderr).toBe(15)
    expect(Number(notStarted)).toBeGreaterThan(10)
    const rows = rowsOf(resumed.stdout).sort((a, b) => a.row - b.row)
    expect(rows.map((row) => [row.reference, row.status, row.resumed])).toEqual(batch.references.map((reference) => [reference, 'approved', true]))
    expect(resumed.stderr).toMatch(/20 refunds: 20 approved \(20 done by an earlier run\)/)
    await madeOnce(sandbox, proxy, batch)
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')).toEqual([])
    // The copy agrees with the gateway now: run again, it reports every row from its journal alone.
    const again = await sandbox.gw(['refund', 'create', '--input', batch.file, '--journal', copy], {env: {GW_BASE_URL: proxy.url}})
    expect(again.stderr).toContain('(resuming: 20 rows answered, 0 in doubt, 0 not started)')
  })
})

describeInBothDialects.concurrent('the same file from a second data directory (another HOME)', () => {
  it.for<[string, (row: number) => boolean]>([
    ['blank references', () => true],
    ['references given', () => false],
  ])('%s: refunds nothing again, every row done by an earlier run, nothing POSTed', {timeout: 90_000}, async ([, blank], {onTestFinished}) => {
    const {counted, gateway} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const batch = await refundBatch(sandbox, 6, blank)
    const proxy = await counted(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    const first = await sandbox.gw(['refund', 'create', '--input', batch.file], {env})
    expect(first.code, first.stderr).toBe(0)
    await madeOnce(sandbox, proxy, batch)
    const cursor = await requestLogCursor(sandbox)
    const home = isolatedHome()
    // Its dry run there says so first: a reference derived is looked for at the gateway, one given when the run sends its row.
    const dry = await sandbox.gw(['refund', 'create', '--input', batch.file, '--dry-run'], {env: {...home, GW_BASE_URL: proxy.url}})
    expect(dry.code, dry.stderr).toBe(0)
    const madeEarlier = blank(0) ? 6 : 0
    expect(dry.stderr).toContain(`Dry run: ${6 - madeEarlier} refunds would be sent (${6 - madeEarlier === 0 ? 'nothing' : '24.00 AUD'})${madeEarlier ? `; ${madeEarlier} made by an earlier run of this batch, found at the gateway` : ''}. Nothing was sent.`)
    if (madeEarlier) expect(rowsOf(dry.stdout).map((row) => [row.reference, (row as {gateway?: string}).gateway])).toEqual(batch.references.map((reference) => [reference, 'made by an earlier run of this batch: not sent again']))
    const elsewhere = await sandbox.gw(['refund', 'create', '--input', batch.file], {env: {...home, GW_BASE_URL: proxy.url}})
    expect(elsewhere.code, elsewhere.stderr).toBe(0)
    expect(elsewhere.stderr).not.toContain('resuming')
    expect(rowsOf(elsewhere.stdout).sort((a, b) => a.row - b.row).map((row) => [row.reference, row.status, row.resumed])).toEqual(batch.references.map((reference) => [reference, 'approved', true]))
    expect(elsewhere.stderr).toMatch(/6 refunds: 6 approved \(6 done by an earlier run\)/)
    await madeOnce(sandbox, proxy, batch)
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')).toEqual([])
  })

  it('three blank-reference rows of each purchase: each finds its own refund among the purchase’s, none sent again', {timeout: 90_000}, async ({onTestFinished}) => {
    const {counted, gateway} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const purchases = await purchasedAt(sandbox, 2)
    const file = join(folder(), 'refunds.csv')
    writeFileSync(file, ['transaction_id,amount,reference', ...[0, 1, 2].flatMap((i) => purchases.map((purchase) => `${purchase},${100 + i},`))].join('\n') + '\n')
    const proxy = await counted(sandbox.url)
    const first = await sandbox.gw(['refund', 'create', '--input', file, '--concurrency', '4'], {env: {GW_BASE_URL: proxy.url}})
    expect(first.code, first.stderr).toBe(0)
    const made = rowsOf(first.stdout).map((row) => [row.row, row.reference] as const)
    expect(made.map(([, reference]) => reference).sort()).toEqual(purchases.flatMap((purchase) => [1, 2, 3].map((n) => `${purchase}-R${n}`)).sort())
    const elsewhere = await sandbox.gw(['refund', 'create', '--input', file, '--concurrency', '4'], {env: {...isolatedHome(), GW_BASE_URL: proxy.url}})
    expect(elsewhere.code, elsewhere.stderr).toBe(0)
    // Each row under the reference it was made under, whichever order the first run took them in.
    expect(rowsOf(elsewhere.stdout).map((row) => [row.row, row.reference, row.resumed]).sort()).toEqual(made.map(([row, reference]) => [row, reference, true]).sort())
    expect(proxy.repeats()).toEqual({})
    expect(proxy.seen.filter((request) => request.method === 'POST')).toHaveLength(6)
  })

  it('purchases with their references: none charged again, each done by an earlier run', {timeout: 90_000}, async ({onTestFinished}) => {
    const {counted, gateway} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const card = await sandbox.gw(['card', 'tokenize', '--card-holder', 'Jane Citizen', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123', '--json'])
    const token = (card.json as {token: string}).token
    const file = join(folder(), 'purchases.csv')
    const prefix = ref('copies')
    const references = Array.from({length: 4}, (_, i) => `${prefix}-${i}`)
    writeFileSync(file, ['card_token,amount,reference', ...references.map((reference) => `${token},1000,${reference}`)].join('\n') + '\n')
    const proxy = await counted(sandbox.url)
    expect((await sandbox.gw(['purchase', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url}})).code).toBe(0)
    const elsewhere = await sandbox.gw(['purchase', 'create', '--input', file], {env: {...isolatedHome(), GW_BASE_URL: proxy.url}})
    expect(elsewhere.code, elsewhere.stderr).toBe(0)
    expect(rowsOf(elsewhere.stdout).map((row) => [row.status, row.resumed])).toEqual(references.map(() => ['approved', true]))
    expect(references.map((reference) => proxy.posts(reference))).toEqual(references.map(() => 1))
  })
})

describeInBothDialects.concurrent('a refund another batch or a person made', () => {
  it('still moves a blank-reference row on to the next free reference; --new-batch makes the same rows again, as the user says', {timeout: 90_000}, async ({onTestFinished}) => {
    const {counted, gateway} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const [byHand, byBatch] = await purchasedAt(sandbox, 2)
    const proxy = await counted(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    // A person's refund, under the reference gw derives (no batch named in its metadata).
    expect((await sandbox.gw(['refund', 'create', '--transaction-id', byHand!, '--amount', '100'], {env})).code).toBe(0)
    // Another batch's refund of the other purchase.
    const other = join(folder(), 'other.csv')
    writeFileSync(other, `transaction_id,amount,reference\n${byBatch},100,\n`)
    expect((await sandbox.gw(['refund', 'create', '--input', other], {env})).code).toBe(0)
    const file = join(folder(), 'refunds.csv')
    writeFileSync(file, `transaction_id,amount,reference\n${byHand},400,\n${byBatch},400,\n`)
    const run = await sandbox.gw(['refund', 'create', '--input', file], {env})
    expect(run.code, run.stderr).toBe(0)
    expect(rowsOf(run.stdout).sort((a, b) => a.row - b.row).map((row) => [row.reference, row.status, row.resumed ?? false, row.record?.metadata])).toEqual([
      [`${byHand}-R2`, 'approved', false, {gw_batch: expect.stringMatching(/^[a-p]{16}$/), gw_row: '1'}],
      [`${byBatch}-R2`, 'approved', false, {gw_batch: expect.stringMatching(/^[a-p]{16}$/), gw_row: '2'}],
    ])
    // The same rows as a new batch: said with --new-batch, in a journal of its own.
    const journal = join(folder(), 'new.sqlite')
    const again = await sandbox.gw(['refund', 'create', '--input', file, '--new-batch', '--journal', journal], {env})
    expect(again.code, again.stderr).toBe(0)
    expect(rowsOf(again.stdout).map((row) => row.reference).sort()).toEqual([`${byHand}-R3`, `${byBatch}-R3`].sort())
    // Run again, the new batch is that batch: nothing more.
    const rerun = await sandbox.gw(['refund', 'create', '--input', file, '--new-batch', '--journal', journal], {env})
    expect(rerun.stderr).toContain('(resuming: 2 rows answered, 0 in doubt, 0 not started)')
    expect(proxy.repeats()).toEqual({})
    // --new-batch on a journal begun without it is refused: that journal's batch is the old one.
    const oldJournal = /^Journal: (.+)$/m.exec(run.stderr)![1]!
    const refused = await sandbox.gw(['refund', 'create', '--input', file, '--new-batch', '--journal', oldJournal], {env})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`Error: --new-batch begins a batch in a journal of its own, and ${oldJournal} holds a batch begun for these rows without it: nothing was sent`)
  })
})
