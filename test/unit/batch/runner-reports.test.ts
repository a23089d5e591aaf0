import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {Journal, type JournalDisk, JournalError} from '../../../src/batch/journal.js'
import type {RowSender} from '../../../src/batch/kinds.js'
import {changedRow, errorFields, invalidReport, type RowReport, statusOf} from '../../../src/batch/row-reports.js'
import {LOST_IN_A_ROW} from '../../../src/batch/gateway-slots.js'
import {BatchRunner} from '../../../src/batch/runner.js'
import {DeclinedError, GatewayError, GwError, InterruptedError, ModeMismatchError, NotFoundError, NotSentError, RejectedError, UsageError} from '../../../src/errors.js'
import type {Sent} from '../../../src/operations/money.js'
import {missing} from '../../../src/operations/resolve.js'
import {journalText} from '../../journal-text.js'

// What a batch reports of each row, and what it journals and counts, field for field: the runner's
// words are what a user reads and a rerun counts by.
type Body = {reference: string; amount: number}
const journalAt = (file: string, disk?: Parameters<typeof Journal.open>[1]['disk']) =>
  Journal.open(file, {command: 'purchase create', input: {sha256: 'a'}, now: new Date(), target: {base_url: 'http://localhost:4010', username: 'TEST'}, disk})
const path = () => join(mkdtempSync(join(tmpdir(), 'gw-runner-reports-')), 'j.ndjson')
const entries = (file: string) => journalText(file).split('\n').slice(1, -1).map((line) => JSON.parse(line) as Record<string, unknown>)

async function* rows(references: string[]) {
  for (const [i, reference] of references.entries()) yield {row: i + 1, line: i + 2, reference, input: {reference, amount: 100}}
}

/** A sender whose send answers each reference as `answer` says (a Sent, or an error to throw), recording what it sent. */
function scripted(answer: (body: Body) => Sent | Error | Promise<Sent | Error>, extra: Partial<RowSender<Body, Body>> = {}) {
  const sent: string[] = []
  const sender: RowSender<Body, Body> = {
    noun: 'purchase',
    request: async (input) => input,
    asksFirst: () => false,
    send: async (body) => {
      sent.push(body.reference)
      const outcome = await answer(body)
      if (outcome instanceof Error) throw outcome
      return outcome
    },
    findEarlier: async () => undefined,
    asked: (input) => input,
    money: (body) => ({amount: body.amount, currency: 'AUD'}),
    ...extra,
  }
  return {sender, sent}
}

const approved = (body: Body, fields: Record<string, unknown> = {}): Sent => ({body, decided: {outcome: 'approved', noun: 'purchase', record: {id: `071-P-${body.reference}`, reference: body.reference, successful: true, ...fields}, source: 'answer'}})

async function run(references: string[], sender: RowSender<Body, Body>, options: {journal?: Journal; concurrency?: number} = {}) {
  const journal = options.journal ?? (await journalAt(path()))
  const reports: RowReport[] = []
  const runner = new BatchRunner({rows: rows(references), total: references.length, sender, journal, concurrency: options.concurrency ?? 1, onRow: (report) => reports.push(report)})
  const end = await runner.run()
  await journal.close()
  return {reports: reports.sort((a, b) => a.row - b.row), end, file: journal.path, runner}
}

describe('a row answered now', () => {
  it('is journaled with its record (card number masked) or its error, and counted answered', async () => {
    const {sender} = scripted((body) =>
      body.reference === 'ok'
        ? approved(body, {card_number: '4242424242424242'})
        : {body, decided: {outcome: 'declined', noun: 'purchase', record: {reference: body.reference, successful: false}, source: 'answer', reason: 'Declined'}, failure: new DeclinedError('Declined', {status: 200})},
    )
    const {reports, end, file} = await run(['ok', 'no'], sender)
    expect(reports[0]).toEqual({row: 1, line: 2, reference: 'ok', status: 'approved', exitCode: 0, resumed: false, record: {id: '071-P-ok', reference: 'ok', successful: true, card_number: '4242424242424242'}, amount: 100, currency: 'AUD'})
    expect(reports[1]).toEqual({row: 2, line: 3, reference: 'no', status: 'declined', exitCode: 3, resumed: false, record: {reference: 'no', successful: false}, amount: 100, currency: 'AUD'})
    expect(entries(file).filter((entry) => 'result' in entry)).toEqual([
      {result: 'ok', status: 'approved', exit_code: 0, record: {id: '071-P-ok', reference: 'ok', successful: true, card_number: '424242XXXXXX4242'}, amount: 100, currency: 'AUD'},
      {result: 'no', status: 'declined', exit_code: 3, record: {reference: 'no', successful: false}, amount: 100, currency: 'AUD'},
    ])
    expect(end).toEqual({notStarted: 0, journal: {answered: 2, inDoubt: 0, notStarted: 0, failedUnsent: 0}, stoppedBy: undefined, stoppedByError: undefined, changedLines: []})
  })

  it('taken by another transaction: rejected, with the error and not the other record', async () => {
    const failure = new RejectedError('Reference taken by 071-P-other', {status: 422})
    const {sender} = scripted((body) => ({body, decided: {outcome: 'taken', noun: 'purchase', record: {id: '071-P-other'}, differences: []}, failure}))
    const {reports, file} = await run(['r-1'], sender)
    expect(reports[0]).toEqual({row: 1, line: 2, reference: 'r-1', status: 'rejected', exitCode: 7, resumed: false, error: errorFields(failure), amount: 100, currency: 'AUD'})
    expect(entries(file).find((entry) => 'result' in entry)).toEqual({result: 'r-1', status: 'rejected', exit_code: 7, error: JSON.parse(JSON.stringify(errorFields(failure))), amount: 100, currency: 'AUD'})
  })

  it('from a gateway in the other environment: its money as it stands (exit 6 this run, journaled as approved or declined), and nothing more is sent', async () => {
    const wrongGateway = new ModeMismatchError('The gateway answers as live', {expected: 'sandbox', reported: 'live'}, {status: 200, requestId: 'req-1'})
    const {sender, sent} = scripted((body) =>
      body.reference === 'r-1'
        ? {...approved(body), failure: wrongGateway, wrongGateway}
        : {body, decided: {outcome: 'declined', noun: 'purchase', record: {reference: body.reference, successful: false}, source: 'answer', reason: 'Declined'}, failure: wrongGateway, wrongGateway},
    )
    const {reports, end, file} = await run(['r-1', 'r-2', 'r-3'], sender)
    expect(sent).toEqual(['r-1'])
    expect(reports).toEqual([{row: 1, line: 2, reference: 'r-1', status: 'approved', exitCode: 6, resumed: false, record: {id: '071-P-r-1', reference: 'r-1', successful: true}, error: errorFields(wrongGateway), amount: 100, currency: 'AUD'}])
    expect(end.stoppedByError).toBeInstanceOf(ModeMismatchError)
    expect(end.stoppedByError).toMatchObject({message: 'The gateway answers as live', status: 200, requestId: 'req-1', expected: 'sandbox', reported: 'live'})
    expect(entries(file).find((entry) => 'result' in entry)).toMatchObject({result: 'r-1', status: 'approved', exit_code: 0})
    const declined = await run(['r-2'], scripted((body) => ({body, decided: {outcome: 'declined', noun: 'purchase', record: {reference: body.reference, successful: false}, source: 'answer', reason: 'Declined'}, failure: wrongGateway, wrongGateway})).sender)
    expect(declined.reports[0]).toMatchObject({status: 'declined', exitCode: 6})
    expect(entries(declined.file).find((entry) => 'result' in entry)).toMatchObject({status: 'declined', exit_code: 3})
  })

  it('found under its reference after a lost answer: reported as done earlier', async () => {
    const {sender} = scripted((body) => ({body, decided: {outcome: 'approved', noun: 'purchase', record: {reference: body.reference, successful: true}, source: 'earlier'}}))
    const {reports} = await run(['r-1'], sender)
    expect(reports[0]).toMatchObject({status: 'approved', exitCode: 0, resumed: true})
  })
})

describe('a row that failed', () => {
  it.each([
    ['an interruption', new InterruptedError('SIGINT'), 'unknown', 8],
    ['no answer', new GwError('outcome_unknown', 8, 'No answer came back'), 'unknown', 8],
    ['an unreachable gateway', new GatewayError('network', 'connection refused'), 'failed', 1],
    ['a refusal', new RejectedError('Amount is invalid', {status: 400}), 'rejected', 7],
    ['not found', new NotFoundError('Card not found', {status: 404}), 'rejected', 5],
  ])('with %s: its status and exit code, its error fields, not resumed', async (_, error, status, exitCode) => {
    const {reports} = await run(['r-1'], scripted(() => error).sender)
    expect(reports[0]).toEqual({row: 1, line: 2, reference: 'r-1', status, exitCode, resumed: false, error: errorFields(error as GwError), amount: 100, currency: 'AUD'})
  })

  it('with what is no gw error: an unexpected failure (exit 1), in its own words', async () => {
    const {reports} = await run(['r-1', 'r-2'], scripted((body) => (body.reference === 'r-1' ? new TypeError('x is not a function') : (Promise.reject('a string') as never))).sender)
    expect(reports.map((report) => [report.status, report.exitCode, report.error])).toEqual([
      ['failed', 1, {kind: 'unexpected', status: null, messages: ['Unexpected failure: x is not a function'], request_id: null}],
      ['failed', 1, {kind: 'unexpected', status: null, messages: ['Unexpected failure: a string'], request_id: null}],
    ])
  })

  it('without an answer that stands: journaled, and counted in doubt', async () => {
    const {end, file} = await run(['r-1'], scripted(() => new GatewayError('network', 'connection reset')).sender)
    expect(end.journal).toEqual({answered: 0, inDoubt: 1, notStarted: 0, failedUnsent: 0})
    expect(entries(file).find((entry) => 'result' in entry)).toMatchObject({result: 'r-1', status: 'failed', exit_code: 1})
  })

  it('before anything was sent (its request could not be made): not journaled, and counted failed unsent', async () => {
    const {sender, sent} = scripted(approved, {request: () => Promise.reject(new NotFoundError('Purchase 071-P-x not found', {status: 404}))})
    const {reports, end, file} = await run(['r-1'], sender)
    expect(sent).toEqual([])
    expect(reports[0]).toMatchObject({status: 'rejected', exitCode: 5, error: {messages: ['Purchase 071-P-x not found']}})
    expect(end).toMatchObject({notStarted: 0, journal: {answered: 0, inDoubt: 0, notStarted: 1, failedUnsent: 1}})
    expect(entries(file)).toEqual([])
  })
})

describe(`after ${LOST_IN_A_ROW} answers lost in a row`, () => {
  const lost = () => new GwError('outcome_unknown', 8, 'No answer came back')

  it('starts no new row, and stops saying why (exit 8)', async () => {
    const references = Array.from({length: 12}, (_, i) => `r-${i + 1}`)
    const script = scripted(lost)
    const {reports, end} = await run(references, script.sender)
    // One at a time, the row after the last lost one is not sent.
    expect(script.sent).toHaveLength(LOST_IN_A_ROW)
    expect(reports.slice(0, LOST_IN_A_ROW).every((report) => report.status === 'unknown')).toBe(true)
    expect(end.stoppedByError).toBeInstanceOf(GwError)
    expect(end.stoppedByError).toMatchObject({
      kind: 'outcome_unknown',
      exitCode: 8,
      message: `The answers to the last ${LOST_IN_A_ROW} purchases were lost: the gateway looks unreachable, and no more rows were started`,
      hint: 'Check that the gateway can be reached, then run the same command again: it looks the rows in doubt up before sending anything.',
    })
    expect(end).toMatchObject({notStarted: 12 - LOST_IN_A_ROW, journal: {answered: 0, inDoubt: LOST_IN_A_ROW, notStarted: 12 - LOST_IN_A_ROW}})
  })

  it(`goes on when an answer comes between them: ${LOST_IN_A_ROW - 1} lost, one answered, ${LOST_IN_A_ROW - 1} lost`, async () => {
    const references = Array.from({length: 2 * LOST_IN_A_ROW - 1}, (_, i) => `r-${i + 1}`)
    const {end, sent} = await (async () => {
      const script = scripted((body) => (body.reference === `r-${LOST_IN_A_ROW}` ? approved(body) : lost()))
      return {...(await run(references, script.sender)), sent: script.sent}
    })()
    expect(end.stoppedByError).toBeUndefined()
    expect(sent).toHaveLength(2 * LOST_IN_A_ROW - 1)
  })

  it('rows in doubt the gateway answered about (a debit it does not find by reference, a record that differs) are no lost answers: the batch goes on', async () => {
    const references = Array.from({length: LOST_IN_A_ROW + 2}, (_, i) => `r-${i + 1}`)
    const unfound = (body: Body): Sent => ({body, decided: {outcome: 'unknown', noun: 'direct debit', reason: body.reference === 'r-1' ? {why: 'different', differences: []} : {why: 'not_findable'}}, failure: lost()})
    const script = scripted(unfound)
    const {reports, end} = await run(references, script.sender)
    expect(end.stoppedByError).toBeUndefined()
    expect(script.sent).toHaveLength(LOST_IN_A_ROW + 2)
    expect(reports.map((report) => [report.status, report.exitCode, report.reached])).toEqual(references.map(() => ['unknown', 8, true]))
    // Unanswered, it is a lost answer as any other.
    const unanswered = scripted((body) => ({body, decided: {outcome: 'unknown', noun: 'direct debit', reason: {why: 'unanswered'}}, failure: lost()}))
    const stopped = await run(references, unanswered.sender)
    expect(stopped.reports[0]!.reached).toBeUndefined()
    expect(stopped.end.stoppedByError).toMatchObject({exitCode: 8})
    expect(unanswered.sent).toHaveLength(LOST_IN_A_ROW)
  })

  it(`counts ${LOST_IN_A_ROW}, not one fewer: ${LOST_IN_A_ROW - 1} lost stop nothing`, async () => {
    const references = Array.from({length: LOST_IN_A_ROW - 1}, (_, i) => `r-${i + 1}`)
    const {end} = await run(references, scripted(lost).sender)
    expect(end.stoppedByError).toBeUndefined()
  })
})

describe('a row whose request stopped before it was sent (its look-up before sending failed: NotSentError)', () => {
  it('is reported with its cause, taken back from the journal (not started, as the run says), and sent at once by the next run', async () => {
    const down = new GatewayError('network', 'Reference r-1 could not be looked up before it was sent (no answer): nothing was sent')
    const script = scripted((body) => (body.reference === 'r-1' ? new NotSentError(down) : approved(body)))
    const {reports, end, file} = await run(['r-1', 'r-2'], script.sender)
    expect(reports[0]).toEqual({row: 1, line: 2, reference: 'r-1', status: 'failed', exitCode: 1, resumed: false, error: errorFields(down), amount: 100, currency: 'AUD'})
    expect(end.journal).toEqual({answered: 1, inDoubt: 0, notStarted: 1, failedUnsent: 1})
    expect(entries(file).map((entry) => entry.intent ?? entry.withdrawn ?? entry.result)).toEqual(expect.arrayContaining(['r-1', 'r-2']))
    expect(entries(file).filter((entry) => entry.withdrawn === 'r-1')).toHaveLength(1)
    const next = await journalAt(file)
    const again = scripted(approved, {findEarlier: async () => Promise.reject(new Error('nothing is looked up'))})
    const rerun = await run(['r-1', 'r-2'], again.sender, {journal: next})
    expect(again.sent).toEqual(['r-1'])
    expect(rerun.reports.map((report) => [report.reference, report.status, report.resumed])).toEqual([['r-1', 'approved', false], ['r-2', 'approved', true]])
  })

  it('its cause stops the batch as it would (the other environment: exit 6), and counts toward the gateway looking down when no answer came', async () => {
    const mismatch = new ModeMismatchError('answered in live mode', {expected: 'sandbox', reported: 'live'})
    const wrong = await run(['r-1', 'r-2'], scripted(() => new NotSentError(mismatch)).sender)
    expect(wrong.end.stoppedByError).toBe(mismatch)
    expect(wrong.reports).toMatchObject([{reference: 'r-1', status: 'rejected', exitCode: 6}])
    const references = Array.from({length: 12}, (_, i) => `r-${i + 1}`)
    const script = scripted(() => new NotSentError(new GatewayError('network', 'no answer')))
    const down = await run(references, script.sender)
    expect(script.sent).toHaveLength(LOST_IN_A_ROW)
    expect(down.end.stoppedByError).toMatchObject({exitCode: 8, message: `The answers to the last ${LOST_IN_A_ROW} purchases were lost: the gateway looks unreachable, and no more rows were started`})
    expect(down.end.journal).toEqual({answered: 0, inDoubt: 0, notStarted: 12, failedUnsent: LOST_IN_A_ROW})
  })

  it('and a row whose request could not be made for want of an answer (a look-up of its own) counts toward it too; one refused does not', async () => {
    const references = Array.from({length: 12}, (_, i) => `r-${i + 1}`)
    const script = scripted(approved, {request: async () => Promise.reject(new GatewayError('gateway', 'HTTP 503')), asksFirst: () => true})
    const {end, reports} = await run(references, script.sender)
    expect(reports).toHaveLength(LOST_IN_A_ROW)
    expect(end.stoppedByError).toMatchObject({exitCode: 8})
    const refused = scripted(approved, {request: async () => Promise.reject(new RejectedError('Nothing is left', {status: 400})), asksFirst: () => true})
    const goesOn = await run(references, refused.sender)
    expect(goesOn.reports).toHaveLength(12)
    expect(goesOn.end.stoppedByError).toBeUndefined()
  })
})

describe('a row stopped at once (a second Ctrl-C) while at the gateway', () => {
  it('is reported in doubt at once, without waiting for its journal line', async () => {
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const slow: Partial<JournalDisk> = {
      append: async (file, lines) => {
        if (lines.some((line) => line.startsWith('{"result"'))) await released
        await file.append(lines)
      },
    }
    const journal = await journalAt(path(), slow)
    const reported: RowReport[] = []
    const runner = new BatchRunner({rows: rows(['r-1']), total: 1, sender: scripted(() => new InterruptedError('SIGINT')).sender, journal, concurrency: 1, onRow: (report) => reported.push(report)})
    const end = await runner.run()
    expect(reported).toMatchObject([{reference: 'r-1', status: 'unknown', exitCode: 8, error: {kind: 'interrupted'}}])
    expect(end.journal).toEqual({answered: 0, inDoubt: 1, notStarted: 0, failedUnsent: 0})
    // It was begun: not counted among the rows this run never started.
    expect(end.notStarted).toBe(0)
    release()
    await journal.close()
  })
})

describe('a row whose own answer was lost, waiting for the gateway to be done processing it', () => {
  it('tells onWaiting its row and reference, as this run’s own request (sentThisRun), each time the wait begins and ends', async () => {
    const waiting = {remainingMs: 1000, until: 5000}
    const sender = scripted(approved, {
      send: async (body, options) => {
        options?.onWait?.(waiting as never)
        options?.onWait?.(undefined)
        return approved(body)
      },
    }).sender
    const waits: unknown[][] = []
    const journal = await journalAt(path())
    await new BatchRunner({rows: rows(['r-1']), total: 1, sender, journal, concurrency: 1, onRow: () => {}, onWaiting: (...args) => waits.push(args)}).run()
    await journal.close()
    expect(waits).toEqual([
      [{row: 1, reference: 'r-1'}, waiting, true],
      [{row: 1, reference: 'r-1'}, undefined, true],
    ])
  })
})

describe('a full refund’s amount, asked of the gateway first', () => {
  it('waits for a request slot, and is not asked once the batch stopped', async () => {
    const asked: string[] = []
    const stop = {now: () => {}}
    const {sender, sent} = scripted(approved, {
      asksFirst: () => true,
      request: async (input) => {
        asked.push(input.reference)
        stop.now()
        return input
      },
    })
    const journal = await journalAt(path())
    const reports: RowReport[] = []
    const runner = new BatchRunner({rows: rows(['r-1', 'r-2', 'r-3']), total: 3, sender, journal, concurrency: 1, onRow: (report) => reports.push(report)})
    stop.now = () => runner.stop('SIGTERM')
    const end = await runner.run()
    await journal.close()
    expect(asked).toEqual(['r-1'])
    expect(sent).toEqual([])
    expect(reports).toEqual([])
    // Only the row whose request was made was journaled, and taken back.
    expect(entries(journal.path).map((entry) => entry.intent ?? entry.withdrawn)).toEqual(['r-1', 'r-1'])
    expect(end).toMatchObject({notStarted: 3, stoppedBy: 'SIGTERM', journal: {answered: 0, inDoubt: 0, notStarted: 3}})
  })
})

describe('a row in doubt since an earlier run, found at the gateway', () => {
  it('is reported as found, journaled, and counted answered, no longer in doubt', async () => {
    const file = path()
    const earlier = await journalAt(file)
    await earlier.intent({intent: 'r-1', row: 1, line: 2, request: {reference: 'r-1', amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await earlier.close()
    const {sender, sent} = scripted(approved, {findEarlier: async (body) => ({body, decided: {outcome: 'approved', noun: 'purchase', record: {reference: body.reference, successful: true}, source: 'earlier'}})})
    const {reports, end} = await run(['r-1'], sender, {journal: await journalAt(file)})
    expect(sent).toEqual([])
    expect(reports[0]).toMatchObject({status: 'approved', resumed: true})
    expect(end.journal).toEqual({answered: 1, inDoubt: 0, notStarted: 0, failedUnsent: 0})
  })
})

describe('a journal that cannot be written', () => {
  /** The real disk, whose writes fail (EIO) once `failing()` says so. */
  const disk = (failing: () => boolean): Partial<JournalDisk> => ({
    append: (file, lines) => {
      if (failing()) throw Object.assign(new Error('EIO: i/o error, write'), {code: 'EIO'})
      file.append(lines)
    },
  })

  it("at a row's intent: the row is not sent, fails, counts as not started, and the run stops with the error", async () => {
    let failing = false
    const journal = await journalAt(path(), disk(() => failing))
    failing = true
    const {sender, sent} = scripted(approved)
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(['r-1', 'r-2']), total: 2, sender, journal, concurrency: 1, onRow: (report) => reports.push(report)}).run()
    await journal.close()
    expect(sent).toEqual([])
    expect(reports.map((report) => [report.reference, report.status, report.exitCode])).toEqual([
      ['r-1', 'failed', 1],
      ['r-2', 'failed', 1],
    ])
    expect(end.stoppedByError).toBeInstanceOf(JournalError)
    // Both said failed; as the journal has them, neither started: the next run sends both.
    expect(end).toMatchObject({notStarted: 0, journal: {answered: 0, inDoubt: 0, notStarted: 2, failedUnsent: 2}})
  })

  it("at a row's result: the row is reported as answered, counts in doubt, and the run stops with the error", async () => {
    let failing = false
    const journal = await journalAt(path(), disk(() => failing))
    const {sender} = scripted((body) => {
      failing = true
      return approved(body)
    })
    const reports: RowReport[] = []
    const end = await new BatchRunner({rows: rows(['r-1']), total: 1, sender, journal, concurrency: 1, onRow: (report) => reports.push(report)}).run()
    await journal.close()
    expect(reports[0]).toMatchObject({reference: 'r-1', status: 'approved', exitCode: 0})
    expect(end.stoppedByError).toBeInstanceOf(JournalError)
    expect(end.journal).toEqual({answered: 0, inDoubt: 1, notStarted: 0, failedUnsent: 0})
  })

  it('only when rows journaled ahead are taken back after a stop: they stay in doubt, and the run stops with the error', async () => {
    const file = path()
    const journal = await journalAt(file, {
      append: (journalFile, lines) => {
        if (lines.some((line) => line.includes('"withdrawn"'))) throw Object.assign(new Error('EIO: i/o error, write'), {code: 'EIO'})
        journalFile.append(lines)
      },
    })
    const stop = {now: () => {}}
    const {sender} = scripted(async (body) => {
      while (entries(file).filter((entry) => 'intent' in entry).length < 4) await new Promise((resolve) => setImmediate(resolve))
      stop.now()
      return approved(body)
    })
    const runner = new BatchRunner({rows: rows(['r-1', 'r-2', 'r-3', 'r-4']), total: 4, sender, journal, concurrency: 1, onRow: () => {}})
    stop.now = () => runner.stop('SIGINT')
    const end = await runner.run()
    await journal.close()
    expect(end.stoppedByError).toBeInstanceOf(JournalError)
    // r-1's result went in the one commit with the withdrawals, which failed: it is in doubt too.
    expect(end).toMatchObject({notStarted: 3, stoppedBy: 'SIGINT', journal: {answered: 0, inDoubt: 4, notStarted: 0}})
  })

  it('when rows journaled ahead are taken back after a stop: they stay in doubt, as the journal still has them', async () => {
    let failing = false
    const file = path()
    const journal = await journalAt(file, disk(() => failing))
    const stop = {now: () => {}}
    const {sender} = scripted(async (body) => {
      // Once every row's intent is on disk, the batch is stopped and the disk fails.
      while (entries(file).filter((entry) => 'intent' in entry).length < 4) await new Promise((resolve) => setImmediate(resolve))
      stop.now()
      failing = true
      return approved(body)
    })
    const reports: RowReport[] = []
    const runner = new BatchRunner({rows: rows(['r-1', 'r-2', 'r-3', 'r-4']), total: 4, sender, journal, concurrency: 1, onRow: (report) => reports.push(report)})
    stop.now = () => runner.stop('SIGINT')
    const end = await runner.run()
    await journal.close()
    expect(reports.map((report) => report.reference)).toEqual(['r-1'])
    expect(end.stoppedByError).toBeInstanceOf(JournalError)
    expect(end).toMatchObject({notStarted: 3, stoppedBy: 'SIGINT', journal: {answered: 0, inDoubt: 4, notStarted: 0}})
  })
})

describe('row reports made without an answer', () => {
  it('statusOf: the row status a failure stands for', () => {
    expect(
      [new DeclinedError('Declined', {}), new GwError('outcome_unknown', 8, 'lost'), new InterruptedError('SIGINT'), new UsageError('bad'), new GatewayError('network', 'down'), new GwError('auth', 4, 'no'), new RejectedError('no'), new NotFoundError('none')].map(statusOf),
    ).toEqual(['declined', 'unknown', 'unknown', 'invalid', 'failed', 'failed', 'rejected', 'rejected'])
  })

  it('errorFields: the §3 error object, null where the gateway said nothing', () => {
    expect(errorFields(new RejectedError('Amount is invalid', {status: 400, requestId: 'req-9'}))).toEqual({kind: 'rejected', status: 400, messages: ['Amount is invalid'], request_id: 'req-9'})
    expect(errorFields(new GwError('outcome_unknown', 8, 'lost'))).toEqual({kind: 'outcome_unknown', status: null, messages: ['lost'], request_id: null})
  })

  it("errorFields: a miss leads with gw's words, as the command with one key says it, the gateway's own kept after them", () => {
    const gateway = new NotFoundError('Could not find Purchase', {status: 404, requestId: 'req-9'})
    expect(errorFields(missing('purchases', 'NOPE', gateway, 'id or reference'))).toEqual({
      kind: 'not_found',
      status: 404,
      messages: ['No purchase has the id or reference NOPE: Could not find Purchase', 'Could not find Purchase'],
      request_id: 'req-9',
    })
    // The gateway's words alone (a 404 gw has nothing to add to), and a refusal in gw's own words: said once.
    expect(errorFields(gateway).messages).toEqual(['Could not find Purchase'])
    expect(errorFields(new NotFoundError('a; b', {messages: ['a', 'b']})).messages).toEqual(['a', 'b'])
    expect(errorFields(new RejectedError('Refused here', {messages: ['Amount is invalid']})).messages).toEqual(['Amount is invalid'])
  })

  it('invalidReport: a row that failed the checks', () => {
    expect(invalidReport({row: 3, line: 4, reference: 'r-3', messages: ['amount must be a whole number']})).toEqual({
      row: 3,
      line: 4,
      reference: 'r-3',
      status: 'invalid',
      exitCode: 2,
      resumed: false,
      error: {kind: 'usage', status: null, messages: ['amount must be a whole number'], request_id: null},
    })
  })

  it('changedRow: every change named, one after another, and the line it was sent from where that was another', () => {
    expect(changedRow({row: 1, line: 2, reference: 'r-1', input: {}}, ['transaction_id 071-P-1, now 071-P-2', 'amount 500, now 700'], undefined, 2).error!.messages).toEqual([
      'Line 2 was changed after an earlier run sent it (transaction_id 071-P-1, now 071-P-2; amount 500, now 700); that has no answer known: it was not sent again',
    ])
    expect(changedRow({row: 1, line: 2, reference: 'r-1-R1', input: {}}, ['amount 500, now 700'], undefined, 5).error!.messages).toEqual([
      'Line 2 (line 5 when it was sent) was changed after an earlier run sent it (amount 500, now 700); that has no answer known: it was not sent again',
    ])
  })
})
