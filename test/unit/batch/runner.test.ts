import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {Journal, journalState} from '../../../src/batch/journal.js'
import {BatchRunner, type RowReport, type RowSender} from '../../../src/batch/runner.js'
import {AuthError, GatewayError, GwError, ModeMismatchError, NotFoundError, RejectedError} from '../../../src/errors.js'
import {findEarlier, type MoneyRequest, sendOnce} from '../../../src/operations/money.js'

type Body = {reference: string; amount: number}

/** Rows as a batch reads them, one at a time. */
async function* rows(references: string[]) {
  for (const [i, reference] of references.entries()) yield {row: i + 1, line: i + 2, reference, input: {reference, amount: 100}}
}

const journalAt = (file: string) => Journal.open(file, {command: 'refund create', input: {sha256: 'h'}, now: new Date(), target: {base_url: 'http://127.0.0.1:8787', username: 'TEST'}})
const journal = () => journalAt(join(mkdtempSync(join(tmpdir(), 'gw-runner-')), 'j.ndjson'))

/**
 * A sender over a pretend gateway, decided by the real money module: `records` is what it holds by
 * reference, `fail` what a send (or `lookup:REF`, a look-up) throws, `answers` a record a send
 * answers with instead of an approval. Sends and look-ups are recorded.
 */
function gateway(records: Record<string, Record<string, unknown>> = {}, fail: Record<string, Error> = {}, answers: Record<string, Record<string, unknown>> = {}) {
  const sent: string[] = []
  const looked: string[] = []
  let inFlight = 0
  let most = 0
  const request = (body: Body): MoneyRequest => ({
    noun: 'purchase',
    body,
    post: async () => {
      sent.push(body.reference)
      inFlight++
      most = Math.max(most, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight--
      if (fail[body.reference]) throw fail[body.reference]
      records[body.reference] = answers[body.reference] ?? {reference: body.reference, amount: body.amount, successful: true}
      return {record: records[body.reference]!, raw: {status: 200}}
    },
    lookUp: async (reference) => {
      looked.push(reference)
      if (fail[`lookup:${reference}`]) throw fail[`lookup:${reference}`]
      if (!records[reference]) throw new NotFoundError('Purchase not found', {status: 404})
      return records[reference]
    },
    lookups: {cardToken: () => Promise.reject(new Error('no cards here')), purchase: () => Promise.reject(new Error('no purchases here'))},
  })
  const sender: RowSender<Body, Body> = {
    noun: 'purchase',
    request: async (input) => input,
    asksFirst: () => false,
    send: (body) => sendOnce(request(body)),
    findEarlier: (body) => findEarlier(request(body)),
    asked: (input) => input,
    money: (body) => ({amount: body.amount, currency: 'AUD'}),
  }
  return {sender, sent, looked, most: () => most}
}

async function run(references: string[], sender: RowSender<Body, Body>, j?: Journal, concurrency = 4): Promise<RowReport[]> {
  const reports: RowReport[] = []
  const used = j ?? (await journal())
  await new BatchRunner({rows: rows(references), total: references.length, sender, journal: used, concurrency, onRow: (report) => reports.push(report)}).run()
  if (!j) await used.close()
  return reports.sort((a, b) => a.row - b.row)
}

describe('BatchRunner', () => {
  it.each([
    ['credentials refused', new AuthError('Incorrect Username or Token', {status: 401})],
    ['a gateway in the other environment', new ModeMismatchError('The gateway answers as live', {expected: 'sandbox', reported: 'live'})],
  ])('sends the first row alone, and after %s sends nothing more', async (_, error) => {
    const g = gateway({}, {'r-1': error})
    const reports = await run(['r-1', 'r-2', 'r-3', 'r-4', 'r-5'], g.sender, undefined, 4)
    expect(g.sent).toEqual(['r-1'])
    expect(reports.map((r) => r.reference)).toEqual(['r-1'])
  })

  it('sends each row once, at most `concurrency` at a time, and maps failures to statuses', async () => {
    const g = gateway(
      {},
      {'r-3': new RejectedError('Amount exceeds the refundable balance', {status: 400}), 'r-4': new GatewayError('network', 'No answer')},
      {'r-2': {reference: 'r-2', amount: 100, successful: false, message: 'Declined'}},
    )
    const reports = await run(['r-1', 'r-2', 'r-3', 'r-4', 'r-5', 'r-6'], g.sender, undefined, 3)
    expect(reports.map((r) => [r.reference, r.status, r.exitCode])).toEqual([
      ['r-1', 'approved', 0],
      ['r-2', 'declined', 3],
      ['r-3', 'rejected', 7],
      ['r-4', 'failed', 1],
      ['r-5', 'approved', 0],
      ['r-6', 'approved', 0],
    ])
    expect(g.sent.sort()).toEqual(['r-1', 'r-2', 'r-3', 'r-4', 'r-5', 'r-6'])
    expect(g.most()).toBe(3)
  })

  it('on a re-run: answered rows come from the journal, rows in doubt are looked up and sent only when the gateway has none', async () => {
    const earlier = await journal()
    await earlier.result({result: 'done', status: 'approved', exit_code: 0, record: {reference: 'done'}, amount: 100})
    for (const reference of ['found', 'missing', 'differs', 'unreachable', 'failed', 'unauthorized', 'refused']) await earlier.intent({intent: reference, row: 0, line: 0, request: {reference, amount: 100}})
    await earlier.result({result: 'failed', status: 'failed', exit_code: 1, error: {messages: ['No answer']}})
    await earlier.result({result: 'unauthorized', status: 'rejected', exit_code: 4, error: {messages: ['Incorrect Username or Token']}})
    await earlier.result({result: 'refused', status: 'rejected', exit_code: 7, error: {messages: ['Amount exceeds the refundable balance']}})
    await earlier.close()
    const j = await journalAt(earlier.path)
    const g = gateway(
      {found: {reference: 'found', amount: 100, successful: true}, differs: {reference: 'differs', amount: 999, successful: true}},
      {'lookup:unreachable': new GatewayError('network', 'connection refused')},
    )
    const reports = await run(['done', 'found', 'missing', 'differs', 'unreachable', 'failed', 'new', 'unauthorized', 'refused'], g.sender, j)
    expect(reports.map((r) => [r.reference, r.status, r.exitCode, r.resumed])).toEqual([
      ['done', 'approved', 0, true],
      ['found', 'approved', 0, true],
      ['missing', 'approved', 0, false],
      ['differs', 'rejected', 7, false],
      ['unreachable', 'unknown', 8, false],
      ['failed', 'approved', 0, false],
      ['new', 'approved', 0, false],
      ['unauthorized', 'approved', 0, false],
      ['refused', 'rejected', 7, true],
    ])
    expect(g.looked.sort()).toEqual(['differs', 'failed', 'found', 'missing', 'unauthorized', 'unreachable'])
    expect(g.sent.sort()).toEqual(['failed', 'missing', 'new', 'unauthorized'])
    expect(reports[4]!.error!.messages[0]).toBe('An earlier run sent this purchase and its answer was not recorded, and looking it up failed: connection refused')
    expect(reports[4]!.error!.hint).toBe('Do not resend it until you have checked what the gateway has: gw purchase get unreachable')
    await j.close()
  })

  it('sends a row only once its intent is on disk, however late the sync resolves', async () => {
    const g = gateway()
    const j = await journal()
    const events: string[] = []
    const write = j.intent.bind(j)
    j.intent = async (entry) => {
      await write(entry)
      await new Promise((resolve) => setTimeout(resolve, 15))
      events.push(`synced ${entry.intent}`)
    }
    const original = g.sender.send
    g.sender.send = (body) => {
      events.push(`sent ${body.reference}`)
      return original(body)
    }
    const references = Array.from({length: 12}, (_, i) => `late-${i}`)
    await run(references, g.sender, j, 4)
    for (const reference of references) {
      expect(events.indexOf(`synced ${reference}`), reference).toBeGreaterThanOrEqual(0)
      expect(events.indexOf(`synced ${reference}`), reference).toBeLessThan(events.indexOf(`sent ${reference}`))
    }
    await j.close()
  })

  it('starts no new rows once stopped, and finishes those in flight', async () => {
    const g = gateway()
    const j = await journal()
    const reports: RowReport[] = []
    const runner = new BatchRunner({
      rows: rows(Array.from({length: 30}, (_, i) => `row-${i}`)),
      total: 30,
      sender: g.sender,
      journal: j,
      concurrency: 2,
      onRow: (report) => {
        reports.push(report)
        runner.stop('SIGINT')
      },
    })
    const end = await runner.run()
    // What was sent is reported and journaled; nothing else was sent.
    expect(end.stoppedBy).toBe('SIGINT')
    expect(reports.length).toBeGreaterThanOrEqual(2)
    expect(reports.length).toBeLessThan(30)
    expect(end.notStarted).toBe(30 - reports.length)
    expect(g.sent.sort()).toEqual(reports.map((r) => r.reference).sort())
    expect(reports.every((r) => r.status === 'approved')).toBe(true)
    // The rows journaled ahead but never sent are withdrawn: the journal holds what the run says.
    expect(end.journal).toEqual({answered: reports.length, inDoubt: 0, notStarted: 30 - reports.length, failedUnsent: 0})
    await j.close()
    const reopened = await journalAt(j.path)
    expect(reopened.results.size).toBe(reports.length)
    expect(journalState(reopened, 30)).toEqual({answered: reports.length, inDoubt: 0, notStarted: 30 - reports.length})
    await reopened.close()
  })

  it('stopped with rows in doubt: the run and the next one count answered, in doubt and not started alike', async () => {
    // row-0 was answered by an earlier run, row-a and row-d left in doubt by it; this run fails to
    // look row-a up and stops there; row-c fails before anything is sent; row-b is journaled but
    // not sent; row-d is not looked up; row-e and row-f are never read.
    const earlier = await journal()
    await earlier.intent({intent: 'row-0', row: 1, line: 2, request: {reference: 'row-0', amount: 100}})
    await earlier.result({result: 'row-0', status: 'approved', exit_code: 0, record: {reference: 'row-0'}, amount: 100})
    for (const [reference, row] of [['row-a', 2], ['row-d', 5]] as const) await earlier.intent({intent: reference, row, line: row + 1, request: {reference, amount: 100}})
    await earlier.close()
    const j = await journalAt(earlier.path)
    const g = gateway()
    const sender: RowSender<Body, Body> = {
      ...g.sender,
      request: async (input) => (input.reference === 'row-c' ? Promise.reject(new NotFoundError('Purchase not found', {status: 404})) : input),
      // row-a's look-up, the first request, fails once the rows after it are waiting for a slot.
      findEarlier: async () => {
        await new Promise((resolve) => setTimeout(resolve, 50))
        runner.stop('SIGINT')
        throw new GwError('outcome_unknown', 8, 'No answer came back')
      },
      send: () => Promise.reject(new Error('nothing is sent')),
    }
    const reports: RowReport[] = []
    const references = ['row-0', 'row-a', 'row-b', 'row-c', 'row-d', 'row-e', 'row-f']
    const runner = new BatchRunner({rows: rows(references), total: 7, sender, journal: j, concurrency: 1, onRow: (report) => reports.push(report)})
    const end = await runner.run()
    expect(reports.sort((a, b) => a.row - b.row).map((r) => [r.reference, r.status])).toEqual([
      ['row-0', 'approved'],
      ['row-a', 'unknown'],
      ['row-c', 'rejected'],
      ['row-d', 'unknown'],
    ])
    expect(reports[3]!.error!.messages).toEqual(['In doubt since an earlier run, and the batch stopped before it was looked up'])
    expect(end.notStarted).toBe(3)
    expect(end.journal).toEqual({answered: 1, inDoubt: 2, notStarted: 4, failedUnsent: 1})
    await j.close()
    const reopened = await journalAt(j.path)
    expect(journalState(reopened, 7)).toEqual({answered: 1, inDoubt: 2, notStarted: 4})
    await reopened.close()
  })
})
