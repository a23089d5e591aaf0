import {afterEach, expect, it} from 'vitest'
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {countingProxy, type CountingProxy} from '../counting-proxy.js'
import {rowsOf, spawnGw, writeTemp} from './batch-helpers.js'
import {ANSWERS, apiRequestsSince, cardArgs, CARDS, describeInBothDialects, describeOnce, purchasedAtGateway, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'
import {until} from '../until.js'
import {journalText} from '../journal-text.js'

let sandbox: Sandbox
let proxy: CountingProxy
let token: string

sharedSandbox(async (started) => {
  sandbox = started
  const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])
  token = (card.json as {token: string}).token
})
afterEach(async () => {
  await proxy?.close()
})

/** `count` approved purchases of `amount` with the stored card, made at the gateway 8 at a time; their ids, in order. */
async function purchases(count: number, amount = 10000, cardToken = token): Promise<string[]> {
  const prefix = ref('order')
  const ids: string[] = []
  for (let start = 0; start < count; start += 8) {
    const made = await Promise.all(Array.from({length: Math.min(8, count - start)}, (_, i) => purchasedAtGateway(sandbox, {card_token: cardToken, amount, reference: `${prefix}-${start + i}`})))
    ids.push(...made.map((purchase) => purchase.id))
  }
  return ids
}

/** Once the clock's second has turned: a record made after is dated later than any made before. */
async function secondTurned(): Promise<void> {
  const second = Math.floor(Date.now() / 1000)
  await until("the clock's next second", () => Math.floor(Date.now() / 1000) > second || undefined)
}

function refundCsv(ids: string[], prefix: string, amount = '1000'): string {
  return ['transaction_id,amount,reference', ...ids.map((id, i) => `${id},${amount},${prefix}-${i}`)].join('\n') + '\n'
}

describeInBothDialects('gw refund create --input with --json FIELDS, --fields and -q', () => {
  it("--json id,amount: each row's line keeps its own keys, its record only the fields asked for, in that order", async () => {
    const ids = await purchases(2)
    const prefix = ref('fields')
    const result = await sandbox.gw(['refund', 'create', '--input', writeTemp('refunds.csv', refundCsv(ids, prefix)), '--json', 'amount,reference'])
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.trim().split('\n').sort()
    expect(lines).toEqual([0, 1].map((i) => JSON.stringify({row: i + 1, line: i + 2, reference: `${prefix}-${i}`, status: 'approved', exit_code: 0, record: {amount: ANSWERS.refundAmount(1000), reference: `${prefix}-${i}`}})))
  })

  it('--fields with -q: the filter reads the line whose record holds the fields picked', async () => {
    const ids = await purchases(1)
    const prefix = ref('fields-q')
    const result = await sandbox.gw(['refund', 'create', '--input', writeTemp('refunds.csv', refundCsv(ids, prefix, '700')), '--fields', 'amount', '-q', '.record'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe(`{"amount":${ANSWERS.refundAmount(700)}}\n`)
  })
})

describeInBothDialects('gw refund create --input', () => {
  it('refunds every row once, a line per row on stdout and a summary on stderr', async () => {
    const ids = await purchases(3)
    const prefix = ref('refund')
    const file = writeTemp('refunds.csv', refundCsv(ids, prefix))
    const result = await sandbox.gw(['refund', 'create', '--input', file])
    expect(result.code).toBe(0)
    const rows = rowsOf(result.stdout).sort((a, b) => a.row - b.row)
    expect(rows.map((row) => [row.row, row.line, row.reference, row.status, row.exit_code])).toEqual([
      [1, 2, `${prefix}-0`, 'approved', 0],
      [2, 3, `${prefix}-1`, 'approved', 0],
      [3, 4, `${prefix}-2`, 'approved', 0],
    ])
    expect(rows[0]!.record).toMatchObject({reference: `${prefix}-0`, amount: ANSWERS.refundAmount(1000), successful: true})
    // As the live gateway answers: a refund's transaction_id is its own id, never its purchase's.
    expect(rows[0]!.record!.transaction_id).toBe(rows[0]!.record!.id)
    expect(Object.keys(rows[0]!)).toEqual(['row', 'line', 'reference', 'status', 'exit_code', 'record'])
    expect(result.stderr).toMatch(/^Journal: .*refund-create-[a-p]{16}-[a-p]{8}\.sqlite\n/)
    expect(result.stderr).toMatch(/3 refunds: 3 approved in [\d.]+ s\n {2}approved 30\.00 AUD\n/)
  })

  it('SIGKILLed mid-way and run again: every reference is refunded exactly once', async () => {
    const ids = await purchases(200)
    const prefix = ref('killed')
    const file = writeTemp('refunds.csv', refundCsv(ids, prefix))
    proxy = await countingProxy(sandbox.url)
    const first = spawnGw(sandbox, ['refund', 'create', '--input', file, '--concurrency', '4'], {GW_BASE_URL: proxy.url})
    // Killed while the 60th refund is on its way: the gateway makes it, gw never hears of it.
    void proxy.post(60).then(() => first.child.kill('SIGKILL'))
    const killed = await first.done
    expect(killed.signal).toBe('SIGKILL')
    const answeredBefore = rowsOf(killed.stdout.slice(0, killed.stdout.lastIndexOf('\n') + 1)).length
    expect(answeredBefore).toBeLessThan(60)

    // The rows journaled ahead and never sent are in doubt too, and not at the gateway: each waits out the processing
    // window, the local gateway's 2 s (the live gateway's minute is processing-window.test's).
    const again = await sandbox.gw(['refund', 'create', '--input', file, '--concurrency', '4'], {env: {GW_BASE_URL: proxy.url}, timeoutMs: 60_000})
    expect(again.stderr).toMatch(/resuming: \d+ rows? answered, \d+ in doubt, \d+ not started/)
    expect(again.code, again.stderr).toBe(0)
    const rows = rowsOf(again.stdout)
    expect(rows).toHaveLength(200)
    expect(rows.every((row) => row.status === 'approved')).toBe(true)
    expect(rows.filter((row) => row.resumed).length).toBeGreaterThanOrEqual(60)
    expect(proxy.references().size).toBe(200)
    expect([...proxy.references().values()].every((count) => count === 1)).toBe(true)
    // The gateway has each refund once: every purchase has exactly 10.00 refunded.
    const over = await sandbox.gw(['refund', 'create', '--transaction-id', ids[0]!, '--amount', '9001', '--reference', ref('over')])
    expect(over.stderr).toContain('already refunded 1000')
  }, 120_000)

  it('rows whose answers are dropped are looked up and reconciled, none sent again', async () => {
    const ids = await purchases(10)
    const prefix = ref('dropped')
    proxy = await countingProxy(sandbox.url)
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/refunds', action: 'drop-after', times: 3})
    const result = await sandbox.gw(['refund', 'create', '--input', writeTemp('refunds.csv', refundCsv(ids, prefix)), '--concurrency', '4'], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code).toBe(0)
    const rows = rowsOf(result.stdout)
    expect(rows.map((row) => row.status)).toEqual(Array(10).fill('approved'))
    expect(result.stderr.match(/Found the refund by its reference: the gateway processed it once\./g)).toHaveLength(3)
    expect(proxy.postCount()).toBe(10)
    expect([...proxy.references().values()].every((count) => count === 1)).toBe(true)
  })

  it('lists every invalid row, repeated references and unknown columns; --skip-invalid sends the rest', async () => {
    const [id] = await purchases(1)
    const prefix = ref('mixed')
    const csv = `transaction_id,amount,reference\n${id},100,${prefix}-a\n,100,${prefix}-b\n${id},-5,${prefix}-c\n${id},100,${prefix}-a\n${id},200,${prefix}-d\n`
    const file = writeTemp('refunds.csv', csv)
    const refused = await sandbox.gw(['refund', 'create', '--input', file])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('line 3: transaction_id must not be blank')
    expect(refused.stderr).toContain('line 4: amount must be a positive whole number in the currency\'s minor unit, got "-5"')
    expect(refused.stderr).toContain(`line 2: reference ${prefix}-a is used again on line 5`)
    expect(refused.stderr).toContain(`line 5: reference ${prefix}-a is used again on line 2`)

    const skipped = await sandbox.gw(['refund', 'create', '--input', file, '--skip-invalid'])
    expect(skipped.code).toBe(0)
    const rows = rowsOf(skipped.stdout)
    expect(rows.map((row) => [row.line, row.status]).sort()).toEqual([[2, 'invalid'], [3, 'invalid'], [4, 'invalid'], [5, 'invalid'], [6, 'approved']])

    const typo = await sandbox.gw(['refund', 'create', '--input', writeTemp('typo.csv', 'transaction_id,amout,reference,note\nx,1,y,z\n')])
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain('typo.csv: unknown columns "amout", "note": nothing was sent')
  })

  it('refuses a journal written for another input', async () => {
    const [id] = await purchases(1)
    const journal = join(writeTemp('x', ''), '..', 'journal.ndjson')
    const first = await sandbox.gw(['refund', 'create', '--input', writeTemp('a.csv', refundCsv([id!], ref('j'), '100')), '--journal', journal])
    expect(first.code).toBe(0)
    const other = await sandbox.gw(['refund', 'create', '--input', writeTemp('b.csv', refundCsv([id!], ref('j'), '100')), '--journal', journal])
    expect(other.code).toBe(2)
    expect(other.stderr).toContain(`Error: ${journal} was written for another input`)
    expect(other.stdout).toBe('')
  })

  /** A refund batch of `rows` started through the counting proxy, each refund held `delayMs` at the gateway. */
  async function slowBatch(rows: number, delayMs: number, concurrency: number) {
    // The gateway dates records to the second: this batch's purchases and refunds are dated after every earlier test's,
    // so the first page of each list tells its order by its dates, and no walk reads the claimed last page to learn it.
    await secondTurned()
    const ids = await purchases(rows)
    const file = writeTemp('refunds.csv', refundCsv(ids, ref('slow')))
    proxy = await countingProxy(sandbox.url)
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/refunds', action: 'delay', delayMs, times: rows})
    return {ids, file, run: spawnGw(sandbox, ['refund', 'create', '--input', file, '--concurrency', String(concurrency)], {GW_BASE_URL: proxy.url})}
  }

  it('Ctrl-C starts no new rows, finishes those in flight, exits 130; the next run finishes the batch', async () => {
    const {file, run} = await slowBatch(40, 50, 2)
    void proxy.post(6).then(() => run.child.kill('SIGINT'))
    const stopped = await run.done
    expect(stopped.code).toBe(130)
    const done = rowsOf(stopped.stdout)
    expect(done.length).toBeGreaterThanOrEqual(6)
    expect(done.length).toBeLessThan(40)
    expect(done.every((row) => row.status === 'approved')).toBe(true)
    expect(stopped.stderr).toContain('Ctrl-C: finishing the refunds in flight, starting no more')
    // The rows journaled ahead of their turn but never sent are not started, in this run's words and the next's.
    const left = 40 - done.length
    expect(stopped.stderr).toContain(`40 refunds: ${done.length} approved, ${left} not started in `)
    expect(stopped.stderr).toContain(`\nNot finished: ${done.length} rows answered, 0 in doubt, ${left} not started. Run the same command again to finish the batch`)
    // The first run learned which references the gateway holds from the refunds list (gw's index), not by a look-up a row.
    expect(proxy.gets().filter((path) => path.startsWith('/v1.0/refunds?')).length).toBeGreaterThanOrEqual(1)
    expect(proxy.gets().filter((path) => /^\/v1\.0\/refunds\/[^?]/.test(path))).toEqual([])
    const resumed = proxy.seen.length
    const again = await sandbox.gw(['refund', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url}})
    expect(again.stderr).toContain(`(resuming: ${done.length} rows answered, 0 in doubt, ${left} not started)\n`)
    expect(again.code).toBe(0)
    // Nothing was in doubt: the rows not started were checked against the refunds the gateway holds (an earlier run from
    // another copy of the journal, or none, may have made them), read from the refunds list newer than gw's index, each page
    // once, not one look-up a row. Each held to what is left of its purchase, as a single refund create is: the purchases
    // read from a page of the purchases list (40, the newest), not one look-up each; and which runs of its data the gateway
    // holds, when gw's records of refunds are read.
    const lists = proxy.gets(resumed).filter((path) => path.startsWith('/v1.0/refunds?') || path.startsWith('/v1.0/purchases?'))
    expect(lists.filter((path) => path.startsWith('/v1.0/purchases?'))).toEqual(['/v1.0/purchases?offset=0&limit=50'])
    expect(lists.length).toBeGreaterThanOrEqual(1)
    expect(new Set(lists).size).toBe(lists.length)
    // The local gateway is asked once for its processing window, which a top-up of the index reads back by.
    expect(proxy.gets(resumed).filter((path) => path.startsWith('/_sandbox/clock?')).length).toBeLessThanOrEqual(1)
    const others = proxy.gets(resumed).filter((path) => !lists.includes(path) && !path.startsWith('/_sandbox/clock?'))
    expect(others.filter((path) => path !== '/_sandbox/instance')).toEqual([])
    expect(others.filter((path) => path === '/_sandbox/instance').length).toBeGreaterThanOrEqual(1)
    expect(rowsOf(again.stdout).filter((row) => row.resumed)).toHaveLength(done.length)
    expect([...proxy.references().values()].every((count) => count === 1)).toBe(true)
    expect(proxy.references().size).toBe(40)
  })

  it('a second Ctrl-C stops at once, leaving the rows in flight in doubt; the next run settles them', async ({onTestFinished}) => {
    const prefix = ref('hard')
    const file = writeTemp('refunds.csv', refundCsv(await purchases(12), prefix))
    // The first row is answered; the POSTs after it are held at the proxy until gw has stopped, as a
    // gateway that has not answered yet: both Ctrl-Cs come while they are in flight, whatever the load on the machine.
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const held = await countingProxy(sandbox.url, {hold: (request) => (request.method === 'POST' && request.reference !== `${prefix}-0` ? released : undefined)})
    onTestFinished(() => held.close())
    onTestFinished(release)
    const run = spawnGw(sandbox, ['refund', 'create', '--input', file, '--concurrency', '4'], {GW_BASE_URL: held.url})
    let stderr = ''
    run.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    let posts = 0
    await held.arrived((request) => request.method === 'POST' && ++posts === 3)
    run.child.kill('SIGINT')
    // The second once the first has taken back every row it will not send (journaled ahead of the rows in flight): a person's second Ctrl-C comes later still.
    await until('the first row answered, the rows not sent taken back', () => {
      const journal = /^Journal: (.*)$/m.exec(stderr)?.[1]
      if (!journal || !stderr.includes('Ctrl-C: finishing')) return undefined
      const entries = journalText(journal).split('\n').filter(Boolean).map((line) => JSON.parse(line) as {intent?: string; withdrawn?: string; result?: string})
      const done = new Set(entries.map((entry) => entry.withdrawn ?? entry.result))
      const inFlight = new Set(held.seen.map((request) => request.reference))
      // The first row, sent with the others but never held, is answered by now: under load its answer can come after the first Ctrl-C.
      if (!done.has(`${prefix}-0`)) return undefined
      return entries.every((entry) => entry.intent === undefined || done.has(entry.intent) || inFlight.has(entry.intent)) ? true : undefined
    })
    run.child.kill('SIGINT')
    const stopped = await run.done
    expect(stopped.code).toBe(130)
    expect(stopped.stderr).toContain('Ctrl-C: finishing the refunds in flight, starting no more (again to stop at once).')
    // Every row in doubt is named by the summary, none by a hint that could name only one. The batch ends by
    // itself, its summary before the last word: nothing races it to the exit.
    const [, unknownCount, notStarted] = /\n12 refunds: 1 approved, (\d) unknown, (\d+) not started in /.exec(stopped.stderr) ?? []
    expect(unknownCount, stopped.stderr).toBeDefined()
    expect(stopped.stderr).toContain(`\nNot finished: 1 row answered, ${unknownCount} in doubt, ${notStarted} not started. Run the same command again`)
    expect(stopped.stderr).toMatch(/\nNot finished: [^\n]+\)\.\nInterrupted\.\n$/)
    expect(stopped.stderr).not.toContain('Hint:')
    const unknown = rowsOf(stopped.stdout).filter((row) => row.status === 'unknown').map((row) => row.reference)
    expect(unknown.length).toBeGreaterThan(0)
    for (const reference of unknown.slice(0, 3)) expect(stopped.stderr).toContain(`gw refund get ${reference}`)
    // Stopped before their answers came: whatever was reported after the first row is in doubt, nothing approved.
    expect(rowsOf(stopped.stdout).filter((row) => row.row !== 1 && row.status !== 'unknown')).toEqual([])
    // The gateway gets the requests held for it, as one slow to answer would, though gw is gone.
    release()
    await Promise.all(unknown.map((reference) => held.answered((request) => request.method === 'POST' && request.reference === reference)))
    // Rows the gateway is still processing, or never got (journaled ahead), are waited for through the processing
    // window, the local gateway's 2 s, before any is sent again.
    const again = await sandbox.gw(['refund', 'create', '--input', file], {env: {GW_BASE_URL: held.url}})
    expect(again.code).toBe(0)
    // Only the first row's answer is trusted; the rows answered "unknown" are in doubt, not answered: as the stopped run said.
    expect(again.stderr).toContain(`(resuming: 1 row answered, ${unknownCount} in doubt, ${notStarted} not started)\n`)
    expect(rowsOf(again.stdout).map((row) => row.status)).toEqual(Array(12).fill('approved'))
    const found = await sandbox.gw(['refund', 'get', '--input', '-'], {stdin: again.stdout})
    expect(found.stdout.trim().split('\n').map((line) => (JSON.parse(line) as {amount: number}).amount)).toEqual(Array(12).fill(ANSWERS.refundAmount(1000)))
    expect(held.repeats()).toEqual({})
  })

  it('--dry-run shows what would be sent and sends nothing', async () => {
    proxy = await countingProxy(sandbox.url)
    const result = await sandbox.gw(['refund', 'create', '--input', writeTemp('r.csv', 'transaction_id,amount,reference\n071-P-AAAAAAAA,250,d-1\n071-P-BBBBBBBB,,d-2\n'), '--dry-run'], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code).toBe(0)
    expect(rowsOf(result.stdout)).toEqual([
      {row: 1, line: 2, reference: 'd-1', request: {transaction_id: '071-P-AAAAAAAA', amount: 250, reference: 'd-1'}},
      {row: 2, line: 3, reference: 'd-2', request: {transaction_id: '071-P-BBBBBBBB', amount: null, reference: 'd-2'}},
    ])
    expect(result.stderr).toContain('Dry run: 2 refunds would be sent (2.50 (currency not known); 1 amount not known), 1 of them each refunding its purchase in full. Nothing was sent.')
    expect(proxy.postCount()).toBe(0)
  })

  it('--dry-run shows the reference the run will send for a row that gives none, looked up, nothing sent; none where it cannot tell', async () => {
    const [id] = await purchases(1)
    const reference = ((await sandbox.gw(['purchase', 'get', id!, '--json'])).json as {reference: string}).reference
    proxy = await countingProxy(sandbox.url)
    const csv = `transaction_id,amount,reference\n${id},100,\n${reference},200,\n${id},300,mine-${reference}\n071-P-NOSUCHPU,100,\n`
    const result = await sandbox.gw(['refund', 'create', '--input', writeTemp('derived.csv', csv), '--dry-run'], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code, result.stderr).toBe(0)
    expect(rowsOf(result.stdout).map((row) => [row.row, row.reference])).toEqual([
      [1, `${reference}-R1`],
      [2, `${reference}-R2`],
      [3, `mine-${reference}`],
      [4, null],
    ])
    expect(proxy.postCount()).toBe(0)
    expect(proxy.gets().length).toBeGreaterThan(0)
    // The run sends what the dry run said.
    const run = await sandbox.gw(['refund', 'create', '--input', writeTemp('derived.csv', csv.replace('071-P-NOSUCHPU,100,\n', '')), '--concurrency', '1'])
    expect(run.code, run.stderr).toBe(0)
    expect(rowsOf(run.stdout).sort((a, b) => a.row - b.row).map((row) => row.reference)).toEqual([`${reference}-R1`, `${reference}-R2`, `mine-${reference}`])
  })

  it('reads NDJSON from stdin; a blank amount refunds the purchase in full', async () => {
    const [id] = await purchases(1, 4200)
    const reference = ref('full')
    const result = await sandbox.gw(['refund', 'create', '--input', '-'], {stdin: `\n{"transaction_id":"${id}","reference":"${reference}"}\n`})
    expect(result.code).toBe(0)
    expect(rowsOf(result.stdout)[0]).toMatchObject({row: 1, line: 2, reference, status: 'approved', record: {amount: ANSWERS.refundAmount(4200)}})
  })

  it('a row refunding in full a purchase with nothing left, or less than all of it, fails unsent with exit 7 saying what was refunded; the other rows are sent', async () => {
    // A card of their own: a refund of another test on the shared card, made in the same second, could be theirs to gw.
    const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(CARDS.mastercard), '--json'])
    const [done, part] = await purchases(2, 2500, (card.json as {token: string}).token)
    // gw knows what it refunded of a gateway by its address: the same one as the batch's.
    proxy = await countingProxy(sandbox.url)
    const viaProxy = {env: {GW_BASE_URL: proxy.url}}
    expect((await sandbox.gw(['refund', 'create', '--transaction-id', done!, '--reference', ref('all')], viaProxy)).code).toBe(0)
    expect((await sandbox.gw(['refund', 'create', '--transaction-id', part!, '--amount', '1000', '--reference', ref('some')], viaProxy)).code).toBe(0)
    const rest = ref('rest')
    const result = await sandbox.gw(['refund', 'create', '--input', writeTemp('nothing-left.csv', `transaction_id,amount,reference\n${done},,\n${part},,${ref('too-much')}\n${part},1500,${rest}\n`), '--concurrency', '1'], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code, result.stderr).toBe(7)
    const rows = rowsOf(result.stdout).sort((a, b) => a.row - b.row)
    expect(rows.map((row) => [row.row, row.status, row.exit_code, row.error?.messages])).toEqual([
      // Each named by its reference, as a person would type it.
      [1, 'rejected', 7, [expect.stringMatching(/^Nothing is left of purchase order-\w+-\d to refund \(25\.00 AUD of 25\.00 AUD refunded for certain: 1 refund gw made for it\): nothing was sent$/)]],
      [2, 'rejected', 7, [expect.stringMatching(/^Refunding purchase order-\w+-\d in full: 25\.00 AUD is more than is left of it, 15\.00 AUD \(10\.00 AUD of 25\.00 AUD refunded for certain: 1 refund gw made for it\): nothing was sent$/)]],
      [3, 'approved', 0, undefined],
    ])
    // The gateway saw one refund of the batch's: the row that fits (the two others are the single refunds before it).
    expect(proxy.postCount()).toBe(3)
    expect(proxy.posts(rest)).toBe(1)
  })

  it('a batch begun on stdin and given again as a file resumes the same journal, named by its rows: nothing sent twice (docs/money-safety.md)', async () => {
    const ids = await purchases(2)
    const csv = refundCsv(ids, ref('stdin-then-file'))
    proxy = await countingProxy(sandbox.url)
    const first = await sandbox.gw(['refund', 'create', '--input', '-'], {stdin: csv, env: {GW_BASE_URL: proxy.url}})
    expect(first.code, first.stderr).toBe(0)
    const file = writeTemp('same-rows.csv', csv)
    const again = await sandbox.gw(['refund', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url}})
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('(resuming: 2 rows answered, 0 in doubt, 0 not started)')
    expect(again.stderr).toContain(`Journal: it was begun for the same rows on stdin: this is that batch, given again as ${file}, and what it sent is not sent again. To refund these rows again as a new batch, give it --new-batch and a journal of its own (--journal FILE).\n`)
    expect(again.stderr).toContain('2 refunds: 2 approved (2 done by an earlier run)')
    expect(proxy.postCount()).toBe(2)
    expect([...proxy.references().values()]).toEqual([1, 1])
  })
})

describeInBothDialects('gw purchase create --input', () => {
  it('exits 3 when a row is declined, the others approved; a summary per currency', async () => {
    const prefix = ref('mixed')
    const csv = `card_token,amount,reference,currency\n${token},1000,${prefix}-1,AUD\n${token},10051,${prefix}-2,AUD\n${token},500,${prefix}-3,nzd\n`
    const result = await sandbox.gw(['purchase', 'create', '--input', writeTemp('p.csv', csv)])
    expect(result.code).toBe(3)
    const rows = rowsOf(result.stdout).sort((a, b) => a.row - b.row)
    expect(rows.map((row) => [row.status, row.exit_code])).toEqual([['approved', 0], ['declined', 3], ['approved', 0]])
    expect(rows[1]!.record).toMatchObject({message: 'Insufficient Funds', successful: false})
    expect(result.stderr).toContain('3 purchases: 2 approved, 1 declined')
    expect(result.stderr).toContain('  approved 10.00 AUD; 5.00 NZD\n')
    expect(result.stderr).toContain('  declined 100.51 AUD\n')
  })
})

describeOnce("a batch's input refused before anything is sent", () => {
  it('--dry-run with --json FIELDS is refused naming both (exit 2): its lines are requests, not records; nothing is sent', async () => {
    const ids = await purchases(1)
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['refund', 'create', '--input', writeTemp('refunds.csv', refundCsv(ids, ref('dry'))), '--dry-run', '--json', 'id'])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([
      'Error: --dry-run prints the requests a batch would send, and --json FIELDS or --fields pick the fields of the records it makes',
      'Hint: Leave the fields out of the dry run, or pick from its lines with --jq, e.g. --jq .request.amount.',
    ])
    expect(await apiRequestsSince(sandbox, cursor)).toEqual([])
  })

  it('an invalid row at line 51 stops the batch before anything is sent, naming line 51', async () => {
    proxy = await countingProxy(sandbox.url)
    const lines = ['transaction_id,amount,reference', ...Array.from({length: 100}, (_, i) => `071-P-AAAAAAAA,${i === 49 ? '12.50' : '100'},${ref('bad')}`)]
    const result = await sandbox.gw(['refund', 'create', '--input', writeTemp('refunds.csv', lines.join('\n'))], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`refunds.csv line 51: amount must be a positive whole number in the currency's minor unit, got "12.50"`)
    expect(result.stderr).toContain('Error: 1 of 100 rows is invalid (line 51): nothing was sent')
    expect(proxy.postCount()).toBe(0)
  })

  it('refuses a one-row flag beside --input, naming it, exit 2, nothing sent', async () => {
    proxy = await countingProxy(sandbox.url)
    const file = writeTemp('r.csv', 'transaction_id,amount,reference\n071-P-AAAAAAAA,250,d-1\n')
    const refund = await sandbox.gw(['refund', 'create', '--input', file, '--amount', '5', '--reference', 'x'], {env: {GW_BASE_URL: proxy.url}})
    expect(refund.code).toBe(2)
    expect(refund.stderr).toContain("Error: --input takes each row's fields from the file: leave out --amount, --reference\n")
    const purchase = await sandbox.gw(['purchase', 'create', '--input', file, '--currency', 'NZD', '--card-token', 'tok'], {env: {GW_BASE_URL: proxy.url}})
    expect(purchase.code).toBe(2)
    expect(purchase.stderr).toContain("Error: --input takes each row's fields from the file: leave out --currency, --card-token\n")
    expect(proxy.postCount()).toBe(0)
  })

  it('refuses a file with card numbers, naming the columns and never the numbers', async () => {
    proxy = await countingProxy(sandbox.url)
    const csv = `card_number,card_expiry,cvv,amount,reference\n${CARDS.visa},12/2030,123,1000,${ref()}\n`
    const result = await sandbox.gw(['purchase', 'create', '--input', writeTemp('cards.csv', csv)], {env: {GW_BASE_URL: proxy.url}})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('cards.csv holds card data (columns card_number, card_expiry, cvv): raw card data does not belong in files, and nothing was sent')
    expect(result.stderr + result.stdout).not.toContain(CARDS.visa)
    expect(proxy.postCount()).toBe(0)

    const hidden = await sandbox.gw(['purchase', 'create', '--input', '-'], {stdin: `{"card_token":"${CARDS.mastercard}","amount":1000,"reference":"${ref()}"}\n`})
    expect(hidden.code).toBe(2)
    expect(hidden.stderr).toContain('stdin holds what looks like a card number (line 1)')
    expect(hidden.stderr).not.toContain(CARDS.mastercard)
  })
})

describeInBothDialects('a reference already taken', () => {
  it('by the same refund is reported as done earlier; by another, exit 7 naming both', async () => {
    const [id] = await purchases(1)
    const reference = ref('again')
    const args = ['refund', 'create', '--transaction-id', id!, '--amount', '700', '--reference', reference, '--json']
    const first = await sandbox.gw(args)
    expect(first.code).toBe(0)
    const again = await sandbox.gw(args)
    expect(again.code).toBe(0)
    expect(again.json).toEqual(first.json)
    expect(again.stderr).toContain(`Reference ${reference} was taken by this same refund (${(first.json as {id: string}).id}), made earlier: the gateway refused this request for it, and nothing more was made.`)
    const other = await sandbox.gw(['refund', 'create', '--transaction-id', id!, '--amount', '800', '--reference', reference])
    expect(other.code).toBe(7)
    expect(other.stderr).toContain(`Error: Reference ${reference} is already taken by another refund ${(first.json as {id: string}).id}: amount: sent 800, found ${ANSWERS.refundAmount(700)}. The gateway refused this request under it: nothing was made.`)
  })

  it('by the same purchase (the card named by token) is done earlier', async () => {
    const reference = ref('again')
    const args = ['purchase', 'create', '--card-token', token, '--amount', '1500', '--reference', reference, '--json']
    const first = await sandbox.gw(args)
    expect(first.code, first.stderr).toBe(0)
    const again = await sandbox.gw(args)
    expect(again.code).toBe(0)
    expect(again.json).toEqual(first.json)
    expect(again.stderr).toContain(`Reference ${reference} was taken by this same purchase (${(first.json as {id: string}).id}), made earlier: the gateway refused this request for it, and nothing more was made.`)
    const otherCurrency = await sandbox.gw([...args.slice(0, -1), '--currency', 'NZD'])
    expect(otherCurrency.code).toBe(7)
    expect(otherCurrency.stderr).toContain('currency: sent "NZD", found "AUD"')
  })

  it('refund without --amount refunds the purchase in full and says how much', async () => {
    const [id] = await purchases(1, 2500)
    const result = await sandbox.gw(['refund', 'create', '--transaction-id', id!, '--reference', ref('full'), '--json'])
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({amount: ANSWERS.refundAmount(2500)})
    expect(result.stderr).toContain(`Refunding purchase ${id} in full: 25.00 AUD.`)
  })
})

describeOnce('a batch whose reader falls behind', () => {
  it('waits for it, its rows ahead waiting to print, and says nothing of the wait on stderr', async () => {
    const {id} = await purchasedAtGateway(sandbox, {card_token: token, amount: 1_000_000})
    // About 300 KB of lines: more than the pipe and the buffers on either side of it hold.
    const rows = 500
    const prefix = ref('behind')
    const file = writeTemp('refunds.csv', refundCsv(Array.from({length: rows}, () => id), prefix, '1'))
    proxy = await countingProxy(sandbox.url)
    const run = spawnGw(sandbox, ['refund', 'create', '--input', file], {GW_BASE_URL: proxy.url})
    // Nothing is read until gw has sent nothing for a second: it is waiting, each of the rows it
    // reads ahead (16) waiting for its line to be taken. Node warns of more than ten listeners.
    run.child.stdout!.pause()
    let [sent, quietSince] = [0, Date.now()]
    const waited = await until('gw to wait for its reader', () => {
      if (proxy.postCount() !== sent) [sent, quietSince] = [proxy.postCount(), Date.now()]
      return sent > 0 && Date.now() - quietSince > 1000 && sent
    })
    expect(waited).toBeLessThan(rows)
    run.child.stdout!.resume()
    const done = await run.done
    expect(done.code, done.stderr).toBe(0)
    expect(rowsOf(done.stdout).map((row) => row.status)).toEqual(Array.from({length: rows}, () => 'approved'))
    expect(done.stderr).toContain(`${rows} refunds: ${rows} approved in `)
    expect(done.stderr).not.toContain('Warning')
    expect(proxy.postCount()).toBe(rows)
  })
})

describeOnce('the journal', () => {
  it('lives in the data directory ($XDG_DATA_HOME/gw/journals) and holds no card data', () => {
    const dir = join(sandbox.home.XDG_DATA_HOME!, 'gw', 'journals')
    const files = readdirSync(dir)
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) expect(readFileSync(join(dir, file), 'utf8')).not.toMatch(/4242424242424242|"cvv"/)
  })

  it('where the data directory would be is a file: exit 1 before any row is sent, naming the path, what stood in the way and where it is set', async () => {
    const ids = await purchases(1)
    const prefix = ref('blocked')
    const file = writeTemp('not-a-folder', '')
    const env = {XDG_DATA_HOME: file}
    const run = await sandbox.gw(['refund', 'create', '--input', writeTemp('refunds.csv', refundCsv(ids, prefix))], {env})
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      `Error: gw could not make the folder ${join(file, 'gw', 'journals')}: part of that path is a file, not a folder (ENOTDIR)\n` +
        "Hint: Where it is one of gw's folders, gw help environment says which variable sets it. Point that at a folder of yours, or give a flag that takes the file (--journal) a path of yours.\n",
    )
    expect((await sandbox.gw(['refund', 'get', `${prefix}-0`])).code).toBe(5)
    // A command that keeps nothing there runs as ever, with no word of it: gw reads no plugins from there.
    const looked = await sandbox.gw(['purchase', 'get', ids[0]!], {env})
    expect(looked.code, looked.stderr).toBe(0)
    expect(looked.stderr).toBe('')
  })
})

describeInBothDialects('look-ups at scale', () => {
  it('get --input takes the id column of a CSV, looks ids up concurrently and prints them in input order', async () => {
    const ids = await purchases(12)
    // The first id answers last; the output still starts with it.
    await sandbox.control('POST', '/_sandbox/faults', {method: 'GET', path: `/v1.0/purchases/${ids[0]}`, action: 'delay', delayMs: 400})
    const csv = ['note,id', ...ids.map((id, i) => `"row ${i}, as exported",${id}`)].join('\n') + '\n'
    const result = await sandbox.gw(['purchase', 'get', '--input', writeTemp('ids.csv', csv), '--concurrency', '8'])
    expect(result.code).toBe(0)
    expect(result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as {id: string}).id)).toEqual(ids)
  })

  it('reads one id a line from stdin with --input -, reports a missing one in its place and exits with its code', async () => {
    const [a, b] = await purchases(2)
    const result = await sandbox.gw(['purchase', 'get', '--input', '-'], {stdin: `${a}\nno-such-purchase\n\n${b}\n`})
    expect(result.code).toBe(5)
    expect(result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as {id: string}).id)).toEqual([a, b])
    expect(result.stderr).toContain(`Error: No purchase has the id or reference no-such-purchase: ${ANSWERS.purchaseNotFound} (HTTP 404`)
    expect(result.stderr).toContain('Error: 1 of 3 look-ups failed')
  })

  it("takes a batch's own output: the references of its rows", async () => {
    const ids = await purchases(2)
    const prefix = ref('piped')
    const batch = await sandbox.gw(['refund', 'create', '--input', writeTemp('r.csv', refundCsv(ids, prefix))])
    const result = await sandbox.gw(['refund', 'get', '--input', '-', '--json'], {stdin: batch.stdout})
    expect(result.code).toBe(0)
    expect(result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as {reference: string}).reference).sort()).toEqual([`${prefix}-0`, `${prefix}-1`])
  })
})
