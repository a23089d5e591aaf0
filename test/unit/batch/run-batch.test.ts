import diagnostics from 'node:diagnostics_channel'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {Worker} from 'node:worker_threads'
import {afterAll, beforeAll, describe, expect, it, onTestFinished, vi} from 'vitest'
import {GatewayClient} from '../../../src/api/client.js'
import {AuthError} from '../../../src/errors.js'
import type {BatchDeps, BatchFlags, BatchPlan, SoftStop} from '../../../src/batch/batch-deps.js'
import {Stop} from '../../../src/cli/signals.js'
import {platformOf, type StopSignalName} from '../../../src/lib/platform.js'
import {type BatchKind, purchaseBatch} from '../../../src/batch/kinds.js'
import {directDebitBatch, paymentPlanBatch} from '../../../src/batch/recurring-kinds.js'
import {refundBatch} from '../../../src/batch/refund-kind.js'
import {runBatch} from '../../../src/batch/run-batch.js'
import {GatewaySlots} from '../../../src/batch/gateway-slots.js'
import {filteredIo, JqFailure, jqFilter} from '../../../src/output/jq.js'
import {startSandbox, type RunningSandbox} from '../../../src/sandbox/server/server.js'
import {type Counted, countingProxy} from '../../counting-proxy.js'
import {escaped} from '../../escaped.js'
import {journalText} from '../../journal-text.js'
import {REMOVABLE_WHILE_OPEN} from '../../only-on.js'
import {call} from '../../sandbox/helpers.js'
import {testIo, type TestIo} from '../../test-io.js'
import {until} from '../../until.js'

/** A batch's kind: purchases, refunds, payment plans or direct debits. */
type AnyKind = typeof purchaseBatch | typeof refundBatch | typeof paymentPlanBatch | typeof directDebitBatch

let gateway: RunningSandbox
let token: string
beforeAll(async () => {
  gateway = await startSandbox({port: 0, host: '127.0.0.1', mode: 'sandbox', merchants: []})
  const answer = await call(gateway, 'POST', '/v1.0/credit_cards', {body: {card_holder: 'Jo Citizen', card_number: '4005550000000001', card_expiry: '02/2030', cvv: '123'}})
  token = (answer.body as {response: {token: string}}).response.token
})
afterAll(() => gateway.close())

/**
 * Runs the batch of `csv` (purchases, unless given another `kind`), in a data directory of its own
 * unless given one; `input`, the file of an earlier run, to run the same file again; `baseUrl`, a
 * proxy in front of the gateway; `fields`, as --fields picks them; `target`, the profile's (one that
 * rejects: none); `refuse`, what the profile says to the batch's confirmation (a read-only one refuses);
 * `windowMs`, the gateway's processing window, where the local gateway's own 2 s is too short to hold.
 */
function run(
  csv: string,
  options: {flags?: Partial<BatchFlags>; io?: TestIo; onStop?: (send: (signal: StopSignalName) => void) => void; dataDir?: string; input?: string; kind?: AnyKind; baseUrl?: string; fields?: string[]; target?: BatchDeps['target']; refuse?: Error; windowMs?: number} = {},
) {
  const io = options.io ?? testIo()
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gw-run-batch-'))
  const input = options.input ?? join(mkdtempSync(join(tmpdir(), 'gw-run-batch-input-')), 'purchases.csv')
  writeFileSync(input, csv)
  const baseUrl = options.baseUrl ?? gateway.url
  // The command's own Stop, told of signals as a process is (cli/signals.ts): a second aborts the requests in flight.
  const stop = new Stop({inFlight: () => undefined, io: () => io, signals: platformOf('linux').stopSignals})
  const unwatch = stop.watch()
  const send = (signal: StopSignalName) => void process.emit(signal, signal)
  const client = new GatewayClient({baseUrl, username: 'TEST', token: 'TEST', userAgent: 'test', signal: stop.signal, processingWindowMs: options.windowMs})
  const plans: BatchPlan[] = []
  const softStops: (SoftStop | undefined)[] = []
  const f: BatchDeps = {
    io,
    json: false,
    fields: options.fields,
    dataDir,
    target: options.target ?? (async () => ({baseUrl, username: 'TEST'})),
    deps: async () => ({client, io}),
    confirmed: async (plan) => {
      if (options.refuse) throw options.refuse
      plans.push(await plan())
      return {client, io}
    },
    onSoftStop: (handler) => {
      softStops.push(handler)
      stop.onSoftStop(handler)
      if (handler) options.onStop?.(send)
    },
  }
  const flags: BatchFlags = {input, 'skip-invalid': false, 'dry-run': false, ...options.flags}
  const result = runBatch((options.kind ?? purchaseBatch) as BatchKind<unknown, object>, flags, f).finally(() => (unwatch(), client.close()))
  return {io, plans, input, dataDir, result, stop, send, softStops, client}
}

let batches = 0
/** Rows of purchases of `amounts` (cents) on the test card, each under a reference of this batch's own. */
function purchases(amounts: number[]): {csv: string; references: string[]} {
  const prefix = `rb${++batches}`
  const references = amounts.map((_, i) => `${prefix}-${i + 1}`)
  return {csv: `card_token,amount,reference\n${amounts.map((amount, i) => `${token},${amount},${references[i]}`).join('\n')}\n`, references}
}

/** Purchases of `amounts` (cents) made by a batch, to refund: their references, and the batch's data directory. */
async function bought(amounts: number[]): Promise<{references: string[]; dataDir: string}> {
  const {csv, references} = purchases(amounts)
  const made = run(csv)
  expect(await made.result).toBe(0)
  return {references, dataDir: made.dataDir}
}

const lines = (text: string) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
const journalOf = (stderr: string) => /^Journal: (\S+)/m.exec(stderr)![1]!

/**
 * A proxy in front of the gateway that holds the purchase POSTed under `reference` until released,
 * as a slow gateway would: `arrived` once it is held, `answered` once let through and answered.
 */
async function holding(reference: string) {
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const isIt = (request: Counted) => request.method === 'POST' && request.reference === reference
  const proxy = await countingProxy(gateway.url, {hold: (request) => (isIt(request) ? released : undefined)})
  return {
    url: proxy.url,
    release,
    arrived: () => proxy.arrived(isIt),
    answered: () => proxy.answered(isIt),
    repeats: () => proxy.repeats(),
    close: () => (release(), proxy.close()),
  }
}

/** How many purchases the gateway holds under a reference, from the newest 100 (the tests make fewer): a row sent twice is two. */
async function heldUnder(reference: string): Promise<number> {
  const answer = await call(gateway, 'GET', '/v1.0/purchases?limit=100')
  return (answer.body as {response: {reference: string}[]}).response.filter((purchase) => purchase.reference === reference).length
}

describe('runBatch, a purchase batch sent to a local gateway in this process', () => {
  it('sends each row once, a line each on stdout, the journal and the summary on stderr; confirmed once, told the rows and their money', async () => {
    const {csv, references} = purchases([1000, 2000])
    const first = run(csv)
    expect(await first.result).toBe(0)
    expect(lines(first.io.stdout()).map((line) => [line.row, line.line, line.reference, line.status, line.exit_code, (line.record as {amount: number}).amount])).toEqual([
      [1, 2, references[0], 'approved', 0, 1000],
      [2, 3, references[1], 'approved', 0, 2000],
    ])
    expect(first.io.stderr()).toMatch(new RegExp(`^Journal: ${escaped(join(first.dataDir, 'journals', 'purchase-create-'))}[a-z]+-[a-z]+\\.sqlite\\n2 purchases: 2 approved in \\d+\\.\\d s\\n  approved 30\\.00 AUD\\n$`))
    expect(first.plans).toEqual([{noun: 'purchase', rows: 2, totals: '30.00 AUD'}])
    for (const reference of references) expect(await heldUnder(reference)).toBe(1)
  })

  it('run again, finds every row answered in its journal and sends none again', async () => {
    const {csv, references} = purchases([1000, 2000])
    const first = run(csv)
    expect(await first.result).toBe(0)
    const again = run(csv, {dataDir: first.dataDir, input: first.input})
    expect(await again.result).toBe(0)
    expect(again.io.stderr()).toContain(`Journal: ${journalOf(first.io.stderr())} (resuming: 2 rows answered, 0 in doubt, 0 not started)\n`)
    expect(lines(again.io.stdout()).map((line) => [line.reference, line.status, line.resumed])).toEqual([
      [references[0], 'approved', true],
      [references[1], 'approved', true],
    ])
    for (const reference of references) expect(await heldUnder(reference)).toBe(1)
  })

  it('a row whose reference holds a card number: its journal keeps it masked, and a rerun finds its answer by the reference the file gives', async () => {
    const reference = `rb${++batches}-4005550000000001`
    const csv = `card_token,amount,reference\n${token},1000,${reference}\n`
    const first = run(csv)
    expect(await first.result).toBe(0)
    expect(journalText(journalOf(first.io.stderr()))).not.toContain('4005550000000001')
    const again = run(csv, {dataDir: first.dataDir, input: first.input})
    expect(await again.result).toBe(0)
    expect(again.io.stderr()).toContain(' (resuming: 1 row answered, 0 in doubt, 0 not started)\n')
    expect(lines(again.io.stdout()).map((line) => [line.status, line.resumed])).toEqual([['approved', true]])
  })

  it('refuses a batch with an invalid row before anything is sent, naming each line and the fix', async () => {
    const {csv, references} = purchases([1000, 2000, 3000])
    const broken = csv.replace(`,2000,`, ',20.5.0,').replace(`,3000,`, ',-3,')
    const refused = run(broken)
    await expect(refused.result).rejects.toMatchObject({
      name: 'UsageError',
      message: '2 of 3 rows are invalid (lines 3, 4): nothing was sent',
      hint: 'Fix them and run it again, or add --skip-invalid to send the valid rows only.',
    })
    const why = "amount must be a positive whole number in the currency's minor unit"
    expect(refused.io.stderr()).toBe(`${refused.input} line 3: ${why}, got "20.5.0"\n${refused.input} line 4: ${why}, got "-3"\n`)
    expect(refused.io.stdout()).toBe('')
    expect(refused.plans).toEqual([])
    expect(await heldUnder(references[0]!)).toBe(0)
  })

  it('one invalid row is said in the singular, each of its problems named', async () => {
    const {csv, references} = purchases([1000, 2000])
    const refused = run(csv.replace(`,2000,${references[1]}`, ',lots,'))
    await expect(refused.result).rejects.toMatchObject({message: '1 of 2 rows is invalid (line 3): nothing was sent'})
    expect(refused.io.stderr()).toMatch(new RegExp(`^${escaped(refused.input)} line 3: [^;\\n]+; [^;\\n]+\\n$`))
  })

  it('with --skip-invalid, sends the valid rows and reports each invalid one as skipped; its exit code is the sent rows\'', async () => {
    const {csv, references} = purchases([1000, 2000])
    const skipping = run(csv.replace(',2000,', ',lots,'), {flags: {'skip-invalid': true}})
    expect(await skipping.result).toBe(0)
    expect(lines(skipping.io.stdout()).map((line) => [line.row, line.reference, line.status])).toEqual([
      [2, references[1], 'invalid'],
      [1, references[0], 'approved'],
    ])
    expect(skipping.plans).toEqual([{noun: 'purchase', rows: 1, totals: '10.00 AUD'}])
    expect(await heldUnder(references[1]!)).toBe(0)
  })

  it('says a file of invalid rows alone has none to send', async () => {
    const {csv} = purchases([1000])
    const none = run(csv.replace(',1000,', ',none,'), {flags: {'skip-invalid': true}})
    await expect(none.result).rejects.toMatchObject({name: 'UsageError', message: `${none.input} has no valid rows: nothing was sent`})
  })

  it('names at most ten invalid lines, then three dots', async () => {
    const {csv} = purchases(Array(12).fill(0))
    await expect(run(csv).result).rejects.toMatchObject({message: '12 of 12 rows are invalid (lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ...): nothing was sent'})
    const ten = purchases(Array(10).fill(0))
    await expect(run(ten.csv).result).rejects.toMatchObject({message: '10 of 10 rows are invalid (lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11): nothing was sent'})
  })

  it('--dry-run prints the requests it would send and sends nothing; after a run, the rows it answered', async () => {
    const {csv, references} = purchases([1000, 2500])
    const dry = run(csv, {flags: {'dry-run': true}})
    expect(await dry.result).toBe(0)
    expect(lines(dry.io.stdout())).toEqual([
      {row: 1, line: 2, reference: references[0], request: {card_token: token, amount: 1000, reference: references[0], currency: 'AUD'}},
      {row: 2, line: 3, reference: references[1], request: {card_token: token, amount: 2500, reference: references[1], currency: 'AUD'}},
    ])
    expect(dry.io.stderr()).toBe('Dry run: 2 purchases would be sent (35.00 AUD). Nothing was sent.\n')
    expect(await heldUnder(references[0]!)).toBe(0)
    const sent = run(csv, {dataDir: dry.dataDir, input: dry.input})
    expect(await sent.result).toBe(0)
    const after = run(csv, {dataDir: dry.dataDir, input: dry.input, flags: {'dry-run': true}})
    expect(await after.result).toBe(0)
    expect(lines(after.io.stdout()).map((line) => line.journal)).toEqual(['answered (approved): not sent again', 'answered (approved): not sent again'])
    expect(after.io.stderr()).toBe(`Dry run: 0 purchases would be sent (nothing); 2 answered and 0 in doubt by an earlier run of this batch (journal ${journalOf(sent.io.stderr())}). Nothing was sent.\n`)
  })

  it('--dry-run with fields picked is refused: it prints requests, not records', async () => {
    const {csv} = purchases([1000])
    const refused = run(csv, {fields: ['id'], flags: {'dry-run': true}}).result
    await expect(refused).rejects.toMatchObject({name: 'UsageError', message: expect.stringContaining('--dry-run prints the requests a batch would send'), hint: 'Leave the fields out of the dry run, or pick from its lines with --jq, e.g. --jq .request.amount.'})
  })

  it('--input - with stdin a terminal is refused, with how to pipe it in', async () => {
    const {csv} = purchases([1000])
    const io = testIo({tty: true})
    const terminal = run(csv, {io, flags: {input: '-'}})
    await expect(terminal.result).rejects.toMatchObject({message: '--input - reads the batch from stdin, but stdin is a terminal', hint: 'Pipe it in, e.g. gw purchase create --input - < purchases.csv'})
    // A noun of two words is one word in a file's name.
    const plans = run('customer,amount,frequency,anniversary,start_date,total_count,reference\n', {kind: paymentPlanBatch, io, flags: {input: '-'}})
    await expect(plans.result).rejects.toMatchObject({hint: 'Pipe it in, e.g. gw payment-plan create --input - < payment-plans.csv'})
  })

  it('the same rows in another file: said to be that batch, moved or copied, and what it sent is not sent again', async () => {
    const {csv, references} = purchases([1000])
    const first = run(csv)
    expect(await first.result).toBe(0)
    const copy = run(csv, {dataDir: first.dataDir})
    expect(await copy.result).toBe(0)
    expect(copy.io.stderr()).toContain(`\nJournal: it was begun for the same rows at ${first.input}: this is that batch, moved or copied, and what it sent is not sent again.\n`)
    expect(await heldUnder(references[0]!)).toBe(1)
  })

  it('a row changed after an earlier run sent it is not sent again: named with its line, exit 2', async () => {
    const {csv, references} = purchases([1000, 2000, 3000])
    const first = run(csv)
    expect(await first.result).toBe(0)
    const edited = run(csv.replace(`,2000,${references[1]}`, `,2100,${references[1]}`), {dataDir: first.dataDir, input: first.input})
    expect(await edited.result).toBe(2)
    expect(edited.io.stderr()).toContain(`\nLine 3 of ${first.input} was changed after an earlier run sent it: not sent again (exit 2). Put it back as it was, or give each change a reference of its own.\n`)
    const both = run(csv.replace(`,1000,`, ',1100,').replace(`,2000,`, ',2100,'), {dataDir: first.dataDir, input: first.input})
    expect(await both.result).toBe(2)
    expect(both.io.stderr()).toContain(`\nLines 2, 3 of ${first.input} were changed after an earlier run sent them: not sent again (exit 2). Put them back as they were, or give each change a reference of its own.\n`)
    expect(await heldUnder(references[1]!)).toBe(1)
  })

  it('the first Ctrl-C finishes the rows in flight and starts no more; the summary says what is left, and the batch ends interrupted', async () => {
    const {csv, references} = purchases([1000, 2000, 3000])
    const stopped = run(csv, {onStop: (send) => send('SIGINT')})
    await expect(stopped.result).rejects.toMatchObject({name: 'InterruptedError', signal: 'SIGINT'})
    expect(stopped.stop.signal.aborted).toBe(false)
    expect(stopped.io.stderr()).toContain('\nCtrl-C: finishing the purchases in flight, starting no more (again to stop at once).\n')
    expect(stopped.io.stderr()).toContain(`\nNot finished: 0 rows answered, 0 in doubt, 3 not started. Run the same command again to finish the batch`)
    expect(stopped.io.stdout()).toBe('')
    for (const reference of references) expect(await heldUnder(reference)).toBe(0)
  })

  it('a second signal aborts the rows in flight, and a third stops gw at once; SIGTERM is named as it is', async () => {
    const {csv} = purchases([1000])
    const stopped = run(csv, {onStop: (send) => [1, 2, 3].forEach(() => send('SIGTERM'))})
    await expect(stopped.result).rejects.toMatchObject({name: 'InterruptedError', signal: 'SIGTERM'})
    // The second aborted the requests; the third stopped the command itself, as gw's Factory waits on `interrupted`.
    expect(stopped.stop.signal.reason).toBe('SIGTERM')
    await expect(stopped.stop.interrupted).rejects.toMatchObject({name: 'InterruptedError', signal: 'SIGTERM'})
    expect(stopped.io.stderr()).toContain('\nSIGTERM: finishing the purchases in flight, starting no more (again to stop at once).\n')
  })

  it('a third signal writes the lines reported and not yet written before gw stops', async () => {
    const {csv, references} = purchases([1000, 2000, 3000])
    const io = testIo({progress: true})
    let written: string | undefined
    // The progress line is drawn as a row is reported, its line still waiting for the turn's other lines.
    const status = io.status.bind(io)
    io.status = (text) => {
      status(text)
      if (written !== undefined || !text?.startsWith('1/3')) return
      for (const signal of ['SIGINT', 'SIGINT', 'SIGINT'] as const) stopped.send(signal)
      written = io.stdout()
    }
    const stopped = run(csv, {io, flags: {concurrency: 1}})
    await expect(stopped.result).rejects.toMatchObject({name: 'InterruptedError'})
    expect(lines(written!).map((line) => [line.reference, line.status])).toEqual([[references[0], 'approved']])
  })

  it('stdout that takes no more stops the batch: no more rows are started, and the error says the journal holds what was sent', async () => {
    const {csv} = purchases(Array(8).fill(1000))
    const full = run(csv, {io: testIo({failWrites: {code: 'ENOSPC', afterWrites: 1}}), flags: {concurrency: 1}})
    const error = await full.result.then(() => undefined, (err: unknown) => err)
    expect(error).toMatchObject({name: 'WriteError', message: 'stdout could not be written (ENOSPC): no more rows were started', hint: `Every row sent has its result in the journal ${journalOf(full.io.stderr())}; run the same command again to finish the batch.`})
    expect(lines(full.io.stdout())).toHaveLength(1)
    expect(full.io.stderr()).toMatch(/\nNot finished: \d rows? answered, 0 in doubt, \d not started\./)
  })

  it('--dry-run with --skip-invalid: an invalid row is a line of its own, counted in the summary', async () => {
    const {csv, references} = purchases([1000, 2000])
    const dry = run(csv.replace(',2000,', ',lots,'), {flags: {'dry-run': true, 'skip-invalid': true}})
    expect(await dry.result).toBe(0)
    expect(lines(dry.io.stdout())).toEqual([
      {row: 1, line: 2, reference: references[0], request: {card_token: token, amount: 1000, reference: references[0], currency: 'AUD'}},
      {row: 2, line: 3, reference: references[1], status: 'invalid', error: {messages: ["amount must be a positive whole number in the currency's minor unit, got \"lots\""]}},
    ])
    expect(dry.io.stderr()).toBe('Dry run: 1 purchase would be sent (10.00 AUD); 1 invalid row skipped. Nothing was sent.\n')
  })

  it('--dry-run without a profile: what the rows would send, with no journal to read', async () => {
    const {csv} = purchases([1000])
    const noProfile = run(csv, {target: () => Promise.reject(new AuthError('No profile is set up')), flags: {'dry-run': true}})
    expect(await noProfile.result).toBe(0)
    expect(noProfile.io.stderr()).toBe('Dry run: 1 purchase would be sent (10.00 AUD). Nothing was sent.\n')
    // Anything else that fails is no missing profile: it is not passed over.
    const failing = run(csv, {target: () => Promise.reject(new TypeError('a bug')), flags: {'dry-run': true}})
    await expect(failing.result).rejects.toThrow('a bug')
  })

  it('a batch begun on stdin and given again as a file is that batch: said so, and nothing is sent again', async () => {
    const {csv, references} = purchases([1000])
    const piped = run(csv, {io: testIo({stdin: csv}), flags: {input: '-'}})
    expect(await piped.result).toBe(0)
    const file = run(csv, {dataDir: piped.dataDir})
    expect(await file.result).toBe(0)
    expect(file.io.stderr()).toContain(`\nJournal: it was begun for the same rows on stdin: this is that batch, given again as ${file.input}, and what it sent is not sent again.\n`)
    expect(await heldUnder(references[0]!)).toBe(1)
  })

  it('a refund batch given its journal notes where it is; a row without a reference is sent under one derived from its purchase', async () => {
    const {references: purchased, dataDir} = await bought([1000, 2000])
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-run-batch-journal-')), 'refunds.sqlite')
    const refunds = `transaction_id,amount,reference\n${purchased[0]},100,${purchased[0]}-back\n${purchased[1]},200,\n`
    const dry = run(refunds, {dataDir, kind: refundBatch, flags: {journal, 'dry-run': true}})
    expect(await dry.result).toBe(0)
    expect(lines(dry.io.stdout()).map((line) => line.reference)).toEqual([`${purchased[0]}-back`, `${purchased[1]}-R1`])
    const sent = run(refunds, {dataDir, input: dry.input, kind: refundBatch, flags: {journal}})
    expect(await sent.result).toBe(0)
    expect(lines(sent.io.stdout()).map((line) => [line.reference, line.status])).toEqual([
      [`${purchased[0]}-back`, 'approved'],
      [`${purchased[1]}-R1`, 'approved'],
    ])
    expect(sent.io.stderr()).toContain(`Journal: ${journal}\n`)
    expect(readFileSync(join(dataDir, 'journals', 'elsewhere.ndjson'), 'utf8')).toBe(`${JSON.stringify(journal)}\n`)
    // Run again, the derived reference is the one the journal kept, and nothing is sent again.
    const again = run(refunds, {dataDir, input: dry.input, kind: refundBatch, flags: {journal}})
    expect(await again.result).toBe(0)
    expect(again.io.stderr()).toContain(`Journal: ${journal} (resuming: 2 rows answered, 0 in doubt, 0 not started)\n`)
    expect(lines(again.io.stdout()).map((line) => [line.reference, line.resumed])).toEqual([
      [`${purchased[0]}-back`, true],
      [`${purchased[1]}-R1`, true],
    ])
  })

  it('a purchase batch given its journal notes nothing: only refunds are looked for there', async () => {
    const {csv} = purchases([1000])
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-run-batch-journal-')), 'purchases.sqlite')
    const given = run(csv, {flags: {journal}})
    expect(await given.result).toBe(0)
    expect(given.io.stderr()).toContain(`Journal: ${journal}\n`)
    expect(() => readFileSync(join(given.dataDir, 'journals', 'elsewhere.ndjson'))).toThrow(/ENOENT/)
  })

  it('--dry-run of a refund batch: a row without an amount refunds its purchase in full, in its currency', async () => {
    const {references: purchased, dataDir} = await bought([1000, 2000])
    const dry = run(`transaction_id,amount,reference\n${purchased[0]},100,${purchased[0]}-part\n${purchased[1]},,${purchased[1]}-all\n`, {dataDir, kind: refundBatch, flags: {'dry-run': true}})
    expect(await dry.result).toBe(0)
    expect(lines(dry.io.stdout()).map((line) => (line.request as {amount: number | null}).amount)).toEqual([100, null])
    expect(dry.io.stderr()).toBe('Dry run: 2 refunds would be sent (1.00 AUD; 1 amount not known), 1 of them each refunding its purchase in full. Nothing was sent.\n')
  })

  it('a refund file edited to name a purchase by its id, where the run that refunded it named its reference: the dry run and the run refuse that row unsent, and nothing is sent', async () => {
    const {references: purchased, dataDir} = await bought([1000, 2000])
    const ids = await Promise.all(purchased.map(async (reference) => ((await call(gateway, 'GET', `/v1.0/purchases/${reference}`)).body as {response: {id: string}}).response.id))
    const first = run(`transaction_id,amount,reference\n${purchased[0]},100,\n${purchased[1]},200,\n`, {dataDir, kind: refundBatch})
    expect(await first.result).toBe(0)
    const journal = journalOf(first.io.stderr())
    const refusal = (index: number) => ({
      messages: [`Purchase ${ids[index]} is the one an earlier run of this batch sent refund ${purchased[index]}-R1 of, from line ${index + 2}, where it was named ${purchased[index]}: this row may be that one, so it was not sent`],
      hint: `To finish that row, name the purchase ${purchased[index]} as line ${index + 2} did. To make another refund of it, give this row a reference of its own.`,
    })
    const oneRenamed = `transaction_id,amount,reference\n${ids[0]},100,\n${purchased[1]},200,\n`
    const dry = run(oneRenamed, {dataDir, input: first.input, kind: refundBatch, flags: {'dry-run': true}})
    expect(await dry.result).toBe(0)
    expect(lines(dry.io.stdout())).toEqual([
      {row: 1, line: 2, reference: null, status: 'invalid', error: refusal(0)},
      {row: 2, line: 3, reference: `${purchased[1]}-R1`, request: {transaction_id: purchased[1], amount: 200}, journal: 'answered (approved): not sent again'},
    ])
    expect(dry.io.stderr()).toBe(`Dry run: 0 refunds would be sent (nothing); 1 answered and 0 in doubt by an earlier run of this batch (journal ${journal}); 1 would be refused unsent (its line says why). Nothing was sent.\n`)
    const bothRenamed = run(`transaction_id,amount,reference\n${ids[0]},100,\n${ids[1]},200,\n`, {dataDir, input: first.input, kind: refundBatch, flags: {'dry-run': true}})
    expect(await bothRenamed.result).toBe(0)
    expect(lines(bothRenamed.io.stdout()).map((line) => line.error)).toEqual([refusal(0), refusal(1)])
    expect(bothRenamed.io.stderr()).toBe('Dry run: 0 refunds would be sent (nothing); 2 would be refused unsent (their lines say why). Nothing was sent.\n')
    const again = run(oneRenamed, {dataDir, input: first.input, kind: refundBatch})
    expect(await again.result).toBe(2)
    expect(lines(again.io.stdout()).sort((a, b) => Number(a.row) - Number(b.row)).map((line) => [line.reference, line.status, line.resumed ?? false])).toEqual([
      [null, 'invalid', false],
      [`${purchased[1]}-R1`, 'approved', true],
    ])
    const refunds = (await call(gateway, 'GET', '/v1.0/refunds?limit=100')).body as {response: {reference: string}[]}
    expect(refunds.response.filter((refund) => refund.reference.startsWith(`${purchased[0]}-R`)).map((refund) => refund.reference)).toEqual([`${purchased[0]}-R1`])
  })

  it('--dry-run after a run stopped before it sent anything says nothing of an earlier run; of a copy, where the batch was begun', async () => {
    const {csv} = purchases([1000, 2000])
    const stopped = run(csv, {onStop: (send) => send('SIGINT')})
    await expect(stopped.result).rejects.toMatchObject({name: 'InterruptedError'})
    const dry = run(csv, {dataDir: stopped.dataDir, input: stopped.input, flags: {'dry-run': true}})
    expect(await dry.result).toBe(0)
    expect(dry.io.stderr()).toBe('Dry run: 2 purchases would be sent (30.00 AUD). Nothing was sent.\n')
    const sent = run(csv, {dataDir: stopped.dataDir, input: stopped.input})
    expect(await sent.result).toBe(0)
    const copy = run(csv, {dataDir: stopped.dataDir, flags: {'dry-run': true}})
    expect(await copy.result).toBe(0)
    expect(copy.io.stderr()).toBe(`Dry run: 0 purchases would be sent (nothing); 2 answered and 0 in doubt by an earlier run of this batch (journal ${journalOf(sent.io.stderr())}, begun for the same rows at ${stopped.input}). Nothing was sent.\n`)
    const piped = run(csv, {io: testIo({stdin: csv}), flags: {input: '-'}})
    expect(await piped.result).toBe(0)
    const fromFile = run(csv, {dataDir: piped.dataDir, flags: {'dry-run': true}})
    expect(await fromFile.result).toBe(0)
    expect(fromFile.io.stderr()).toContain(', begun for the same rows on stdin). Nothing was sent.\n')
  })

  it('a refund batch copied is said to be that batch, and how to refund its rows again as a new one', async () => {
    const {references: purchased, dataDir} = await bought([1000])
    const refunds = `transaction_id,amount,reference\n${purchased[0]},100,${purchased[0]}-copied\n`
    const first = run(refunds, {dataDir, kind: refundBatch})
    expect(await first.result).toBe(0)
    const copy = run(refunds, {dataDir, kind: refundBatch})
    expect(await copy.result).toBe(0)
    expect(copy.io.stderr()).toContain(`\nJournal: it was begun for the same rows at ${first.input}: this is that batch, moved or copied, and what it sent is not sent again. To refund these rows again as a new batch, give it --new-batch and a journal of its own (--journal FILE).\n`)
  })

  it('a second signal leaves the row in flight in doubt: a dry run says it is looked up first, and a file without it is told to check it', async () => {
    const {csv, references} = purchases([1000, 2000])
    const held = await holding(references[0]!)
    try {
      const journal = join(mkdtempSync(join(tmpdir(), 'gw-run-batch-journal-')), 'doubt.sqlite')
      const stopped = run(csv, {baseUrl: held.url, flags: {concurrency: 1, journal}})
      await held.arrived()
      stopped.send('SIGINT')
      expect(stopped.stop.signal.aborted).toBe(false)
      stopped.send('SIGINT')
      expect(stopped.stop.signal.reason).toBe('SIGINT')
      await expect(stopped.result).rejects.toMatchObject({name: 'InterruptedError'})
      expect(stopped.io.stderr()).toContain(`\nNot finished: 0 rows answered, 1 in doubt, 1 not started. Run the same command again to finish the batch`)
      const dry = run(csv, {baseUrl: held.url, dataDir: stopped.dataDir, input: stopped.input, flags: {journal, 'dry-run': true}})
      expect(await dry.result).toBe(0)
      expect(lines(dry.io.stdout()).map((line) => line.journal)).toEqual(['in doubt: looked up first, sent only if the gateway has none', undefined])
      expect(dry.io.stderr()).toBe(`Dry run: 1 purchase would be sent (20.00 AUD); 0 answered and 1 in doubt by an earlier run of this batch (journal ${journal}). Nothing was sent.\n`)
      // The gateway gets the request held for it, as a slow one would, though gw stopped waiting.
      held.release()
      await held.answered()
      const without = run(csv.replace(`${token},1000,${references[0]}\n`, ''), {baseUrl: held.url, dataDir: stopped.dataDir, input: stopped.input, flags: {journal}})
      expect(await without.result).toBe(0)
      expect(without.io.stderr()).toContain(`\nJournal: reference ${references[0]} (line 2 then) was sent by an earlier run with no answer kept, and ${stopped.input} no longer has it: check it with gw purchase get ${references[0]} before sending it again.\n`)
      expect(lines(without.io.stdout()).map((line) => [line.reference, line.status])).toEqual([[references[1], 'approved']])
      expect(held.repeats()).toEqual({})
    } finally {
      await held.close()
    }
  })
})

/** The threads started while `run` runs: a batch's journal worker is the only one these runs start. */
async function threadsStarted<T>(run: () => Promise<T>): Promise<{result: T; threads: Worker[]}> {
  const threads: Worker[] = []
  const started = (message: unknown) => threads.push((message as {worker: Worker}).worker)
  diagnostics.subscribe('worker_threads', started)
  try {
    return {result: await run(), threads}
  } finally {
    diagnostics.unsubscribe('worker_threads', started)
  }
}

describe('runBatch, how it runs', () => {
  it('commits on a worker of its own only where rows wait their turn (more than --concurrency), and ends it whatever the batch came to', async () => {
    const many = purchases([1000, 2000, 3000])
    const queued = await threadsStarted(() => run(many.csv, {flags: {concurrency: 1}}).result)
    expect(queued.result).toBe(0)
    expect(queued.threads.map((thread) => thread.threadId)).toEqual([-1])
    const all = await threadsStarted(() => run(purchases([1000, 2000]).csv).result)
    expect(all.threads).toEqual([])
    const dry = await threadsStarted(() => run(purchases([1000, 2000, 3000]).csv, {flags: {concurrency: 1, 'dry-run': true}}).result)
    expect(dry.threads).toEqual([])
    // Started while the rows were counted, then refused for one invalid row: ended all the same.
    const invalid = purchases([1000, 2000, 3000, 4000])
    const refused = await threadsStarted(() => run(invalid.csv.replace(',4000,', ',lots,'), {flags: {concurrency: 1}}).result.catch((err: unknown) => err))
    expect(refused.result).toMatchObject({name: 'UsageError'})
    expect(refused.threads.map((thread) => thread.threadId)).toEqual([-1])
  })

  it('gives its soft stop up once it ends, and an error before its first row is the error said, nothing else', async () => {
    const {csv, references} = purchases([1000])
    const ended = run(csv)
    expect(await ended.result).toBe(0)
    expect(ended.softStops.map((handler) => typeof handler)).toEqual(['function', 'undefined'])
    const readOnly = new AuthError('The profile is read-only')
    const refused = run(purchases([1000]).csv, {refuse: readOnly})
    await expect(refused.result).rejects.toBe(readOnly)
    expect(refused.softStops.map((handler) => typeof handler)).toEqual(['undefined'])
    expect(await heldUnder(references[0]!)).toBe(1)
  })

  it('waits for stdout before it starts a row: a reader that falls behind holds the batch, which goes on once it catches up', async () => {
    const {csv, references} = purchases([1000, 2000, 3000])
    const io = testIo({behind: true})
    const held = run(csv, {io, flags: {concurrency: 1}})
    await io.waitingForReader()
    for (const reference of references) expect(await heldUnder(reference)).toBe(0)
    io.catchUp()
    expect(await held.result).toBe(0)
    expect(lines(io.stdout()).map((line) => line.reference)).toEqual(references)
  })

  it("a second signal while stdout's reader is behind ends the wait: the batch stops, its rows not started named", async () => {
    const {csv, references} = purchases([1000, 2000, 3000])
    const io = testIo({behind: true})
    const held = run(csv, {io, flags: {concurrency: 1}})
    let stoppedAtOnce = false
    held.stop.interrupted.catch(() => (stoppedAtOnce = true))
    await io.waitingForReader()
    held.send('SIGINT')
    held.send('SIGINT')
    await expect(held.result).rejects.toMatchObject({name: 'InterruptedError', signal: 'SIGINT'})
    // Two signals abort the requests; they do not stop the command itself, which reports first.
    await new Promise((resolve) => setImmediate(resolve))
    expect({stoppedAtOnce, aborted: held.stop.signal.reason}).toEqual({stoppedAtOnce: false, aborted: 'SIGINT'})
    expect(io.stderr()).toMatch(/\nNot finished: 0 rows answered, 0 in doubt, 3 not started\./)
    for (const reference of references) expect(await heldUnder(reference)).toBe(0)
  })

  it("keeps the gateway's instance with each result in its journal, as the client heard it", async () => {
    const {csv} = purchases([1000, 2000])
    const sent = run(csv)
    expect(await sent.result).toBe(0)
    const results = lines(journalText(journalOf(sent.io.stderr()))).filter((entry) => 'result' in entry)
    expect(results).toHaveLength(2)
    // The data's run, then how many changes it had had when the row was answered (sandbox/domain/store.ts).
    const dataRun = sent.client.gatewayInstance!.split('.')[0]!
    expect(dataRun).toMatch(/^[0-9a-f-]{36}$/)
    for (const result of results) expect(result.gateway_instance).toMatch(new RegExp(`^${dataRun}\\.\\d+$`))
  })

  it('--dry-run of refunds an earlier run made under derived references, its journal not here: found at the gateway, and not sent again', async () => {
    const {references: purchased, dataDir} = await bought([1000, 2000])
    const refunds = `transaction_id,amount,reference\n${purchased[0]},100,\n${purchased[1]},200,${purchased[1]}-given\n`
    const sent = run(refunds, {dataDir, kind: refundBatch})
    expect(await sent.result).toBe(0)
    const elsewhere = run(refunds, {input: sent.input, kind: refundBatch, flags: {'dry-run': true}})
    expect(await elsewhere.result).toBe(0)
    expect(lines(elsewhere.io.stdout())).toEqual([
      {row: 1, line: 2, reference: `${purchased[0]}-R1`, request: {transaction_id: purchased[0], amount: 100}, gateway: 'made by an earlier run of this batch: not sent again'},
      {row: 2, line: 3, reference: `${purchased[1]}-given`, request: {transaction_id: purchased[1], amount: 200, reference: `${purchased[1]}-given`}},
    ])
    expect(elsewhere.io.stderr()).toBe('Dry run: 1 refund would be sent (2.00 AUD); 1 made by an earlier run of this batch, found at the gateway. Nothing was sent.\n')
  })

  it.skipIf(REMOVABLE_WHILE_OPEN.skip)(`a journal removed under the running batch: the batch ends in its error, not the exit code of its rows${REMOVABLE_WHILE_OPEN.note}`, async () => {
    const {csv, references} = purchases([1000, 2000, 3000])
    const held = await holding(references[1]!)
    try {
      const journal = join(mkdtempSync(join(tmpdir(), 'gw-run-batch-journal-')), 'removed.sqlite')
      const removed = run(csv, {baseUrl: held.url, flags: {concurrency: 1, journal}})
      await held.arrived()
      rmSync(journal)
      held.release()
      await expect(removed.result).rejects.toMatchObject({name: 'JournalReplacedError'})
      // Found as row 2's result was written (row 3's intent was in already): the summary sums the rows up, and the error, not
      // "Not finished", says how to finish, since the file at the path is no journal of these rows.
      expect(removed.io.stderr()).toMatch(new RegExp(`^Journal: ${escaped(journal)}\\n3 purchases: `))
      expect(removed.io.stderr()).not.toContain('Not finished')
    } finally {
      await held.close()
    }
  })

  it("names invalid rows in the file's order, a reference used twice on both its lines", async () => {
    const {csv, references} = purchases([1000, 2000, 3000])
    const refused = run(csv.replace(`,2000,`, ',lots,').replace(references[2]!, references[0]!))
    await expect(refused.result).rejects.toMatchObject({message: '3 of 3 rows are invalid (lines 2, 3, 4): nothing was sent'})
    expect(refused.io.stderr()).toBe(
      [
        `${refused.input} line 2: reference ${references[0]} is used again on line 4: each row needs a reference of its own`,
        `${refused.input} line 3: amount must be a positive whole number in the currency's minor unit, got "lots"`,
        `${refused.input} line 4: reference ${references[0]} is used again on line 2: each row needs a reference of its own`,
        '',
      ].join('\n'),
    )
  })

  it('--dry-run of refunds of one purchase without references, all made by an earlier run elsewhere: each found at the gateway by its own', async () => {
    const {references: purchased, dataDir} = await bought([1000])
    const refunds = `transaction_id,amount,reference\n${purchased[0]},100,\n${purchased[0]},100,\n${purchased[0]},200,\n`
    const sent = run(refunds, {dataDir, kind: refundBatch})
    expect(await sent.result).toBe(0)
    expect(lines(sent.io.stdout()).map((line) => line.reference)).toEqual([1, 2, 3].map((n) => `${purchased[0]}-R${n}`))
    // Its journal, where gw keeps it, was not noted as one elsewhere: only a journal given (--journal) is.
    expect(() => readFileSync(join(dataDir, 'journals', 'elsewhere.ndjson'))).toThrow(/ENOENT/)
    const elsewhere = run(refunds, {input: sent.input, kind: refundBatch, flags: {'dry-run': true}})
    expect(await elsewhere.result).toBe(0)
    expect(lines(elsewhere.io.stdout()).map((line) => [line.reference, line.gateway])).toEqual([1, 2, 3].map((n) => [`${purchased[0]}-R${n}`, 'made by an earlier run of this batch: not sent again']))
    expect(elsewhere.io.stderr()).toBe('Dry run: 0 refunds would be sent (nothing); 3 made by an earlier run of this batch, found at the gateway. Nothing was sent.\n')
    // As a new batch (--new-batch), none is its: each would be sent under a reference the gateway has none of.
    const anew = run(refunds, {input: sent.input, kind: refundBatch, flags: {'dry-run': true, 'new-batch': true}})
    expect(await anew.result).toBe(0)
    expect(lines(anew.io.stdout()).map((line) => [line.reference, line.gateway])).toEqual([4, 5, 6].map((n) => [`${purchased[0]}-R${n}`, undefined]))
    expect(anew.io.stderr()).toBe('Dry run: 3 refunds would be sent (4.00 AUD). Nothing was sent.\n')
    // Sent so, in a journal of its own, each row is refunded again under the next references.
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-run-batch-journal-')), 'again.sqlite')
    const again = run(refunds, {dataDir, input: sent.input, kind: refundBatch, flags: {'new-batch': true, journal}})
    expect(await again.result).toBe(0)
    expect(lines(again.io.stdout()).map((line) => [line.reference, line.status, line.resumed])).toEqual([4, 5, 6].map((n) => [`${purchased[0]}-R${n}`, 'approved', undefined]))
  })

  it('a refund file given a row since its run: the rows it made under derived references are resumed by them, and only the new row is sent', async () => {
    const {references: purchased, dataDir} = await bought([1000, 2000])
    const refunds = `transaction_id,amount,reference\n${purchased[0]},100,\n${purchased[0]},200,\n`
    const sent = run(refunds, {dataDir, kind: refundBatch})
    expect(await sent.result).toBe(0)
    // A dry run finds each row that was there by its line: the file's rows are not the journal's now.
    const dry = run(`${refunds}${purchased[0]},300,\n`, {dataDir, input: sent.input, kind: refundBatch, flags: {'dry-run': true}})
    expect(await dry.result).toBe(0)
    expect(lines(dry.io.stdout()).map((line) => [line.reference, line.journal])).toEqual([
      [`${purchased[0]}-R1`, 'answered (approved): not sent again'],
      [`${purchased[0]}-R2`, 'answered (approved): not sent again'],
      [`${purchased[0]}-R3`, undefined],
    ])
    const edited = run(`${refunds}${purchased[0]},300,\n`, {dataDir, input: sent.input, kind: refundBatch})
    expect(await edited.result).toBe(0)
    expect(lines(edited.io.stdout()).map((line) => [line.reference, line.status, line.resumed])).toEqual([
      [`${purchased[0]}-R1`, 'approved', true],
      [`${purchased[0]}-R2`, 'approved', true],
      [`${purchased[0]}-R3`, 'approved', undefined],
    ])
    expect(edited.io.stderr()).toMatch(new RegExp(`^Journal: ${escaped(journalOf(sent.io.stderr()))} \\(resuming: 2 rows answered, 0 in doubt, 1 not started\\)\\n3 refunds: 3 approved \\(2 done by an earlier run\\) in `))
  })

  it("--fields: each row's record holds the fields picked alone, beside the row's own keys", async () => {
    const {csv, references} = purchases([1500])
    const picked = run(csv, {fields: ['amount', 'reference']})
    expect(await picked.result).toBe(0)
    expect(lines(picked.io.stdout())).toEqual([{row: 1, line: 2, reference: references[0], status: 'approved', exit_code: 0, record: {amount: 1500, reference: references[0]}}])
  })

  it('--dry-run with --skip-invalid counts two invalid rows in the plural', async () => {
    const {csv} = purchases([1000, 2000, 3000])
    const dry = run(csv.replace(',2000,', ',lots,').replace(',3000,', ',more,'), {flags: {'dry-run': true, 'skip-invalid': true}})
    expect(await dry.result).toBe(0)
    expect(dry.io.stderr()).toBe('Dry run: 1 purchase would be sent (10.00 AUD); 2 invalid rows skipped. Nothing was sent.\n')
  })

  it('a row the gateway rate limited goes again once it says, and the summary says how long gw waited', async () => {
    const {csv, references} = purchases([1000, 2000])
    const limited = await call(gateway, 'POST', '/_sandbox/faults', {body: {method: 'POST', path: '/v1.0/purchases', action: 'rate-limit', retryAfter: 1, times: 1}, auth: null})
    expect(limited.status).toBe(200)
    // Before it goes again, its row's slot is asked whether its intent is still fresh (runner.test.ts has what it then does).
    const resending = vi.spyOn(GatewaySlots.prototype, 'resending')
    onTestFinished(() => resending.mockRestore())
    const sent = run(csv, {flags: {concurrency: 1}})
    expect(await sent.result).toBe(0)
    expect(resending.mock.calls).toEqual([[references[0]]])
    expect(lines(sent.io.stdout()).map((line) => [line.reference, line.status])).toEqual(references.map((reference) => [reference, 'approved']))
    expect(sent.io.stderr()).toMatch(/\nRate limited by the gateway: 1 answer asked gw to wait, 1\.\d s in all; ran at [\d.]+ purchases a second\.\n/)
    for (const reference of references) expect(await heldUnder(reference)).toBe(1)
  })

  it('a refund file with a row since blanked: each row left is known by its line, so it keeps its own derived reference and answer', async () => {
    const {references: purchased, dataDir} = await bought([1000])
    const refunds = `transaction_id,amount,reference\n${purchased[0]},100,\n${purchased[0]},200,\n`
    const sent = run(refunds, {dataDir, kind: refundBatch})
    expect(await sent.result).toBe(0)
    const blanked = `transaction_id,amount,reference\n\n${purchased[0]},200,\n`
    const dry = run(blanked, {dataDir, input: sent.input, kind: refundBatch, flags: {'dry-run': true}})
    expect(await dry.result).toBe(0)
    expect(lines(dry.io.stdout())).toEqual([{row: 1, line: 3, reference: `${purchased[0]}-R2`, request: {transaction_id: purchased[0], amount: 200}, journal: 'answered (approved): not sent again'}])
    const again = run(blanked, {dataDir, input: sent.input, kind: refundBatch})
    expect(await again.result).toBe(0)
    expect(lines(again.io.stdout()).map((line) => [line.row, line.reference, line.resumed, (line.record as {amount: number}).amount])).toEqual([[1, `${purchased[0]}-R2`, true, -200]])
  })

  it('a refund file whose row with a reference was taken out since its run: the journal no longer counts it', async () => {
    const {references: purchased, dataDir} = await bought([1000])
    const refunds = `transaction_id,amount,reference\n${purchased[0]},200,\n${purchased[0]},100,${purchased[0]}-given\n`
    const sent = run(refunds, {dataDir, kind: refundBatch})
    expect(await sent.result).toBe(0)
    const edited = run(`transaction_id,amount,reference\n${purchased[0]},200,\n`, {dataDir, input: sent.input, kind: refundBatch})
    expect(await edited.result).toBe(0)
    expect(lines(edited.io.stdout()).map((line) => [line.reference, line.resumed])).toEqual([[`${purchased[0]}-R1`, true]])
    expect(edited.io.stderr()).toContain(' (resuming: 1 row answered, 0 in doubt, 0 not started)\n1 refund: 1 approved (1 done by an earlier run) in ')
  })

  it('a refund row without a reference takes one no row of the file gives: one given the shape of a derived one is passed over', async () => {
    const {references: purchased, dataDir} = await bought([1000])
    const sent = run(`transaction_id,amount,reference\n${purchased[0]},200,\n${purchased[0]},100,${purchased[0]}-R1\n`, {dataDir, kind: refundBatch})
    expect(await sent.result).toBe(0)
    expect(lines(sent.io.stdout()).map((line) => [line.reference, line.status]).sort()).toEqual([
      [`${purchased[0]}-R1`, 'approved'],
      [`${purchased[0]}-R2`, 'approved'],
    ])
  })

  it('--jq failing on a row stops the batch: its error, with no more rows started, and the journal to finish from', async () => {
    const {csv, references} = purchases([1000, 2000, 3000])
    const filter = await jqFilter('if .row == 1 then error("row one") else .reference end')
    const held = await holding(references[1]!)
    try {
      const io = filteredIo(testIo(), filter) as TestIo
      const failing = run(csv, {io, baseUrl: held.url, flags: {concurrency: 1}})
      // Row 2 is on its way as jq fails on row 1's line: it finishes, and row 3 is not started.
      await held.arrived()
      await until('jq failed on row 1', () => io.outFailure() !== undefined)
      held.release()
      const error = await failing.result.then(() => undefined, (err: unknown) => err)
      expect(error).toMatchObject({name: 'GwError', message: '--jq: row one (record 1 of the output; nothing after it was printed): no more rows were started', hint: `Every row sent has its result in the journal ${journalOf(io.stderr())}; run the same command again to finish the batch.`})
      expect((error as Error).cause).toBeInstanceOf(JqFailure)
      expect(io.stderr()).toMatch(/\nNot finished: 2 rows answered, 0 in doubt, 1 not started\./)
    } finally {
      filter.thread.stop()
      await held.close()
    }
  })

  it('a row left in doubt, run again while the gateway still holds its request: gw says it waits, finds it made, and sends nothing again', async () => {
    const {csv, references} = purchases([1000])
    const held = await holding(references[0]!)
    try {
      const journal = join(mkdtempSync(join(tmpdir(), 'gw-run-batch-journal-')), 'waits.sqlite')
      const stopped = run(csv, {baseUrl: held.url, flags: {journal}})
      await held.arrived()
      stopped.send('SIGINT')
      stopped.send('SIGINT')
      await expect(stopped.result).rejects.toMatchObject({name: 'InterruptedError'})
      // A window no load outlasts: the row is not taken as never sent while its request is still held.
      const again = run(csv, {baseUrl: held.url, dataDir: stopped.dataDir, input: stopped.input, flags: {journal}, windowMs: 600_000})
      const waits = `The gateway has no purchase with reference ${references[0]} yet, and may still be processing it: looking again for up to `
      await until('gw says it waits for the gateway', () => again.io.stderr().includes(waits))
      held.release()
      expect(await again.result).toBe(0)
      expect(again.io.stderr()).toMatch(
        new RegExp(`^Journal: ${escaped(journal)} \\(resuming: 0 rows answered, 1 in doubt, 0 not started\\)\\n${escaped(waits)}\\d+ s\\. If it is not there then, it never arrived, and is sent\\.\\n1 purchase: 1 approved \\(1 done by an earlier run\\) in `),
      )
      expect(lines(again.io.stdout()).map((line) => [line.reference, line.status, line.resumed])).toEqual([[references[0], 'approved', true]])
      expect(await heldUnder(references[0]!)).toBe(1)
      expect(held.repeats()).toEqual({})
    } finally {
      await held.close()
    }
  })
})

describe('runBatch, kinds beside purchases and refunds', () => {
  it('a direct-debit batch: a dry run cannot tell the references it would make; copied, it is told to give the rows a journal of their own', async () => {
    const debits = (first: string, second: string) => `amount,description,bsb,account_name,account_number,reference\n4200,Rent,123-456,Jane Citizen,012345678,${first}\n4300,Rent,123-456,Jane Citizen,012345678,${second}\n`
    const dry = run(debits('', ''), {kind: directDebitBatch, flags: {'dry-run': true}})
    expect(await dry.result).toBe(0)
    expect(lines(dry.io.stdout()).map((line) => [line.row, line.reference])).toEqual([
      [1, null],
      [2, null],
    ])
    expect(dry.io.stderr()).toBe('Dry run: 2 direct debits would be sent (85.00 AUD). Nothing was sent.\n')
    const first = run(debits('', ''), {kind: directDebitBatch})
    expect(await first.result).toBe(0)
    const made = lines(first.io.stdout()).map((line) => [line.row, line.reference, line.status])
    expect(made).toEqual([
      [1, expect.stringMatching(/^dd-\d{8}-[0-9a-z]{6}-R1$/), 'made'],
      [2, expect.stringMatching(/^dd-\d{8}-[0-9a-z]{6}-R2$/), 'made'],
    ])
    const copy = run(debits('', ''), {kind: directDebitBatch, dataDir: first.dataDir})
    expect(await copy.result).toBe(0)
    expect(lines(copy.io.stdout()).map((line) => [line.row, line.reference, line.resumed])).toEqual(made.map(([row, reference]) => [row, reference, true]))
    expect(copy.io.stderr()).toContain(`\nJournal: it was begun for the same rows at ${first.input}: this is that batch, moved or copied, and what it sent is not sent again. To send these rows as a new batch, give it a journal of its own with --journal FILE.\n`)
  })
})

describe('runBatch, refund rows without references', () => {
  const refundsOf = (rows: [string, number][]) => `transaction_id,amount,reference\n${rows.map(([purchase, amount]) => `${purchase},${amount},\n`).join('')}`

  it('two rows of one purchase keep the references their run made, run again as they were or on other lines', async () => {
    const {references: purchased, dataDir} = await bought([1000])
    const [p] = purchased as [string]
    const refunds = refundsOf([[p, 100], [p, 200]])
    const sent = run(refunds, {dataDir, kind: refundBatch})
    expect(await sent.result).toBe(0)
    const again = run(refunds, {dataDir, input: sent.input, kind: refundBatch})
    expect(await again.result).toBe(0)
    expect(lines(again.io.stdout()).map((line) => [line.row, line.reference, line.resumed])).toEqual([
      [1, `${p}-R1`, true],
      [2, `${p}-R2`, true],
    ])
    // The same rows with a blank line between: a row is found by its place among the rows, not by its line.
    const spaced = refunds.replace(`,100,\n`, `,100,\n\n`)
    const dry = run(spaced, {dataDir, input: sent.input, kind: refundBatch, flags: {'dry-run': true}})
    expect(await dry.result).toBe(0)
    expect(lines(dry.io.stdout()).map((line) => [line.line, line.reference, line.journal])).toEqual([
      [2, `${p}-R1`, 'answered (approved): not sent again'],
      [4, `${p}-R2`, 'answered (approved): not sent again'],
    ])
    const moved = run(spaced, {dataDir, input: sent.input, kind: refundBatch})
    expect(await moved.result).toBe(0)
    expect(lines(moved.io.stdout()).map((line) => [line.line, line.reference, line.resumed])).toEqual([
      [2, `${p}-R1`, true],
      [4, `${p}-R2`, true],
    ])
  })

  it('--dry-run walks as far as the rows of a purchase could have left references free: three for two rows, and no further', async () => {
    const {references: purchased, dataDir} = await bought([1000])
    const [p] = purchased as [string]
    const proxy = await countingProxy(gateway.url)
    try {
      const dry = run(refundsOf([[p, 100], [p, 200]]), {dataDir, kind: refundBatch, baseUrl: proxy.url, flags: {'dry-run': true}})
      expect(await dry.result).toBe(0)
      expect(lines(dry.io.stdout()).map((line) => line.reference)).toEqual([`${p}-R1`, `${p}-R2`])
      expect(proxy.gets().filter((path) => path.startsWith('/v1.0/refunds/'))).toEqual([1, 2, 3].map((n) => `/v1.0/refunds/${p}-R${n}`))
    } finally {
      await proxy.close()
    }
  })

  it('a line that now refunds another purchase is another row: refunded under its own reference, not the one its line had', async () => {
    const {references: purchased, dataDir} = await bought([1000, 2000])
    const [first, second] = purchased as [string, string]
    const sent = run(refundsOf([[first, 100]]), {dataDir, kind: refundBatch})
    expect(await sent.result).toBe(0)
    const next = run(refundsOf([[second, 100]]), {dataDir, input: sent.input, kind: refundBatch})
    expect(await next.result).toBe(0)
    expect(lines(next.io.stdout()).map((line) => [line.reference, line.status, line.resumed])).toEqual([[`${second}-R1`, 'approved', undefined]])
    // The refund of the first purchase is no row of this file: not counted as one.
    expect(next.io.stderr()).toContain(' (resuming: 0 rows answered, 0 in doubt, 1 not started)\n')
  })

  it('a row left in doubt that an edited file no longer has is named, with the command to check it; the rows it has go on', async () => {
    const {references: purchased, dataDir} = await bought([1000, 2000])
    const [first, second] = purchased as [string, string]
    const refunds = refundsOf([[first, 100], [second, 100]])
    const held = await holding(`${first}-R1`)
    try {
      const stopped = run(refunds, {dataDir, kind: refundBatch, baseUrl: held.url, flags: {concurrency: 1}})
      await held.arrived()
      stopped.send('SIGINT')
      stopped.send('SIGINT')
      await expect(stopped.result).rejects.toMatchObject({name: 'InterruptedError'})
      const without = run(refundsOf([[second, 100]]), {dataDir, input: stopped.input, kind: refundBatch, baseUrl: held.url})
      expect(await without.result).toBe(0)
      expect(without.io.stderr()).toContain(' (resuming: 0 rows answered, 0 in doubt, 1 not started)\n')
      expect(without.io.stderr()).toContain(`\nJournal: reference ${first}-R1 (line 2 then) was sent by an earlier run with no answer kept, and ${stopped.input} no longer has it: check it with gw refund get ${first}-R1 before sending it again.\n`)
      expect(lines(without.io.stdout()).map((line) => [line.line, line.reference, line.status])).toEqual([[2, `${second}-R1`, 'approved']])
      expect(held.repeats()).toEqual({})
    } finally {
      await held.close()
    }
  })

  it('a row given a reference since its run is sent under it: the reference made for it before is no row of this file now', async () => {
    const {references: purchased, dataDir} = await bought([1000])
    const [p] = purchased as [string]
    const sent = run(refundsOf([[p, 100]]), {dataDir, kind: refundBatch})
    expect(await sent.result).toBe(0)
    const given = run(`transaction_id,amount,reference\n${p},100,${p}-given\n`, {dataDir, input: sent.input, kind: refundBatch})
    expect(await given.result).toBe(0)
    expect(given.io.stderr()).toContain(' (resuming: 0 rows answered, 0 in doubt, 1 not started)\n1 refund: 1 approved in ')
    expect(lines(given.io.stdout()).map((line) => [line.reference, line.status, line.resumed])).toEqual([[`${p}-given`, 'approved', undefined]])
  })

  it('a row left in doubt under a reference the gateway never got keeps it from a new row of its purchase, which goes on while it is sent', async () => {
    const {references: purchased, dataDir} = await bought([1000])
    const [p] = purchased as [string]
    const isRow1 = (request: Counted) => request.method === 'POST' && request.reference === `${p}-R1`
    // The first run's request never reaches the gateway; the second's is held until the new row is answered.
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const holds = [new Promise<void>(() => {}), released]
    const proxy = await countingProxy(gateway.url, {hold: (request) => (isRow1(request) ? holds.shift() : undefined)})
    try {
      const stopped = run(refundsOf([[p, 100]]), {dataDir, kind: refundBatch, baseUrl: proxy.url})
      await proxy.arrived(isRow1)
      stopped.send('SIGINT')
      stopped.send('SIGINT')
      await expect(stopped.result).rejects.toMatchObject({name: 'InterruptedError'})
      // The gateway's window is over at once: the row in doubt is looked up, and sent once found missing.
      const next = run(refundsOf([[p, 100], [p, 200]]), {dataDir, input: stopped.input, kind: refundBatch, baseUrl: proxy.url, windowMs: 1})
      await until('the row in doubt sent again', () => proxy.posts(`${p}-R1`) === 2)
      await until('the new row answered', () => lines(next.io.stdout()).length === 1)
      release()
      expect(await next.result).toBe(0)
      expect(lines(next.io.stdout()).map((line) => [line.row, line.reference, line.status])).toEqual([
        [2, `${p}-R2`, 'approved'],
        [1, `${p}-R1`, 'approved'],
      ])
      expect(next.io.stderr()).toMatch(/^Journal: \S+ \(resuming: 0 rows answered, 1 in doubt, 1 not started\)\n2 refunds: 2 approved in /)
    } finally {
      release()
      await proxy.close()
    }
  })
})
