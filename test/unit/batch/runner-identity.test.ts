import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {Journal} from '../../../src/batch/journal.js'
import type {RowSender} from '../../../src/batch/kinds.js'
import type {RowReport} from '../../../src/batch/row-reports.js'
import {BatchRunner} from '../../../src/batch/runner.js'
import {AuthError, GatewayError, NotFoundError} from '../../../src/errors.js'
import {findEarlier, type MoneyRequest, sendOnce} from '../../../src/operations/money.js'
import {journalText} from '../../journal-text.js'

// Rows an earlier run sent are told apart by what they asked (an edited input), the
// gateway's run of its data goes with each answer, and --verify looks the rows done up.
type Input = {reference: string; amount?: number}
type Body = {reference: string; amount: number}

const journalAt = (file: string) => Journal.open(file, {command: 'purchase create', input: {path: '/data/p.csv', sha256: 'h'}, now: new Date(), target: {base_url: 'http://localhost:4010', username: 'TEST'}})
const newJournal = () => journalAt(join(mkdtempSync(join(tmpdir(), 'gw-runner-id-')), 'j.ndjson'))
const linesOf = (file: string) => journalText(file).split('\n').slice(1, -1).map((line) => JSON.parse(line) as Record<string, unknown>)

/**
 * A pretend gateway behind the real money module: `records` by reference; a row without an amount
 * asks for 1000 (a full refund's amount, looked up). Sends and look-ups are recorded.
 */
function gateway(records: Record<string, Record<string, unknown>> = {}, fail: Record<string, Error> = {}) {
  const sent: string[] = []
  const looked: string[] = []
  const request = (body: Body): MoneyRequest => ({
    noun: 'purchase',
    body,
    post: async () => {
      sent.push(body.reference)
      records[body.reference] = {reference: body.reference, amount: body.amount, successful: true}
      return {record: records[body.reference]!, raw: {status: 200}}
    },
    lookUp: async (reference) => {
      looked.push(reference)
      if (fail[reference]) throw fail[reference]
      if (!records[reference]) throw new NotFoundError('Purchase not found', {status: 404})
      return records[reference]
    },
    lookups: {cardToken: () => Promise.reject(new Error('no cards here')), purchase: () => Promise.reject(new Error('no purchases here'))},
  })
  const sender: RowSender<Input, Body> = {
    noun: 'purchase',
    request: async (input) => ({reference: input.reference, amount: input.amount ?? 1000}),
    asksFirst: () => false,
    send: (body) => sendOnce(request(body)),
    findEarlier: (body) => findEarlier(request(body)),
    asked: (input) => ({reference: input.reference, amount: input.amount}),
    money: (body) => ({amount: body.amount, currency: 'AUD'}),
  }
  return {sender, sent, looked, records}
}

async function* rows(inputs: Input[]) {
  for (const [i, input] of inputs.entries()) yield {row: i + 1, line: i + 2, reference: input.reference, input}
}

async function run(inputs: Input[], sender: RowSender<Input, Body>, journal: Journal, options: {verify?: boolean; gatewayInstance?: () => string | undefined} = {}) {
  const reports: RowReport[] = []
  const runner = new BatchRunner({rows: rows(inputs), total: inputs.length, sender, journal, concurrency: 2, onRow: (report) => reports.push(report), ...options})
  const end = await runner.run()
  return {reports: reports.sort((a, b) => a.row - b.row), end}
}

/** A journal an earlier run left: `answered` approved, `declined`, `refused` (exit 7), `failed` (exit 1), `inDoubt` sent with no answer. */
async function earlierRun(entries: {answered?: Body[]; declined?: Body[]; refused?: Body[]; failed?: Body[]; inDoubt?: Body[]}) {
  const earlier = await newJournal()
  const all = [...(entries.answered ?? []), ...(entries.declined ?? []), ...(entries.refused ?? []), ...(entries.failed ?? []), ...(entries.inDoubt ?? [])]
  for (const [i, body] of all.entries()) await earlier.intent({intent: body.reference, row: i + 1, line: i + 2, request: body, sent_at: '2026-11-22T10:00:00.000Z'})
  for (const body of entries.answered ?? []) await earlier.result({result: body.reference, status: 'approved', exit_code: 0, record: {id: `071-P-${body.reference}`, reference: body.reference, amount: body.amount, successful: true}, amount: body.amount, currency: 'AUD'})
  for (const body of entries.declined ?? []) await earlier.result({result: body.reference, status: 'declined', exit_code: 3, record: {reference: body.reference, amount: body.amount, successful: false}, amount: body.amount, currency: 'AUD'})
  for (const body of entries.refused ?? []) await earlier.result({result: body.reference, status: 'rejected', exit_code: 7, error: {messages: ['Card token is invalid']}})
  for (const body of entries.failed ?? []) await earlier.result({result: body.reference, status: 'failed', exit_code: 1, error: {messages: ['No answer']}})
  await earlier.close()
  return earlier.path
}

describe('an input edited after an earlier run', () => {
  it('resumes the rows unchanged, refuses the changed ones it sent (answered or in doubt) without sending or looking them up, and sends the rest', async () => {
    const path = await earlierRun({
      answered: [{reference: 'same', amount: 100}, {reference: 'changed-answered', amount: 200}],
      failed: [{reference: 'changed-failed', amount: 300}],
      inDoubt: [{reference: 'changed-in-doubt', amount: 400}],
    })
    const journal = await journalAt(path)
    const g = gateway()
    const {reports, end} = await run(
      [
        {reference: 'same', amount: 100},
        {reference: 'changed-answered', amount: 250},
        {reference: 'changed-failed', amount: 350},
        {reference: 'changed-in-doubt'},
        {reference: 'new', amount: 500},
      ],
      g.sender,
      journal,
    )
    await journal.close()
    const hint = 'A row that was sent cannot change: put the line back as it was to finish it, or give the change a reference of its own (a new row).'
    const refused = (row: number, changes: string, then: string): RowReport => ({
      row,
      line: row + 1,
      reference: ['changed-answered', 'changed-failed', 'changed-in-doubt'][row - 2],
      status: 'invalid',
      exitCode: 2,
      resumed: false,
      error: {kind: 'usage', status: null, messages: [`Line ${row + 1} was changed after an earlier run sent it (${changes}); that ${then}: it was not sent again`], request_id: null, hint},
    })
    expect(reports[0]).toMatchObject({reference: 'same', status: 'approved', exitCode: 0, resumed: true})
    expect(reports.slice(1, 4)).toEqual([refused(2, 'amount 200, now 250', 'had its answer (approved)'), refused(3, 'amount 300, now 350', 'has no answer known'), refused(4, 'amount 400, now blank', 'has no answer known')])
    expect(reports[4]).toMatchObject({reference: 'new', status: 'approved', exitCode: 0, resumed: false})
    expect(g.sent).toEqual(['new'])
    expect(g.looked).toEqual([])
    expect(end.changedLines).toEqual([3, 4, 5])
    expect(end.notStarted).toBe(0)
    // Still as the earlier run left them: the next run counts them the same.
    expect(end.journal).toEqual({answered: 3, inDoubt: 2, notStarted: 0, failedUnsent: 0})
  })

  it('journals the row as the file asked for it when the request differs (an amount looked up), and then takes it as unchanged', async () => {
    const journal = await newJournal()
    const g = gateway()
    await run([{reference: 'full'}, {reference: 'part', amount: 100}], g.sender, journal)
    await journal.close()
    expect(linesOf(journal.path).filter((line) => 'intent' in line)).toEqual([
      {intent: 'full', row: 1, line: 2, request: {reference: 'full', amount: 1000}, sent_at: expect.any(String), asked: {reference: 'full'}},
      {intent: 'part', row: 2, line: 3, request: {reference: 'part', amount: 100}, sent_at: expect.any(String)},
    ])
    const again = await journalAt(journal.path)
    const {reports, end} = await run([{reference: 'full'}, {reference: 'part', amount: 100}], g.sender, again)
    await again.close()
    expect(reports.map((r) => [r.reference, r.status, r.resumed])).toEqual([
      ['full', 'approved', true],
      ['part', 'approved', true],
    ])
    expect(end.changedLines).toEqual([])
    expect(g.sent).toEqual(['full', 'part'])
  })
})

describe('the run of the gateway that answered', () => {
  it('is journaled with each result, and left out when the gateway names none', async () => {
    const journal = await newJournal()
    const g = gateway()
    let instance: string | undefined = 'run-1'
    await run([{reference: 'r-1', amount: 100}], g.sender, journal, {gatewayInstance: () => instance})
    instance = undefined
    await run([{reference: 'r-2', amount: 100}], g.sender, journal, {gatewayInstance: () => instance})
    await journal.close()
    const results = linesOf(journal.path).filter((line) => 'result' in line)
    expect(results.map((line) => [line.result, line.gateway_instance])).toEqual([
      ['r-1', 'run-1'],
      ['r-2', undefined],
    ])
    expect(Object.keys(results[1]!)).not.toContain('gateway_instance')
  })
})

describe('--verify: the rows an earlier run did, looked up before they are reported', () => {
  const done = {
    answered: [{reference: 'found', amount: 100}, {reference: 'gone', amount: 200}, {reference: 'unreachable', amount: 300}],
    declined: [{reference: 'declined', amount: 400}],
    refused: [{reference: 'refused', amount: 500}],
  }
  const inputs = [...done.answered, ...done.declined, ...done.refused]

  it('reports a row found as the gateway has it, one the gateway lacks as missing (exit 5), and sends neither; a refusal is not looked up', async () => {
    const path = await earlierRun(done)
    const before = readFileSync(path, 'utf8')
    const journal = await journalAt(path)
    const g = gateway(
      {found: {reference: 'found', amount: 100, successful: true}, declined: {reference: 'declined', amount: 400, successful: false, message: 'Declined'}},
      {unreachable: new GatewayError('network', 'connection refused')},
    )
    const {reports, end} = await run(inputs, g.sender, journal, {verify: true})
    await journal.close()
    expect(reports.map((r) => [r.reference, r.status, r.exitCode, r.resumed])).toEqual([
      ['found', 'approved', 0, true],
      ['gone', 'missing', 5, false],
      ['unreachable', 'unknown', 8, false],
      ['declined', 'declined', 3, true],
      ['refused', 'rejected', 7, true],
    ])
    expect(reports[0]!.record).toEqual({reference: 'found', amount: 100, successful: true})
    expect(reports[1]).toEqual({
      row: 2,
      line: 3,
      reference: 'gone',
      status: 'missing',
      exitCode: 5,
      resumed: false,
      error: {
        kind: 'not_found',
        status: 404,
        messages: ['The journal has this purchase approved as 071-P-gone by an earlier run, and the gateway has no purchase under reference gone: it was not sent again'],
        request_id: null,
        hint: 'Check it with gw purchase get gone; if the gateway really has none, send the row again with a journal of its own (--journal FILE).',
      },
      amount: 200,
      currency: 'AUD',
    })
    expect(g.looked.sort()).toEqual(['declined', 'found', 'gone', 'unreachable'])
    expect(g.sent).toEqual([])
    // What it found is reported, not journaled: the journal is as the earlier run left it.
    expect(readFileSync(path, 'utf8')).toBe(before)
    expect(end.journal).toEqual({answered: 5, inDoubt: 0, notStarted: 0, failedUnsent: 0})
  })

  it('names no record id the journal does not have', async () => {
    const earlier = await newJournal()
    await earlier.intent({intent: 'gone', row: 1, line: 2, request: {reference: 'gone', amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await earlier.result({result: 'gone', status: 'declined', exit_code: 3})
    await earlier.close()
    const journal = await journalAt(earlier.path)
    const {reports} = await run([{reference: 'gone', amount: 100}], gateway().sender, journal, {verify: true})
    await journal.close()
    expect(reports[0]!.error!.messages).toEqual(['The journal has this purchase declined by an earlier run, and the gateway has no purchase under reference gone: it was not sent again'])
    expect(reports[0]).toMatchObject({amount: undefined, currency: undefined})
  })

  it("a look-up that fails outright (credentials refused) is that row's failure, and stops the batch", async () => {
    const journal = await journalAt(await earlierRun(done))
    const g = gateway()
    const refused = {...g.sender, findEarlier: () => Promise.reject(new AuthError('Incorrect Username or Token', {status: 401}))}
    const {reports, end} = await run(inputs, refused, journal, {verify: true})
    await journal.close()
    expect(reports[0]).toMatchObject({reference: 'found', status: 'failed', exitCode: 4, resumed: false, amount: 100, currency: 'AUD'})
    expect(reports[0]!.error).toMatchObject({kind: 'auth', messages: ['Incorrect Username or Token']})
    expect(end.stoppedByError).toBeInstanceOf(AuthError)
    expect(g.sent).toEqual([])
  })

  it('looks nothing up without --verify', async () => {
    const journal = await journalAt(await earlierRun(done))
    const g = gateway()
    const {reports} = await run(inputs, g.sender, journal)
    await journal.close()
    expect(reports.every((r) => r.resumed)).toBe(true)
    expect(g.looked).toEqual([])
  })

  it('starts no look-up once stopped: the rows left are not started, and say nothing', async () => {
    const journal = await journalAt(await earlierRun(done))
    const g = gateway({found: {reference: 'found', amount: 100, successful: true}})
    const reports: RowReport[] = []
    const runner: BatchRunner<Input, Body> = new BatchRunner({
      rows: rows(inputs),
      total: inputs.length,
      sender: {...g.sender, findEarlier: (body: Body) => (runner.stop('SIGINT'), g.sender.findEarlier(body))},
      journal,
      concurrency: 1,
      verify: true,
      onRow: (report) => reports.push(report),
    })
    const end = await runner.run()
    await journal.close()
    expect(reports.map((r) => [r.reference, r.status])).toEqual([['found', 'approved']])
    expect(g.looked).toEqual(['found'])
    expect(end.notStarted).toBe(4)
    expect(end.stoppedBy).toBe('SIGINT')
  })
})
