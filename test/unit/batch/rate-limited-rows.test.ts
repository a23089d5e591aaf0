import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {GatewaySlots} from '../../../src/batch/gateway-slots.js'
import {INTENT_FRESH_MS} from '../../../src/batch/in-doubt.js'
import {Journal} from '../../../src/batch/journal.js'
import type {Intent} from '../../../src/batch/journal-entries.js'
import {journalState} from '../../../src/batch/journal-state.js'
import type {RowSender} from '../../../src/batch/kinds.js'
import type {RowReport} from '../../../src/batch/row-reports.js'
import {BatchRunner} from '../../../src/batch/runner.js'
import {RateLimitedError} from '../../../src/errors.js'
import {type MoneyRequest, sendOnce} from '../../../src/operations/money.js'

// A row the gateway's rate limit held past gw's wait (exit 9): the gateway said it did not process
// it, so nothing was made. The journal takes it back, the batch starts no more rows, and the next
// run sends it afresh, looking nothing up.

type Body = {reference: string; amount: number}

async function* rows(references: string[]) {
  for (const [i, reference] of references.entries()) yield {row: i + 1, line: i + 2, reference, input: {reference, amount: 100}}
}

const opened: Journal[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((each) => each.close().catch(() => {})))
})
const journalAt = async (file: string) => {
  const made = await Journal.open(file, {command: 'purchase create', input: {sha256: 'a'}, now: new Date(), target: {base_url: 'http://127.0.0.1:8787', username: 'TEST'}})
  opened.push(made)
  return made
}

/** A pretend gateway whose purchase POSTs of `limited` references are refused for the rate past gw's wait; the others made. */
function gateway(limited: Set<string>) {
  const posted: string[] = []
  const looked: string[] = []
  const request = (body: Body): MoneyRequest => ({
    noun: 'purchase',
    body,
    post: async () => {
      posted.push(body.reference)
      if (limited.has(body.reference)) throw new RateLimitedError('Rate limited by the gateway: it asks gw to wait 2 min, longer than the 60 s gw waits', {retryAfterMs: 120_000, notMade: {noun: 'purchase', reference: body.reference}}, {status: 429})
      return {record: {reference: body.reference, amount: body.amount, successful: true}, raw: {status: 200}}
    },
    lookUp: async (reference) => {
      looked.push(reference)
      throw new Error('nothing is in doubt: nothing should be looked up')
    },
    lookups: {cardToken: () => Promise.reject(new Error('no cards')), purchase: () => Promise.reject(new Error('no purchases'))},
  })
  const sender: RowSender<Body, Body> = {
    noun: 'purchase',
    request: async (input) => input,
    asksFirst: () => false,
    send: (body) => sendOnce(request(body)),
    findEarlier: async (body) => (looked.push(body.reference), undefined),
    asked: (input) => input,
    money: (body) => ({amount: body.amount, currency: 'AUD'}),
  }
  return {sender, posted, looked}
}

describe('a batch row rate limited past gw’s wait', () => {
  it('is reported failed (exit 9), taken back by the journal, and stops the batch with exit 9; the next run sends it once, looking nothing up', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-limited-')), 'j.sqlite')
    const references = ['r-1', 'r-2', 'r-3', 'r-4']
    const first = gateway(new Set(['r-2']))
    const reports: RowReport[] = []
    const journal = await journalAt(file)
    const end = await new BatchRunner({rows: rows(references), total: 4, sender: first.sender, journal, concurrency: 1, onRow: (report) => reports.push(report)}).run()
    expect(reports.map((report) => [report.reference, report.status, report.exitCode, report.error?.kind])).toEqual([
      ['r-1', 'approved', 0, undefined],
      ['r-2', 'failed', 9, 'rate_limited'],
    ])
    expect(reports[1]!.error).toMatchObject({status: 429, hint: 'Nothing was made: run the same command again later (the gateway asked for 2 min); it sends the purchase once.'})
    expect(end.stoppedByError).toBeInstanceOf(RateLimitedError)
    expect(end.stoppedByError).toMatchObject({exitCode: 9, kind: 'rate_limited', retryAfterMs: 120_000})
    expect(end.stoppedByError!.message).toBe('The gateway kept rate limiting the purchases past the wait gw allows each one: no more rows were started')
    expect(end.journal).toEqual({answered: 1, inDoubt: 0, notStarted: 3, failedUnsent: 1})
    await journal.close()

    const second = gateway(new Set())
    const again = await journalAt(file)
    expect(journalState(again, 4)).toMatchObject({answered: 1, inDoubt: 0, notStarted: 3})
    const rerun: RowReport[] = []
    const ended = await new BatchRunner({rows: rows(references), total: 4, sender: second.sender, journal: again, concurrency: 1, onRow: (report) => rerun.push(report)}).run()
    expect(ended.stoppedByError).toBeUndefined()
    expect(second.posted).toEqual(['r-2', 'r-3', 'r-4'])
    expect(second.looked).toEqual([])
    expect(rerun.map((report) => [report.reference, report.status, report.resumed])).toEqual([
      ['r-1', 'approved', true],
      ['r-2', 'approved', false],
      ['r-3', 'approved', false],
      ['r-4', 'approved', false],
    ])
  })
})

describe('GatewaySlots: a row sent again after the gateway’s wait journals its intent again', () => {
  const intentAt = (at: number): Intent => ({intent: 'r-1', row: 1, line: 2, request: {}, sent_at: new Date(at).toISOString()})

  it('when its intent is older than INTENT_FRESH_MS, and only while it is at the gateway', async () => {
    let now = Date.parse('2026-11-28T10:00:00Z')
    const slots = new GatewaySlots(1, new AbortController().signal, () => now)
    const journaled: number[] = []
    const journal = async () => (journaled.push(now), intentAt(now))
    let resend = () => Promise.resolve()
    const sent = slots.sending('r-1', intentAt(now), journal, async () => {
      resend = () => slots.resending('r-1')
      // The gateway said wait 1 s: the intent is fresh, not written again.
      now += 1000
      await resend()
      // Then a minute of waits: written again, with the time it leaves now; a second resend soon after is fresh again.
      now += 59_000
      await resend()
      now += INTENT_FRESH_MS
      await resend()
      return 'made'
    })
    expect(await sent).toBe('made')
    expect(journaled).toEqual([Date.parse('2026-11-28T10:01:00Z')])
    // Once its request is done, nothing is journaled for it.
    now += 3_600_000
    await slots.resending('r-1')
    await resend()
    expect(journaled).toHaveLength(1)
  })
})
