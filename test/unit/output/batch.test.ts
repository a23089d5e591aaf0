import {describe, expect, it, onTestFinished, vi} from 'vitest'
import type {RowReport} from '../../../src/batch/row-reports.js'
import {BatchView, batchTableLayout, journalStateText, rowLine} from '../../../src/output/batch.js'
import {totals} from '../../../src/output/batch-totals.js'
import {testIo} from '../../test-io.js'

const approved: RowReport = {row: 1, line: 2, reference: 'r-1', status: 'approved', exitCode: 0, resumed: false, record: {id: '071-R-1', message: 'Approved', amount: -1000}, amount: 1000, currency: 'AUD'}
const unknown: RowReport = {row: 2, line: 3, reference: 'r 2', status: 'unknown', exitCode: 8, resumed: false, error: {kind: 'outcome_unknown', status: null, messages: ['no answer\u001b[2J'], request_id: null}, amount: 500, currency: 'NZD'}
const invalid: RowReport = {row: 3, line: 4, status: 'invalid', exitCode: 2, resumed: false, error: {kind: 'usage', status: null, messages: ['transaction_id is blank'], request_id: null}}

describe('rowLine', () => {
  it('prints the documented keys in order, resumed only when true, error in place of a record', () => {
    expect(rowLine({...approved, resumed: true})).toBe('{"row":1,"line":2,"reference":"r-1","status":"approved","exit_code":0,"resumed":true,"record":{"id":"071-R-1","message":"Approved","amount":-1000}}\n')
    expect(rowLine(invalid)).toBe('{"row":3,"line":4,"reference":null,"status":"invalid","exit_code":2,"error":{"kind":"usage","status":null,"messages":["transaction_id is blank"],"request_id":null}}\n')
  })
})

describe('rowLine', () => {
  it('escapes DEL and C1 from the file or the gateway, as every JSON line does: the same values', () => {
    const hostile: RowReport = {...approved, reference: 'r\u009b2J', record: {id: '071-R-1', message: 'Approved\u007f'}}
    const line = rowLine(hostile)
    expect(line).toContain('"reference":"r\\u009b2J"')
    expect(line).toContain('"message":"Approved\\u007f"')
    expect(JSON.parse(line)).toMatchObject({reference: 'r\u009b2J', record: {message: 'Approved\u007f'}})
  })
})

describe('BatchView', () => {
  it('on a pipe: the lines of one turn of the event loop in one write, and what is left written by the summary or flush', async () => {
    const io = testIo()
    const writes: string[] = []
    const view = new BatchView({...io, out: (text) => (writes.push(text), io.out(text))}, 5, 'refund', {json: false})
    view.row(approved)
    view.row(unknown)
    expect(writes).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes).toEqual([rowLine(approved) + rowLine(unknown)])
    view.row(approved)
    view.flush()
    view.flush()
    expect(writes).toEqual([rowLine(approved) + rowLine(unknown), rowLine(approved)])
    view.skipped(invalid)
    view.summary({notStarted: 1})
    expect(writes.at(-1)).toBe(rowLine(invalid))
    // A batch of long lines is written 64 KiB or so at a time, not held whole.
    const long: RowReport = {...approved, reference: 'r'.repeat(20_000)}
    writes.length = 0
    for (let i = 0; i < 4; i++) view.row(long)
    expect(writes).toEqual([rowLine(long).repeat(4)])
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes).toHaveLength(1)
  })

  it('on a pipe: a line per row, and a summary with counts, money per currency and what to do about unknown rows', () => {
    const io = testIo()
    const view = new BatchView(io, 3, 'refund', {json: false})
    view.row(approved)
    view.row(unknown)
    view.skipped(invalid)
    view.summary({notStarted: 0})
    expect(io.stdout()).toBe(rowLine(approved) + rowLine(unknown) + rowLine(invalid))
    expect(io.stderr()).toMatch(/^3 refunds: 1 approved, 1 unknown, 1 invalid in [\d.]+ s\n {2}approved 10\.00 AUD\n {2}unknown {2}5\.00 NZD\n1 refund may or may not have reached the gateway\. Do not send them again by other means: run this same command again, which looks each one up first, or check them: gw refund get 'r 2'\n$/)
    // A skipped invalid row does not count against the batch.
    expect(view.worstExitCode()).toBe(8)
  })

  it('on a terminal: a table row each, control characters made visible, a progress line cleared before each row', () => {
    const io = testIo({tty: true, columns: 120})
    const view = new BatchView(io, 2, 'refund', {json: false})
    view.row(approved)
    view.row(unknown)
    expect(io.stdout()).toContain('  ROW   LINE  REFERENCE                 STATUS     AMOUNT            RESULT\n')
    expect(io.stdout()).toContain('    1      2  r-1                       approved   10.00 AUD         071-R-1  Approved\n')
    expect(io.stdout()).toContain('no answer\\u001b[2J')
    expect(io.stderr()).toContain('\r\u001B[K2/2  ')
    expect(io.stderr()).toMatch(/1 approved, 0 declined, 1 failed$/)
  })

  it("on a terminal, a row's messages each said once: a miss's words, which quote the gateway's, are not followed by them again", () => {
    const io = testIo({tty: true, columns: 140})
    const view = new BatchView(io, 2, 'refund', {json: false})
    const messages = ['No purchase has the id or reference NOPE: Purchase not found', 'Purchase not found']
    view.row({row: 1, line: 2, reference: 'NOPE', status: 'rejected', exitCode: 5, resumed: false, error: {kind: 'not_found', status: 404, messages, request_id: null}})
    view.row({...invalid, error: {kind: 'rejected', status: 400, messages: ['Amount is invalid', 'Card is expired'], request_id: null}})
    expect(io.stdout()).toContain('rejected                     No purchase has the id or reference NOPE: Purchase not found\n')
    expect(io.stdout()).toContain('invalid                      Amount is invalid; Card is expired\n')
  })

  it('on a narrow terminal: the row number goes first, then the reference and amount narrow, then the line; the status stays, and no line is wider but for a long result', () => {
    expect(batchTableLayout(120)).toEqual({row: 5, line: 5, reference: 24, amount: 16})
    expect(batchTableLayout(80)).toEqual({line: 5, reference: 16, amount: 12})
    expect(batchTableLayout(60)).toEqual({reference: 12, amount: 12})
    const io = testIo({tty: true, columns: 60})
    const view = new BatchView(io, 2, 'refund', {json: false})
    view.row({...approved, reference: 'order-2026-11-17-0001-R1'})
    expect(io.stdout()).toBe('REFERENCE     STATUS     AMOUNT        RESULT\norder-2026-…  approved   10.00 AUD     071-R-1  Approved\n')
  })

  it('on a terminal, a notice written meanwhile (a recovery, a warning) goes above the progress line, which is drawn again', () => {
    const io = testIo({tty: true})
    const view = new BatchView(io, 3, 'refund', {json: false})
    view.row(approved)
    const before = io.stderr()
    io.err('No answer to the refund that could be read; looking reference r-2 up at the gateway.\n')
    const progress = before.slice(before.lastIndexOf('\r\u001B[K') + 4)
    expect(progress).toMatch(/^1\/3 /)
    expect(io.stderr().slice(before.length)).toBe(`\r\u001B[KNo answer to the refund that could be read; looking reference r-2 up at the gateway.\n${progress}`)
    view.summary({notStarted: 0})
    // The summary takes the progress line away, and nothing draws it again.
    // eslint-disable-next-line no-control-regex
    expect(io.stderr()).toMatch(/\r\u001B\[K3 refunds: 1 approved in [\d.]+ s\n {2}approved 10\.00 AUD\n$/)
  })
})

describe('BatchView, a batch stopped early', () => {
  const journal = {answered: 9, inDoubt: 2, notStarted: 29, failedUnsent: 0}

  it('says what its journal holds in the words its next run uses, and how to finish it', () => {
    const io = testIo()
    new BatchView(io, 40, 'refund', {json: false}).summary({notStarted: 29, unfinished: {journal, path: '/j.ndjson', finishByRunningAgain: true}})
    expect(io.stderr().split('\n').at(-2)).toBe(
      'Not finished: 9 rows answered, 2 in doubt, 29 not started. Run the same command again to finish the batch: it looks the rows in doubt up before sending anything, and sends the rows not started (journal /j.ndjson).',
    )
    expect(journalStateText(journal)).toBe('9 rows answered, 2 in doubt, 29 not started')
  })

  it('counts rows that failed with nothing made among those not started, saying so; stopped by an error, leaves the advice to it', () => {
    const io = testIo()
    new BatchView(io, 40, 'refund', {json: false}).summary({notStarted: 28, unfinished: {journal: {...journal, failedUnsent: 1}, path: '/j.ndjson', finishByRunningAgain: false}})
    expect(io.stderr().split('\n').at(-2)).toBe('Not finished: 9 rows answered, 2 in doubt, 29 not started (1 of them failed with nothing made, and is tried again); journal /j.ndjson.')
  })
})

describe('totals', () => {
  it('adds amounts per currency, in major units with the currency said when known (one unit in every summary), and how many are not known', () => {
    expect(totals([{amount: 1000, currency: 'AUD'}, {amount: -250, currency: 'AUD'}, {amount: 100, currency: 'JPY'}, {amount: 5}, {}])).toBe('12.50 AUD; 100 JPY; 0.05 (currency not known); 1 amount not known')
    // The thousands apart, as the README shows a summary's sums.
    expect(totals([{amount: 150000, currency: 'AUD'}, {amount: -45000, currency: 'AUD'}, {amount: 123456789, currency: 'JPY'}, {amount: 100000000}])).toBe('1950.00 AUD; 123456789 JPY; 1000000.00 (currency not known)')
    // The order rows finish in changes nothing: currencies by their code, one not known last.
    expect(totals([{amount: 5}, {amount: 100, currency: 'NZD'}, {amount: 100, currency: 'AUD'}])).toBe('1.00 AUD; 1.00 NZD; 0.05 (currency not known)')
  })
})

describe('BatchView while rows in doubt wait for the gateway (design.md §5)', () => {
  const since = Date.now()

  it('on a pipe: one line for each row as its wait begins, nothing more', () => {
    const io = testIo()
    const view = new BatchView(io, 2, 'refund', {json: false})
    view.waiting('r-1', {since, endsAt: since + 47_200})
    view.waiting('r-1', undefined)
    expect(io.stderr()).toBe('The gateway has no refund with reference r-1 yet, and may still be processing it: looking again for up to 48 s. If it is not there then, it never arrived, and is sent.\n')
  })

  it('at a terminal: the line, and the progress line counting the waits down until the last ends', () => {
    const io = testIo({tty: true})
    const view = new BatchView(io, 4, 'purchase', {json: false})
    view.waiting('r-1', {since: Date.now(), endsAt: Date.now() + 30_000})
    view.waiting('r-2', {since: Date.now(), endsAt: Date.now() + 45_000})
    expect(io.stderr()).toContain('The gateway has no purchase with reference r-2 yet, and may still be processing it: looking again for up to 45 s.')
    expect(io.stderr()).toMatch(/0\/4 {2}0\.0\/s {2}ETA --:-- {2}0 approved, 0 declined, 0 failed {2}Waiting for the gateway to process 2 purchases in doubt: (45|44) s left$/)
    view.waiting('r-2', undefined)
    expect(io.stderr()).toMatch(/Waiting for the gateway to process the purchase in doubt: (30|29) s left$/)
    view.waiting('r-1', undefined)
    expect(io.stderr()).toMatch(/0 failed$/)
    view.summary({notStarted: 4})
  })

  it('at a terminal whose stdout is a pipe (`| less`): the lines alone, no progress line for the reader to draw over', () => {
    vi.useFakeTimers({now: since})
    onTestFinished(() => void vi.useRealTimers())
    const io = testIo({tty: true, progress: false})
    const view = new BatchView(io, 2, 'refund', {json: false})
    view.waiting('r-1', {since, endsAt: since + 47_200})
    vi.advanceTimersByTime(3000)
    view.waiting('r-1', undefined)
    expect(io.stderr()).toBe('The gateway has no refund with reference r-1 yet, and may still be processing it: looking again for up to 48 s. If it is not there then, it never arrived, and is sent.\n')
  })
})
