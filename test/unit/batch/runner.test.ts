import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {Journal} from '../../../src/batch/journal.js'
import {journalState} from '../../../src/batch/journal-state.js'
import {invalidReport, type RowReport} from '../../../src/batch/row-reports.js'
import type {RowSender} from '../../../src/batch/kinds.js'
import {BatchRunner} from '../../../src/batch/runner.js'
import {AuthError, GatewayError, GwError, InterruptedError, ModeMismatchError, NotFoundError, OutcomeUnknownError, RejectedError, WriteError} from '../../../src/errors.js'
import {findEarlier, type MoneyRequest, sendOnce} from '../../../src/operations/money.js'
import {journalText} from '../../journal-text.js'

type Body = {reference: string; amount: number}

/** Rows as a batch reads them, one at a time. */
async function* rows(references: string[]) {
  for (const [i, reference] of references.entries()) yield {row: i + 1, line: i + 2, reference, input: {reference, amount: 100}}
}

/** Every journal a test opens, closed after it: Node 26 makes a file handle left to the garbage collector an error. */
const opened: Journal[] = []
const journalAt = async (file: string) => {
  const made = await Journal.open(file, {command: 'refund create', input: {sha256: 'a'}, now: new Date(), target: {base_url: 'http://127.0.0.1:8787', username: 'TEST'}})
  opened.push(made)
  return made
}
const journal = () => journalAt(join(mkdtempSync(join(tmpdir(), 'gw-runner-')), 'j.ndjson'))

afterEach(async () => {
  // One closed by the test already is closed again harmlessly, or its second close refused: either way it is closed.
  await Promise.all(opened.splice(0).map((each) => each.close().catch(() => {})))
})

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
  return {sender, sent, looked, records, most: () => most}
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
    for (const reference of ['found', 'missing', 'differs', 'unreachable', 'failed', 'unauthorized', 'refused']) await earlier.intent({intent: reference, row: 0, line: 0, request: {reference, amount: 100}, sent_at: LONG_SENT})
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

  it('starts no row while the output is behind (ready holds it), and a stop ends that wait', async () => {
    const g = gateway()
    const j = await journal()
    let calls = 0
    let reported = 0
    const runner: BatchRunner<Body, Body> = new BatchRunner({
      rows: rows(Array.from({length: 30}, (_, i) => `held-${i}`)),
      total: 30,
      sender: g.sender,
      journal: j,
      concurrency: 1,
      // The output takes three rows' lines, then falls behind for good.
      ready: (stop) => (++calls <= 3 || stop.aborted ? Promise.resolve() : new Promise((resolve) => stop.addEventListener('abort', () => resolve()))),
      onRow: () => {
        if (++reported === 3) runner.stop('SIGINT')
      },
    })
    const end = await runner.run()
    expect(g.sent).toEqual(['held-0', 'held-1', 'held-2'])
    expect(end.notStarted).toBe(27)
    expect(end.stoppedBy).toBe('SIGINT')
    await j.close()
  })

  it('stopped with rows in doubt: the run and the next one count answered, in doubt and not started alike', async () => {
    // row-0 was answered by an earlier run, row-a and row-d left in doubt by it; this run fails to
    // look row-a up and stops there; row-c fails before anything is sent; row-b is journaled but
    // not sent; row-d is not looked up; row-e and row-f are never read.
    const earlier = await journal()
    await earlier.intent({intent: 'row-0', row: 1, line: 2, request: {reference: 'row-0', amount: 100}, sent_at: LONG_SENT})
    await earlier.result({result: 'row-0', status: 'approved', exit_code: 0, record: {reference: 'row-0'}, amount: 100})
    for (const [reference, row] of [['row-a', 2], ['row-d', 5]] as const) await earlier.intent({intent: reference, row, line: row + 1, request: {reference, amount: 100}, sent_at: LONG_SENT})
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

/** A wall clock that moves only when told to, or by the pauses the runner asks for (`onSleep` may act at each). */
function fakeClock(start: number, onSleep: (ms: number, stop?: AbortSignal) => void | Promise<void> = () => {}) {
  let now = start
  const slept: number[] = []
  return {
    now: () => now,
    sleep: async (ms: number, stop?: AbortSignal) => {
      slept.push(ms)
      await onSleep(ms, stop)
      now += ms
    },
    advance: (ms: number) => void (now += ms),
    slept,
  }
}

const T0 = Date.parse('2026-11-17T10:00:00Z')

/** Long before any window these tests' clocks (T0, or now) are in. */
const LONG_SENT = '2026-01-01T00:00:00.000Z'

/** A journal whose earlier run left `reference` in doubt, its request sent at `sentAt` (by default long before). */
async function inDoubtSince(reference: string, sentAt = Date.parse(LONG_SENT)): Promise<Journal> {
  const earlier = await journal()
  await earlier.intent({intent: reference, row: 1, line: 2, request: {reference, amount: 100}, sent_at: new Date(sentAt).toISOString()})
  await earlier.close()
  return journalAt(earlier.path)
}

/** The intents a journal file holds for a reference, in order. */
function intentsOf(path: string, reference: string): {sent_at?: string}[] {
  return journalText(path)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as {intent?: string; sent_at?: string})
    .filter((entry) => entry.intent === reference)
}

describe('a row in doubt whose earlier request the gateway may still be processing (design.md §5)', () => {
  it('a 404 inside the window is "not yet": looked up again every 5 s until the record shows, never sent again', async () => {
    const j = await inDoubtSince('slow', T0)
    const g = gateway()
    // The earlier request's record appears as the gateway finishes it, during the second pause.
    const clock = fakeClock(T0 + 10_000, () => {
      if (clock.slept.length === 2) g.records.slow = {reference: 'slow', amount: 100, successful: true}
    })
    const waits: unknown[] = []
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(['slow']), total: 1, sender: g.sender, journal: j, concurrency: 4, clock, onRow: (r) => reports.push(r), onWaiting: (row, waiting) => waits.push([row, waiting])}).run()
    expect(reports.map((r) => [r.reference, r.status, r.exitCode, r.resumed])).toEqual([['slow', 'approved', 0, true]])
    expect(g.sent).toEqual([])
    expect(g.looked).toEqual(['slow', 'slow', 'slow'])
    expect(clock.slept).toEqual([5_000, 5_000])
    expect(waits).toEqual([
      [{row: 1, reference: 'slow'}, {since: T0 + 10_000, endsAt: T0 + 60_000}],
      [{row: 1, reference: 'slow'}, undefined],
    ])
    expect(end.journal).toEqual({answered: 1, inDoubt: 0, notStarted: 0, failedUnsent: 0})
    await j.close()
  })

  it('404s until the window is over (its own clock): 48 s of pauses, then sent once, its intent journaled at the time it left', async () => {
    const j = await inDoubtSince('never', T0)
    const g = gateway()
    const clock = fakeClock(T0 + 12_000)
    const reports: RowReport[] = []
    await new BatchRunner({rows: rows(['never']), total: 1, sender: g.sender, journal: j, concurrency: 4, clock, onRow: (r) => reports.push(r)}).run()
    expect(reports.map((r) => [r.reference, r.status, r.resumed])).toEqual([['never', 'approved', false]])
    expect(clock.slept).toEqual([...Array(9).fill(5_000), 3_000])
    expect(g.looked).toEqual(Array(11).fill('never'))
    expect(g.sent).toEqual(['never'])
    await j.close()
    expect(intentsOf(j.path, 'never').map((intent) => intent.sent_at)).toEqual([new Date(T0).toISOString(), new Date(T0 + 60_000).toISOString()])
  })

  it('a shorter window (gw\'s own tests) is the one waited', async () => {
    const j = await inDoubtSince('short', T0)
    const g = gateway()
    const clock = fakeClock(T0)
    await new BatchRunner({rows: rows(['short']), total: 1, sender: g.sender, journal: j, concurrency: 4, clock, windowMs: 2_000, onRow: () => {}}).run()
    expect(clock.slept).toEqual([2_000])
    expect(g.sent).toEqual(['short'])
    await j.close()
  })

  it('an intent older than the window: a 404 sends it at once', async () => {
    const j = await inDoubtSince('old', T0 - 60_000)
    const g = gateway()
    const clock = fakeClock(T0)
    const waits: unknown[] = []
    await new BatchRunner({rows: rows(['old']), total: 1, sender: g.sender, journal: j, concurrency: 4, clock, onRow: () => {}, onWaiting: (...args) => waits.push(args)}).run()
    expect(g.looked).toEqual(['old'])
    expect(g.sent).toEqual(['old'])
    expect(clock.slept).toEqual([])
    expect(waits).toEqual([])
    await j.close()
  })

  it('an intent whose time cannot be read counts as just sent: the whole window is waited', async () => {
    const earlier = await journal()
    await earlier.intent({intent: 'edited', row: 1, line: 2, request: {reference: 'edited', amount: 100}, sent_at: 'yesterday-ish'})
    await earlier.close()
    const j = await journalAt(earlier.path)
    const g = gateway()
    const clock = fakeClock(T0)
    await new BatchRunner({rows: rows(['edited']), total: 1, sender: g.sender, journal: j, concurrency: 4, clock, onRow: () => {}}).run()
    expect(clock.slept).toEqual(Array(12).fill(5_000))
    expect(g.sent).toEqual(['edited'])
    await j.close()
  })

  it('Ctrl-C while it waits: the wait ends at once, nothing is sent, and the row is reported still in doubt', async () => {
    const j = await inDoubtSince('waiting', T0)
    const g = gateway()
    const clock = fakeClock(T0 + 1_000, () => runner.stop('SIGINT'))
    const reports: RowReport[] = []
    const runner = new BatchRunner({rows: rows(['waiting', 'next']), total: 2, sender: g.sender, journal: j, concurrency: 1, clock, onRow: (r) => reports.push(r)})
    const end = await runner.run()
    expect(reports).toEqual([
      {
        row: 1,
        line: 2,
        reference: 'waiting',
        status: 'unknown',
        exitCode: 8,
        resumed: false,
        error: {kind: 'outcome_unknown', status: null, messages: ['In doubt since an earlier run, and the gateway did not have it yet when the batch stopped, inside its processing window'], request_id: null},
        amount: 100,
        currency: 'AUD',
      },
    ])
    expect(g.looked).toEqual(['waiting'])
    expect(g.sent).toEqual([])
    expect(end).toMatchObject({stoppedBy: 'SIGINT', journal: {answered: 0, inDoubt: 1}})
    await j.close()
  })

  it('a batch stopped by an error while a row waits (credentials refused): the wait ends with it', async () => {
    const j = await inDoubtSince('waiting', T0)
    const g = gateway({}, {next: new AuthError('Incorrect Username or Token', {status: 401})})
    // A pause that only a stop ends.
    const clock = fakeClock(T0, (_, stop) => new Promise<void>((resolve) => (stop?.aborted ? resolve() : stop?.addEventListener('abort', () => resolve()))))
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(['waiting', 'next']), total: 2, sender: g.sender, journal: j, concurrency: 2, clock, onRow: (r) => reports.push(r)}).run()
    expect(reports.sort((a, b) => a.row - b.row).map((r) => [r.reference, r.status])).toEqual([
      ['waiting', 'unknown'],
      ['next', 'failed'],
    ])
    expect(end.stoppedByError).toBeInstanceOf(AuthError)
    expect(g.sent).toEqual(['next'])
    await j.close()
  })
})

/** Has `j` write each row's first intent, and refuse any later one with ENOSPC: the error it refuses with. */
function intentWrittenOnce(j: Journal): WriteError {
  const full = new WriteError('The batch journal cannot be written (ENOSPC)', new Error('ENOSPC'))
  const write = j.intent.bind(j)
  j.intent = (entry) => (intentsOf(j.path, entry.intent).length > 0 ? Promise.reject(full) : write(entry))
  return full
}

describe('the time an intent records', () => {
  it('is when the row leaves: one that waited over 5 s for its slot is journaled again first; one that did not, once', async () => {
    const j = await journal()
    const g = gateway()
    const clock = fakeClock(T0)
    // Each request takes the gateway 6 s, while the rows behind it wait with their intents synced.
    const send = g.sender.send
    const sender: RowSender<Body, Body> = {...g.sender, send: async (body) => (clock.advance(6_000), send(body))}
    await new BatchRunner({rows: rows(['first', 'second', 'third']), total: 3, sender, journal: j, concurrency: 1, clock, onRow: () => {}}).run()
    await j.close()
    expect(intentsOf(j.path, 'first').map((intent) => intent.sent_at)).toEqual([new Date(T0).toISOString()])
    expect(intentsOf(j.path, 'second').map((intent) => intent.sent_at)).toEqual([new Date(T0).toISOString(), new Date(T0 + 6_000).toISOString()])
    expect(intentsOf(j.path, 'third').map((intent) => intent.sent_at)).toEqual([new Date(T0).toISOString(), new Date(T0 + 12_000).toISOString()])
    expect(g.sent).toEqual(['first', 'second', 'third'])
  })

  it('waited exactly 5 s: still fresh, not journaled again', async () => {
    const j = await journal()
    const g = gateway()
    const clock = fakeClock(T0)
    const send = g.sender.send
    const sender: RowSender<Body, Body> = {...g.sender, send: async (body) => (clock.advance(5_000), send(body))}
    await new BatchRunner({rows: rows(['first', 'second']), total: 2, sender, journal: j, concurrency: 1, clock, onRow: () => {}}).run()
    await j.close()
    expect(intentsOf(j.path, 'second')).toHaveLength(1)
  })

  it('a fresh intent that cannot be written: the row is not sent, the batch stops with the journal error', async () => {
    const j = await journal()
    const g = gateway()
    const clock = fakeClock(T0)
    const send = g.sender.send
    const sender: RowSender<Body, Body> = {...g.sender, send: async (body) => (clock.advance(6_000), send(body))}
    const write = j.intent.bind(j)
    const full = new WriteError('The batch journal cannot be written (ENOSPC)', new Error('ENOSPC'))
    j.intent = (entry) => (intentsOf(j.path, entry.intent).length > 0 ? Promise.reject(full) : write(entry))
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(['first', 'second']), total: 2, sender, journal: j, concurrency: 1, clock, onRow: (r) => reports.push(r)}).run()
    expect(g.sent).toEqual(['first'])
    expect(reports.sort((a, b) => a.row - b.row).map((r) => [r.reference, r.status, r.error?.messages])).toEqual([
      ['first', 'approved', undefined],
      ['second', 'failed', ['The batch journal cannot be written (ENOSPC)']],
    ])
    expect(end.stoppedByError).toBe(full)
    // Never sent, so taken back: the next run sends it at once, with no wait through the processing window.
    expect(end.journal).toEqual({answered: 1, inDoubt: 0, notStarted: 1, failedUnsent: 1})
    await j.close()
    expect(journalState(await journalAt(j.path), 2)).toEqual({answered: 1, inDoubt: 0, notStarted: 1})
  })

  it("rate limited for 1 s by the runner's clock, then sent again: its intent is still fresh, journaled once", async () => {
    const j = await journal()
    const g = gateway()
    const clock = fakeClock(T0)
    // As the client does for a purchase answered 429 with a wait of 1 s: the row's slot checks its intent's age first.
    const sender: RowSender<Body, Body> = {...g.sender, send: async (body) => (clock.advance(1_000), await runner.gateway.resending('brief'), g.sender.send(body))}
    const reports: RowReport[] = []
    const runner = new BatchRunner({rows: rows(['brief']), total: 1, sender, journal: j, concurrency: 1, clock, onRow: (r) => reports.push(r)})
    await runner.run()
    await j.close()
    expect(reports.map((r) => [r.reference, r.status])).toEqual([['brief', 'approved']])
    expect(intentsOf(j.path, 'brief').map((intent) => intent.sent_at)).toEqual([new Date(T0).toISOString()])
  })

  it('rate limited, then not journaled again before it goes again: taken back, as the gateway processed none of its tries', async () => {
    const j = await journal()
    const g = gateway()
    const clock = fakeClock(T0)
    const full = intentWrittenOnce(j)
    // As the client does for a purchase answered 429: it waits 6 s, then has the row journaled again before it goes again.
    const sender: RowSender<Body, Body> = {...g.sender, send: async () => (clock.advance(6_000), await runner.gateway.resending('limited'), Promise.reject(new Error('sent again')))}
    const reports: RowReport[] = []
    const runner = new BatchRunner({rows: rows(['limited']), total: 1, sender, journal: j, concurrency: 1, clock, onRow: (r) => reports.push(r)})
    const end = await runner.run()
    expect(reports.map((r) => [r.reference, r.status, r.error?.messages])).toEqual([['limited', 'failed', ['The batch journal cannot be written (ENOSPC)']]])
    expect(end).toMatchObject({stoppedByError: full, journal: {answered: 0, inDoubt: 0, notStarted: 1, failedUnsent: 1}})
    await j.close()
  })

  it('a wait for the gateway while a row is at it, with no one to tell of it: the row goes on as sent', async () => {
    const j = await journal()
    const g = gateway()
    const sender: RowSender<Body, Body> = {...g.sender, send: async (body, options) => (options?.onWait?.({since: T0, endsAt: T0 + 1_000}), options?.onWait?.(undefined), g.sender.send(body))}
    const reports: RowReport[] = []
    await new BatchRunner({rows: rows(['waited']), total: 1, sender, journal: j, concurrency: 1, onRow: (r) => reports.push(r)}).run()
    expect(reports.map((r) => [r.reference, r.status])).toEqual([['waited', 'approved']])
    await j.close()
  })

  it('not journaled again, and its withdrawal not written either: in doubt, as the file holds its intent', async () => {
    const j = await journal()
    const g = gateway()
    const clock = fakeClock(T0)
    const full = intentWrittenOnce(j)
    j.withdraw = () => Promise.reject(full)
    const sender: RowSender<Body, Body> = {...g.sender, send: async (body) => (clock.advance(6_000), g.sender.send(body))}
    const end = await new BatchRunner({rows: rows(['first', 'second']), total: 2, sender, journal: j, concurrency: 1, clock, onRow: () => {}}).run()
    expect(g.sent).toEqual(['first'])
    expect(end.journal).toEqual({answered: 1, inDoubt: 1, notStarted: 0, failedUnsent: 0})
    await j.close()
  })
})

describe('answers lost in a row', () => {
  it.each([
    [1, 8],
    [3, 10],
  ])('--concurrency %i: no row starts once the 8th is lost; %i sent at most', async (concurrency, most) => {
    const references = Array.from({length: 30}, (_, i) => `lost-${i}`)
    const lost = Object.fromEntries(references.map((reference) => [reference, new OutcomeUnknownError('No answer came back', {noun: 'purchase', reference})]))
    const g = gateway({}, {...lost, ...Object.fromEntries(references.map((reference) => [`lookup:${reference}`, new GatewayError('network', 'No answer')]))})
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(references), total: 30, sender: g.sender, journal: await journal(), concurrency, onRow: (r) => reports.push(r)}).run()
    if (concurrency === 1) expect(g.sent).toHaveLength(8)
    expect(g.sent.length).toBeLessThanOrEqual(most)
    expect(reports).toHaveLength(g.sent.length)
    expect(reports.every((r) => r.status === 'unknown' && r.exitCode === 8)).toBe(true)
    expect(end.stoppedByError).toMatchObject({
      kind: 'outcome_unknown',
      exitCode: 8,
      message: 'The answers to the last 8 purchases were lost: the gateway looks unreachable, and no more rows were started',
      hint: 'Check that the gateway can be reached, then run the same command again: it looks the rows in doubt up before sending anything.',
    })
    expect(end.notStarted).toBe(30 - g.sent.length)
    expect(end.journal).toEqual({answered: 0, inDoubt: g.sent.length, notStarted: 30 - g.sent.length, failedUnsent: 0})
  })

  it('an answer between lost ones starts the count again', async () => {
    const references = Array.from({length: 12}, (_, i) => `r-${i}`)
    const lost = Object.fromEntries(references.filter((_, i) => i !== 5).map((reference) => [reference, new OutcomeUnknownError('No answer came back', {noun: 'purchase', reference})]))
    const g = gateway({}, lost)
    const end = await new BatchRunner({rows: rows(references), total: 12, sender: g.sender, journal: await journal(), concurrency: 1, onRow: () => {}}).run()
    expect(g.sent).toEqual(references)
    expect(end.stoppedByError).toBeUndefined()
  })
})

/** The results a journal file holds, in order. */
function resultsOf(path: string): Record<string, unknown>[] {
  return journalText(path)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => typeof entry.result === 'string')
}

describe('what a row reports, and what its journal keeps', () => {
  it('each outcome: the record, the error, or both; the journal keeps what became of the money', async () => {
    const declinedRecord = {reference: 'declined', amount: 100, successful: false, message: 'Insufficient Funds'}
    const wrong = new ModeMismatchError('The gateway answered in live mode', {expected: 'sandbox', reported: 'live', inFlight: {noun: 'purchase', reference: 'wrong'}}, {status: 200, requestId: 'req-live'})
    const g = gateway(
      {},
      {lost: new OutcomeUnknownError('No answer came back', {noun: 'purchase', reference: 'lost'}), odd: new Error('boom'), thrown: 'plain text' as unknown as Error, stopped: new InterruptedError('SIGTERM')},
      {declined: declinedRecord},
    )
    const sender: RowSender<Body, Body> = {
      ...g.sender,
      send: async (body) => {
        if (body.reference !== 'wrong') return g.sender.send(body)
        const record = {reference: 'wrong', amount: 100, successful: true}
        return {body, decided: {outcome: 'approved', noun: 'purchase', record, source: 'answer'}, failure: wrong, wrongGateway: wrong}
      },
    }
    const j = await journal()
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(['approved', 'declined', 'lost', 'odd', 'thrown', 'stopped', 'wrong']), total: 7, sender, journal: j, concurrency: 1, onRow: (r) => reports.push(r)}).run()
    await j.close()
    const byReference = Object.fromEntries(reports.map((r) => [r.reference, r]))
    expect(byReference.approved).toEqual({row: 1, line: 2, reference: 'approved', status: 'approved', exitCode: 0, resumed: false, record: {reference: 'approved', amount: 100, successful: true}, amount: 100, currency: 'AUD'})
    expect(byReference.declined).toEqual({row: 2, line: 3, reference: 'declined', status: 'declined', exitCode: 3, resumed: false, record: declinedRecord, amount: 100, currency: 'AUD'})
    expect(byReference.lost).toMatchObject({status: 'unknown', exitCode: 8, resumed: false, error: {kind: 'outcome_unknown', status: null, messages: ['No answer came back'], request_id: null}})
    expect(byReference.lost!.record).toBeUndefined()
    expect(byReference.odd).toMatchObject({status: 'failed', exitCode: 1, resumed: false, error: {kind: 'unexpected', messages: ['Unexpected failure: boom']}})
    expect(byReference.thrown).toMatchObject({status: 'failed', exitCode: 1, error: {kind: 'unexpected', messages: ['Unexpected failure: plain text']}})
    expect(byReference.stopped).toMatchObject({status: 'unknown', exitCode: 8, error: {kind: 'interrupted'}})
    expect(byReference.wrong).toMatchObject({status: 'approved', exitCode: 6, record: {reference: 'wrong', successful: true}, error: {kind: 'permission', status: 200, request_id: 'req-live'}})
    // The wrong gateway's answer stops the batch, with its own words.
    expect(end.stoppedByError).toBeInstanceOf(ModeMismatchError)
    expect(end.stoppedByError).toMatchObject({message: 'The gateway answered in live mode', expected: 'sandbox', reported: 'live', status: 200, requestId: 'req-live'})
    expect(resultsOf(j.path).map((r) => [r.result, r.status, r.exit_code, 'record' in r, 'error' in r])).toEqual([
      ['approved', 'approved', 0, true, false],
      ['declined', 'declined', 3, true, false],
      ['lost', 'unknown', 8, false, true],
      ['odd', 'failed', 1, false, true],
      ['thrown', 'failed', 1, false, true],
      ['stopped', 'unknown', 8, false, true],
      // Approved, at the wrong gateway: the money moved, whatever this run exits with.
      ['wrong', 'approved', 0, true, false],
    ])
    expect(end.journal).toEqual({answered: 3, inDoubt: 4, notStarted: 0, failedUnsent: 0})
  })

  it('a declined answer from the wrong gateway is journaled as declined (3), reported with both', async () => {
    const wrong = new ModeMismatchError('The gateway answered in live mode', {expected: 'sandbox', reported: 'live'})
    const record = {reference: 'wrong', amount: 100, successful: false, message: 'Declined'}
    const g = gateway()
    const sender: RowSender<Body, Body> = {...g.sender, send: async (body) => ({body, decided: {outcome: 'declined', noun: 'purchase', record, source: 'answer', reason: 'Declined'}, failure: wrong, wrongGateway: wrong})}
    const j = await journal()
    const reports: RowReport[] = []
    await new BatchRunner({rows: rows(['wrong']), total: 1, sender, journal: j, concurrency: 1, onRow: (r) => reports.push(r)}).run()
    await j.close()
    expect(reports).toMatchObject([{status: 'declined', exitCode: 6, record, error: {kind: 'permission'}}])
    expect(resultsOf(j.path)).toMatchObject([{result: 'wrong', status: 'declined', exit_code: 3}])
  })

  it('a reference taken by another transaction is rejected (7) with no record of its own', async () => {
    const holder = {reference: 'taken', amount: 999, successful: true, id: '071-P-OTHER'}
    const g = gateway({taken: holder}, {taken: new RejectedError('Reference is already taken', {status: 200})})
    const reports: RowReport[] = []
    const j = await journal()
    await new BatchRunner({rows: rows(['taken']), total: 1, sender: g.sender, journal: j, concurrency: 1, onRow: (r) => reports.push(r)}).run()
    await j.close()
    expect(reports).toEqual([
      {
        row: 1,
        line: 2,
        reference: 'taken',
        status: 'rejected',
        exitCode: 7,
        resumed: false,
        error: {
          kind: 'rejected',
          status: null,
          messages: ['Reference taken is already taken by another purchase 071-P-OTHER: amount: sent 100, found 999. The gateway refused this request under it: nothing was made.'],
          request_id: null,
          hint: 'Give this purchase a reference of its own, or check the earlier one: gw purchase get taken',
        },
        amount: 100,
        currency: 'AUD',
      },
    ])
    expect(resultsOf(j.path)).toMatchObject([{result: 'taken', status: 'rejected', exit_code: 7}])
  })

  it('a result that cannot be journaled: the row is still reported, stays in doubt, and the batch stops with the error', async () => {
    const g = gateway()
    const j = await journal()
    const full = new WriteError('The batch journal cannot be written (ENOSPC)', new Error('ENOSPC'))
    j.result = () => Promise.reject(full)
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(['first', 'second', 'third']), total: 3, sender: g.sender, journal: j, concurrency: 1, onRow: (r) => reports.push(r)}).run()
    // The first, and any sent beside it before its result failed, are reported; none is answered in the journal.
    expect(reports.length).toBeGreaterThanOrEqual(1)
    expect(reports.every((r) => r.status === 'approved')).toBe(true)
    expect(reports.map((r) => r.reference).sort()).toEqual(g.sent.sort())
    expect(end.stoppedByError).toBe(full)
    expect(end.journal).toEqual({answered: 0, inDoubt: reports.length, notStarted: 3 - reports.length, failedUnsent: 0})
    await j.close()
  })
})

describe('rows the journal holds, as each run counts them', () => {
  it('a row in doubt sent again (nothing at the gateway after the window) moves from in doubt to answered', async () => {
    const j = await inDoubtSince('old')
    const g = gateway()
    const end = await new BatchRunner({rows: rows(['old']), total: 1, sender: g.sender, journal: j, concurrency: 1, onRow: () => {}}).run()
    expect(end.journal).toEqual({answered: 1, inDoubt: 0, notStarted: 0, failedUnsent: 0})
    await j.close()
  })

  it('a new row whose intent cannot be written is reported failed and sent by no one: not started, as the journal has it', async () => {
    const g = gateway()
    const j = await journal()
    const full = new WriteError('The batch journal cannot be written (ENOSPC)', new Error('ENOSPC'))
    j.intent = () => Promise.reject(full)
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(['unwritten']), total: 1, sender: g.sender, journal: j, concurrency: 1, onRow: (r) => reports.push(r)}).run()
    expect(reports).toMatchObject([{reference: 'unwritten', status: 'failed', exitCode: 1, error: {kind: 'io', messages: ['The batch journal cannot be written (ENOSPC)']}}])
    expect(g.sent).toEqual([])
    expect(end).toMatchObject({stoppedByError: full, notStarted: 0, journal: {answered: 0, inDoubt: 0, notStarted: 1, failedUnsent: 1}})
    await j.close()
  })

  it('a row in doubt (the gateway has nothing once the window is over) whose new intent cannot be written is withdrawn: not started, as the journal then has it', async () => {
    const j = await inDoubtSince('old')
    const g = gateway()
    const full = new WriteError('The batch journal cannot be written (ENOSPC)', new Error('ENOSPC'))
    j.intent = () => Promise.reject(full)
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(['old']), total: 1, sender: g.sender, journal: j, concurrency: 1, onRow: (r) => reports.push(r)}).run()
    expect(reports.map((r) => [r.reference, r.status])).toEqual([['old', 'failed']])
    expect(g.sent).toEqual([])
    expect(end.journal).toEqual({answered: 0, inDoubt: 0, notStarted: 1, failedUnsent: 1})
    await j.close()
    expect(journalState(await journalAt(j.path), 1)).toEqual({answered: 0, inDoubt: 0, notStarted: 1})
  })

  it('a row in doubt whose new intent and withdrawal both cannot be written stays in doubt, as the file holds its earlier intent still', async () => {
    const j = await inDoubtSince('old')
    const g = gateway()
    const full = new WriteError('The batch journal cannot be written (ENOSPC)', new Error('ENOSPC'))
    j.intent = () => Promise.reject(full)
    j.withdraw = () => Promise.reject(full)
    const end = await new BatchRunner({rows: rows(['old']), total: 1, sender: g.sender, journal: j, concurrency: 1, onRow: () => {}}).run()
    expect(g.sent).toEqual([])
    expect(end.journal).toEqual({answered: 0, inDoubt: 1, notStarted: 0, failedUnsent: 0})
    expect(end.stoppedByError).toBe(full)
    await j.close()
  })

  it('an intent whose commit failed but reached the disk all the same is withdrawn: the run and the journal both say not started, and the next run sends it at once', async () => {
    const g = gateway()
    const j = await journal()
    const write = j.intent.bind(j)
    j.intent = async (entry) => {
      await write(entry)
      throw new WriteError('The batch journal cannot be written (EIO)', new Error('EIO'))
    }
    const end = await new BatchRunner({rows: rows(['landed']), total: 1, sender: g.sender, journal: j, concurrency: 1, onRow: () => {}}).run()
    expect(g.sent).toEqual([])
    expect(end.journal).toEqual({answered: 0, inDoubt: 0, notStarted: 1, failedUnsent: 1})
    await j.close()
    const next = await journalAt(j.path)
    expect(journalState(next, 1)).toEqual({answered: 0, inDoubt: 0, notStarted: 1})
    const reports = await run(['landed'], g.sender, next)
    expect(reports.map((r) => [r.reference, r.status])).toEqual([['landed', 'approved']])
    expect(g.looked).toEqual([])
  })

  it('such an intent whose withdrawal cannot be written either is in doubt, as the file has it; one that never reached the disk is not started', async () => {
    const g = gateway()
    const j = await journal()
    const write = j.intent.bind(j)
    const eio = new WriteError('The batch journal cannot be written (EIO)', new Error('EIO'))
    j.intent = async (entry) => {
      if (entry.intent === 'landed') await write(entry)
      throw eio
    }
    j.withdraw = () => Promise.reject(eio)
    const end = await new BatchRunner({rows: rows(['landed', 'lost']), total: 2, sender: g.sender, journal: j, concurrency: 2, onRow: () => {}}).run()
    expect(g.sent).toEqual([])
    expect(end.journal).toEqual({answered: 0, inDoubt: 1, notStarted: 1, failedUnsent: 1})
    const unreadable = await journal()
    unreadable.intent = () => Promise.reject(eio)
    unreadable.withdraw = () => Promise.reject(eio)
    // A file that cannot be read back either may hold it: in doubt.
    ;(unreadable as unknown as {disk: {read: () => Promise<string[]>}}).disk.read = () => Promise.reject(new Error('EIO'))
    const unread = await new BatchRunner({rows: rows(['maybe']), total: 1, sender: g.sender, journal: unreadable, concurrency: 1, onRow: () => {}}).run()
    expect(unread.journal).toEqual({answered: 0, inDoubt: 1, notStarted: 0, failedUnsent: 0})
  })

  it('a row in doubt journaled again, then stopped before it is sent, is withdrawn: not started, as the next run counts it', async () => {
    const j = await inDoubtSince('old')
    const g = gateway()
    const write = j.intent.bind(j)
    j.intent = async (entry) => {
      await write(entry)
      runner.stop('SIGINT')
    }
    const runner = new BatchRunner({rows: rows(['old']), total: 1, sender: g.sender, journal: j, concurrency: 1, onRow: () => {}})
    const end = await runner.run()
    expect(g.sent).toEqual([])
    expect(end).toMatchObject({notStarted: 1, journal: {answered: 0, inDoubt: 0, notStarted: 1}})
    await j.close()
    const reopened = await journalAt(j.path)
    expect(journalState(reopened, 1)).toEqual({answered: 0, inDoubt: 0, notStarted: 1})
    await reopened.close()
  })

  it('a withdrawal that cannot be written leaves the row in doubt, and stops the batch with the error', async () => {
    const g = gateway()
    const j = await journal()
    const full = new WriteError('The batch journal cannot be written (ENOSPC)', new Error('ENOSPC'))
    j.withdraw = () => Promise.reject(full)
    const write = j.intent.bind(j)
    let secondJournaled!: () => void
    const second = new Promise<void>((resolve) => (secondJournaled = resolve))
    j.intent = async (entry) => {
      await write(entry)
      if (entry.intent === 'second') secondJournaled()
    }
    // Stopped once the first row is answered and the second's intent is on disk, whichever came first.
    const sender: RowSender<Body, Body> = {...g.sender, send: async (body) => {
      const answer = await g.sender.send(body)
      await second
      runner.stop('SIGTERM')
      return answer
    }}
    const runner = new BatchRunner({rows: rows(['first', 'second']), total: 2, sender, journal: j, concurrency: 1, onRow: () => {}})
    const end = await runner.run()
    expect(g.sent).toEqual(['first'])
    expect(end).toMatchObject({stoppedBy: 'SIGTERM', stoppedByError: full, journal: {answered: 1, inDoubt: 1, notStarted: 0}})
    await j.close()
  })

  it('a withdrawal of a row in doubt that cannot be written keeps it in doubt', async () => {
    const j = await inDoubtSince('old')
    const g = gateway()
    const full = new WriteError('The batch journal cannot be written (ENOSPC)', new Error('ENOSPC'))
    j.withdraw = () => Promise.reject(full)
    const write = j.intent.bind(j)
    j.intent = async (entry) => {
      await write(entry)
      runner.stop('SIGINT')
    }
    const runner = new BatchRunner({rows: rows(['old']), total: 1, sender: g.sender, journal: j, concurrency: 1, onRow: () => {}})
    const end = await runner.run()
    expect(end).toMatchObject({stoppedByError: full, journal: {answered: 0, inDoubt: 1, notStarted: 0}})
    await j.close()
  })
})

describe('a row whose request asks the gateway first (a refund in full)', () => {
  it('builds its request in a slot, and sends what it built', async () => {
    const g = gateway()
    const asked: string[] = []
    const sender: RowSender<Body, Body> = {
      ...g.sender,
      asksFirst: (input) => input.reference !== 'plain',
      request: async (input) => {
        asked.push(input.reference)
        return {...input, amount: 999}
      },
    }
    const reports: RowReport[] = []
    await new BatchRunner({rows: rows(['full', 'plain']), total: 2, sender, journal: await journal(), concurrency: 1, onRow: (r) => reports.push(r)}).run()
    expect(asked.sort()).toEqual(['full', 'plain'])
    expect(reports.sort((a, b) => a.row - b.row).map((r) => [r.reference, r.amount, r.record?.amount])).toEqual([
      ['full', 999, 999],
      ['plain', 999, 999],
    ])
  })

  it('stopped while it waits for its slot: not started, nothing asked or sent', async () => {
    const g = gateway()
    const asked: string[] = []
    const sender: RowSender<Body, Body> = {
      ...g.sender,
      asksFirst: () => true,
      // Stopped while the first asks: the others, waiting for the slot to ask, never start.
      request: async (input) => {
        asked.push(input.reference)
        runner.stop('SIGINT')
        return input
      },
    }
    const reports: RowReport[] = []
    const j = await journal()
    const runner = new BatchRunner({rows: rows(['first', 'second', 'third']), total: 3, sender, journal: j, concurrency: 1, onRow: (r) => reports.push(r)})
    const end = await runner.run()
    await j.close()
    expect(asked).toEqual(['first'])
    expect(reports).toEqual([])
    expect(g.sent).toEqual([])
    expect(end.notStarted).toBe(3)
    // Those that never asked were never journaled either.
    for (const reference of ['second', 'third']) expect(intentsOf(j.path, reference)).toEqual([])
    expect(end.journal).toEqual({answered: 0, inDoubt: 0, notStarted: 3, failedUnsent: 0})
  })
})

describe('invalidReport', () => {
  it('a row that failed the checks, as its report: invalid, exit 2, its messages', () => {
    expect(invalidReport({row: 4, line: 5, reference: 'r-4', messages: ['amount must be a whole number']})).toEqual({
      row: 4,
      line: 5,
      reference: 'r-4',
      status: 'invalid',
      exitCode: 2,
      resumed: false,
      error: {kind: 'usage', status: null, messages: ['amount must be a whole number'], request_id: null},
    })
  })
})
