import {join} from 'node:path'
import {writeFileSync} from 'node:fs'
import {expect, it} from 'vitest'
import type {CountingProxy} from '../counting-proxy.js'
import {rowsOf, spawnGw} from './batch-helpers.js'
import {folder, startedPerTest} from './identity-helpers.js'
import {describeInBothDialects, describeOnce, ref, type Sandbox} from './helpers.js'
import {addDays, createCustomer, sandboxToday} from './recurring-helpers.js'

// Payment plans and direct debits made from a file (design.md §5): each made once, journaled,
// counted at a proxy in front of the gateway, whatever happens to gw.

const {cleanups, gateway, counted, relayed} = startedPerTest()

/**
 * A batch killed with kill -9 while its third POST is held at a gate in front of the gateway (which
 * gets it all the same once released, as a real one would), then run again, waiting out the local
 * gateway's processing window (2 s): the rerun, and the proxy that counted every request.
 */
async function killedAndRerun(sandbox: Sandbox, command: string[], file: string): Promise<{rerun: Awaited<ReturnType<Sandbox['gw']>>; proxy: CountingProxy; again: () => ReturnType<Sandbox['gw']>}> {
  const gate = await relayed(sandbox.url, {hold: (post) => post === 3})
  const proxy = await counted(gate.url)
  const journal = join(folder(), 'batch.journal')
  const args = [...command, '--input', file, '--journal', journal]
  const first = spawnGw(sandbox, [...args, '--concurrency', '1'], {GW_BASE_URL: proxy.url})
  cleanups.push(() => first.child.kill('SIGKILL'))
  await gate.held
  first.child.kill('SIGKILL')
  expect((await first.done).signal).toBe('SIGKILL')
  await gate.release()
  const again = () => sandbox.gw(args, {env: {GW_BASE_URL: proxy.url}})
  return {rerun: await again(), proxy, again}
}

/** A plan given no currency: gw sends AUD (every official library's default), so the record says it in either dialect. */
const NO_CURRENCY = 'AUD'

/** `count` weekly plans for one customer (by reference), a file of them, and their references. */
async function plansFile(sandbox: Sandbox, count: number): Promise<{file: string; references: string[]; customer: string}> {
  const customer = await createCustomer(sandbox)
  const start = addDays(await sandboxToday(sandbox), 14)
  const references = Array.from({length: count}, () => ref('pp'))
  const file = join(folder(), 'plans.csv')
  writeFileSync(file, 'customer,amount,frequency,anniversary,start_date,total_count,reference\n' + references.map((reference, i) => `${customer.reference},${1000 + i * 100},weekly,5,${start},4,${reference}`).join('\n') + '\n')
  return {file, references, customer: customer.id}
}

/** `count` debits, the last without a reference (gw makes one), and the references given. */
function debitsFile(count: number): {file: string; given: string[]} {
  const given = Array.from({length: count - 1}, () => ref('dd'))
  const rows = [...given, ''].map((reference, i) => `${4200 + i},Rent ${i + 1},123-456,Jane Citizen,01234567${i},${reference}`)
  const file = join(folder(), 'debits.csv')
  writeFileSync(file, 'amount,description,bsb,account_name,account_number,reference\n' + rows.join('\n') + '\n')
  return {file, given}
}

const planPosts = (proxy: CountingProxy) => proxy.seen.filter((request) => request.method === 'POST' && request.path.startsWith('/v1.0/payment_plans'))
const debitPosts = (proxy: CountingProxy) => proxy.seen.filter((request) => request.method === 'POST' && request.path.startsWith('/v1.0/direct_debits'))

describeInBothDialects('gw payment-plan create --input', () => {
  it('makes each plan once (made, exit 0), and a rerun reports them from the journal, sending nothing', async () => {
    const sandbox = await gateway()
    const {file, references, customer} = await plansFile(sandbox, 3)
    const proxy = await counted(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    const first = await sandbox.gw(['payment-plan', 'create', '--input', file], {env})
    expect(first.code, first.stderr).toBe(0)
    const rows = rowsOf(first.stdout).sort((a, b) => a.row - b.row)
    expect(rows.map((row) => [row.line, row.reference, row.status, row.exit_code])).toEqual(references.map((reference, i) => [i + 2, reference, 'made', 0]))
    expect(rows.map((row) => row.record)).toEqual(references.map((reference, i) => expect.objectContaining({reference, customer, amount: 1000 + i * 100, currency: NO_CURRENCY, frequency: 'Weekly', total_count: 4, status: 'Active'})))
    expect(first.stderr).toMatch(/3 payment plans: 3 made in [\d.]+ s\n {2}made {5}33\.00/)
    const again = await sandbox.gw(['payment-plan', 'create', '--input', file], {env})
    expect(again.code, again.stderr).toBe(0)
    expect(rowsOf(again.stdout).map((row) => [row.status, row.resumed ?? false])).toEqual(references.map(() => ['made', true]))
    expect(again.stderr).toContain('3 payment plans: 3 made (3 done by an earlier run)')
    expect(planPosts(proxy).map((post) => post.reference).sort()).toEqual([...references].sort())
    expect(proxy.repeats()).toEqual({})
  })

  it('after kill -9 with a plan in flight, the rerun finds it by its reference and sends only the rest: one POST per plan', async () => {
    const sandbox = await gateway()
    const {file, references} = await plansFile(sandbox, 5)
    // Rows journaled but never sent are looked up again until the window is over, then sent.
    const {rerun, proxy} = await killedAndRerun(sandbox, ['payment-plan', 'create'], file)
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(rerun.stderr).toMatch(/resuming: 2 rows answered, \d in doubt/)
    const rows = rowsOf(rerun.stdout).sort((a, b) => a.row - b.row)
    expect(rows.map((row) => [row.reference, row.status])).toEqual(references.map((reference) => [reference, 'made']))
    // The plan in flight when gw was killed, at least, is found made and not sent again.
    expect(rows.filter((row) => row.resumed).length).toBeGreaterThanOrEqual(3)
    for (const reference of references) expect(proxy.posts(reference), reference).toBe(1)
    const list = await sandbox.gw(['payment-plan', 'list', '--all', '--json'])
    expect((list.stdout.trim().split('\n').map((line) => (JSON.parse(line) as {reference: string}).reference)).sort()).toEqual([...references].sort())
  })
})

// Shown or refused by gw itself, nothing sent: no answer of a gateway's decides it.
describeOnce('gw payment-plan create --input: a dry run, and a bad row', () => {
  it('--dry-run shows each plan as it would be sent and sends nothing', async () => {
    const sandbox = await gateway()
    const {file, references} = await plansFile(sandbox, 2)
    const proxy = await counted(sandbox.url)
    const result = await sandbox.gw(['payment-plan', 'create', '--input', file, '--dry-run'], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('Dry run: 2 payment plans would be sent (21.00 AUD). Nothing was sent.\n')
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as {reference: string; request: Record<string, unknown>})
    expect(lines.map((line) => [line.reference, line.request.frequency, line.request.total_amount])).toEqual([
      [references[0], 'Weekly', 4000],
      [references[1], 'Weekly', 4400],
    ])
    expect(planPosts(proxy)).toEqual([])
  })

  it('a bad row is named with its line and field, and nothing is sent (exit 2)', async () => {
    const sandbox = await gateway()
    const proxy = await counted(sandbox.url)
    const file = join(folder(), 'bad-plans.csv')
    writeFileSync(file, 'customer,amount,frequency,anniversary,start_date,total_count,reference\ncust-1,1000,weekly,5,2030-01-04,4,pp-1\ncust-1,1000,hourly,5,2030-01-04,,pp-2\n')
    const result = await sandbox.gw(['payment-plan', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`${file} line 3: frequency must be one of Daily, Weekly, Fortnightly, Monthly, Quarterly, Bi-Annually, Annually, got "hourly"; total_count or end_date must be given: a plan says when it ends\n`)
    expect(result.stderr).toContain('1 of 2 rows is invalid (line 3): nothing was sent')
    expect(proxy.seen).toEqual([])
  })
})

describeInBothDialects('gw direct-debit create --input', () => {
  it('makes each debit once, a row without a reference given one made for it, and a rerun sends nothing', async () => {
    const sandbox = await gateway()
    const {file, given} = debitsFile(3)
    const proxy = await counted(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    const first = await sandbox.gw(['direct-debit', 'create', '--input', file], {env})
    expect(first.code, first.stderr).toBe(0)
    const rows = rowsOf(first.stdout).sort((a, b) => a.row - b.row)
    const made = rows[2]!.reference
    expect(made).toMatch(/^dd-\d{8}-[0-9a-z]{6}-R1$/)
    expect(rows.map((row) => [row.reference, row.status, row.exit_code])).toEqual([...given, made].map((reference) => [reference, 'made', 0]))
    expect(rows.map((row) => [row.record!.reference, row.record!.amount, row.record!.status])).toEqual([
      [given[0], 42, 'New'],
      [given[1], 42.01, 'New'],
      [made, 42.02, 'New'],
    ])
    expect(first.stderr).toMatch(/3 direct debits: 3 made in [\d.]+ s\n {2}made {5}126\.03 AUD\n/)
    const again = await sandbox.gw(['direct-debit', 'create', '--input', file], {env})
    expect(again.code, again.stderr).toBe(0)
    expect(rowsOf(again.stdout).map((row) => [row.reference, row.status, row.resumed ?? false])).toEqual([...given, made].map((reference) => [reference, 'made', true]))
    expect(debitPosts(proxy).map((post) => post.reference)).toEqual(expect.arrayContaining([...given, made]))
    expect(debitPosts(proxy)).toHaveLength(3)
  })

  it('after kill -9 with a debit in flight, the rerun finds it by its reference; a row journaled and not found is left in doubt (exit 8), never sent twice', async () => {
    const sandbox = await gateway()
    const {file} = debitsFile(5)
    const {rerun, proxy, again: runAgain} = await killedAndRerun(sandbox, ['direct-debit', 'create'], file)
    const rows = rowsOf(rerun.stdout).sort((a, b) => a.row - b.row)
    // The debit in flight is found made under its reference; rows journaled but never sent cannot be told from debits the gateway made and does not find: in doubt.
    expect(rows[2]).toMatchObject({status: 'made', resumed: true})
    const doubtful = rows.filter((row) => row.status === 'unknown')
    expect(rows.every((row) => row.status === 'made' || row.status === 'unknown')).toBe(true)
    // With one request in flight, the rows after it had their intents journaled ahead (gateway-slots.ts LOOK_AHEAD), and were never sent.
    expect(doubtful.length).toBeGreaterThanOrEqual(1)
    expect(rerun.code, rerun.stderr).toBe(8)
    for (const row of doubtful) {
      expect(row.error!.messages[0]).toContain(`The gateway has no direct debit it finds under reference ${row.reference}, but it is known to find a direct debit by its id only`)
      expect(rerun.stderr).toContain(`gw direct-debit list --reference ${row.reference} --all`)
    }
    // Each debit POSTed at most once: none in doubt was sent again.
    expect(proxy.repeats()).toEqual({})
    for (const row of rows) expect(proxy.posts(row.reference), row.reference).toBe(row.status === 'made' ? 1 : 0)
    const again = await runAgain()
    expect(again.code).toBe(rerun.code)
    expect(proxy.repeats()).toEqual({})
  })

  it('--verify against a gateway that names no run of its data: each debit the journal has made is looked up by its id; against another gateway each is missing (exit 5), never sent', async () => {
    const first = await gateway()
    const {file} = debitsFile(2)
    const nameless = await relayed(first.url, {strip: ['X-Sandbox-Instance']})
    const proxy = await counted(nameless.url)
    const env = {GW_BASE_URL: proxy.url}
    const sent = await first.gw(['direct-debit', 'create', '--input', file], {env})
    expect(sent.code, sent.stderr).toBe(0)
    const made = rowsOf(sent.stdout).sort((a, b) => a.row - b.row)
    const ids = made.map((row) => String(row.record!.id))
    const verified = await first.gw(['direct-debit', 'create', '--input', file, '--verify'], {env})
    expect(verified.code, verified.stderr).toBe(0)
    expect(rowsOf(verified.stdout).map((row) => [row.status, row.resumed])).toEqual([['made', true], ['made', true]])
    const looked = proxy.seen.filter((request) => request.method === 'GET' && request.path.startsWith('/v1.0/direct_debits/')).map((request) => request.path)
    expect(looked.sort()).toEqual(ids.map((id) => `/v1.0/direct_debits/${id}`).sort())

    nameless.target = (await gateway()).url
    const missing = await first.gw(['direct-debit', 'create', '--input', file, '--verify'], {env})
    expect(missing.code).toBe(5)
    const rows = rowsOf(missing.stdout).sort((a, b) => a.row - b.row)
    expect(rows.map((row) => [row.reference, row.status, row.exit_code])).toEqual(made.map((row) => [row.reference, 'missing', 5]))
    expect(rows[0]!.error!.messages[0]).toBe(`The journal has this direct debit made as ${ids[0]} by an earlier run, and the gateway has no direct debit ${ids[0]}: it was not sent again`)
    expect(missing.stderr).toContain('2 direct debits: 2 missing')
    expect(debitPosts(proxy)).toHaveLength(2)
  })
})

// Shown or refused by gw itself, nothing sent: no answer of a gateway's decides it.
describeOnce('gw direct-debit create --input: a dry run, and a bad row', () => {
  it('--dry-run shows each debit in cents and sends nothing', async () => {
    const sandbox = await gateway()
    const {file, given} = debitsFile(2)
    const proxy = await counted(sandbox.url)
    const result = await sandbox.gw(['direct-debit', 'create', '--input', file, '--dry-run'], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('Dry run: 2 direct debits would be sent (84.01 AUD). Nothing was sent.\n')
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as {reference: string | null; request: Record<string, unknown>})
    expect(lines.map((line) => [line.reference, line.request.amount, line.request.bsb])).toEqual([
      [given[0], 4200, '123-456'],
      [null, 4201, '123-456'],
    ])
    expect(proxy.seen).toEqual([])
  })

  it('a bad row is named with its line and field, and nothing is sent (exit 2)', async () => {
    const sandbox = await gateway()
    const proxy = await counted(sandbox.url)
    const file = join(folder(), 'bad-debits.csv')
    writeFileSync(file, 'amount,description,bsb,account_name,account_number,reference\n4200,Rent,123-456,Jane Citizen,012345678,dd-1\n42.00,Rent,12-3456,Jane Citizen,012345678,dd-2\n')
    const result = await sandbox.gw(['direct-debit', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`${file} line 3: amount must be a positive whole number in the currency's minor unit, got "42.00"; bsb must be six digits as 123-456, got "12-3456"\n`)
    expect(proxy.seen).toEqual([])
  })
})
