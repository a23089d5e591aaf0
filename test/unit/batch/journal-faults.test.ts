import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {Journal, type JournalDisk} from '../../../src/batch/journal.js'
import type {RowSender} from '../../../src/batch/kinds.js'
import type {RowReport} from '../../../src/batch/row-reports.js'
import {BatchRunner} from '../../../src/batch/runner.js'
import {NotFoundError} from '../../../src/errors.js'
import {findEarlier, type MoneyRequest, sendOnce} from '../../../src/operations/money.js'

// A journal that cannot be written stops the batch (design.md §5), tried in the manner of SQLite's
// I/O-error tests: a 12-row refund batch whose journal's Nth write (then, in a second series, its
// Nth commit) fails with EIO, for every N until a run completes untouched. Every run ends
// stopped by the error or complete; the rerun without the fault finishes the batch, and the
// gateway has every row exactly once.
type Body = {reference: string; amount: number}
const REFERENCES = Array.from({length: 12}, (_, i) => `r-${i + 1}`)

/** A pretend gateway that keeps what it was sent, by reference, and counts every send. */
function gateway() {
  const held = new Map<string, Record<string, unknown>>()
  const sends = new Map<string, number>()
  const request = (body: Body): MoneyRequest => ({
    noun: 'purchase',
    body,
    post: async () => {
      sends.set(body.reference, (sends.get(body.reference) ?? 0) + 1)
      await new Promise((resolve) => setTimeout(resolve, 1))
      const record = {reference: body.reference, amount: body.amount, successful: true}
      held.set(body.reference, record)
      return {record, raw: {status: 200}}
    },
    lookUp: async (reference) => {
      const record = held.get(reference)
      if (!record) throw new NotFoundError('Purchase not found', {status: 404})
      return record
    },
    lookups: {cardToken: () => Promise.reject(new Error('none')), purchase: () => Promise.reject(new Error('none'))},
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
  return {sender, sends, held}
}

/** The real disk, but the `nth` write fails with EIO: before its entries are inserted (`write`), or at its commit, once they are (`commit`). */
function failing(which: 'write' | 'commit', nth: number): Partial<JournalDisk> & {calls: () => number} {
  let calls = 0
  const eio = () => Object.assign(new Error('EIO: i/o error'), {code: 'EIO'})
  return {
    calls: () => calls,
    append(file, lines) {
      if (which === 'write' && ++calls === nth) throw eio()
      return file.append(lines, () => {
        if (which === 'commit' && ++calls === nth) throw eio()
      })
    },
  }
}

async function* rows() {
  for (const [i, reference] of REFERENCES.entries()) yield {row: i + 1, line: i + 2, reference, input: {reference, amount: 100}}
}

async function runOnce(path: string, sender: RowSender<Body, Body>, disk?: Partial<JournalDisk>): Promise<{reports: RowReport[]; stopped: boolean; opened: boolean}> {
  const reports: RowReport[] = []
  let journal: Journal
  try {
    journal = await Journal.open(path, {command: 'purchase create', input: {sha256: 'a'}, now: new Date(), target: {base_url: 'http://gw', username: 'TEST'}, disk})
  } catch {
    // The header could not be written: nothing was sent.
    return {reports, stopped: true, opened: false}
  }
  try {
    const end = await new BatchRunner({rows: rows(), total: REFERENCES.length, sender, journal, concurrency: 3, onRow: (report) => reports.push(report)}).run()
    return {reports, stopped: end.stoppedByError !== undefined, opened: true}
  } finally {
    await journal.close().catch(() => {})
  }
}

describe.each(['write', 'commit'] as const)('the Nth journal %s fails with EIO', (which) => {
  it('for every N: the run stops with the error or completes; the rerun finishes it, every row sent exactly once', async () => {
    let untouched = false
    let positions = 0
    for (let nth = 1; !untouched; nth++) {
      positions = nth
      const path = join(mkdtempSync(join(tmpdir(), 'gw-faults-')), 'j.ndjson')
      const {sender, sends} = gateway()
      const disk = failing(which, nth)
      const first = await runOnce(path, sender, disk)
      untouched = disk.calls() < nth
      // Stopped by the fault, or (the fault never came) complete: never a quiet half of the batch.
      if (!first.stopped) expect(first.reports.map((report) => report.status)).toEqual(Array(12).fill('approved'))
      // Every row reported approved was sent; no row was reported that was not.
      for (const report of first.reports) if (report.status === 'approved') expect(sends.get(report.reference!)).toBe(1)

      const again = await runOnce(path, sender)
      expect(again.stopped, `rerun after the ${which} #${nth} failed`).toBe(false)
      expect(again.reports.map((report) => report.status).sort()).toEqual(Array(12).fill('approved'))
      expect(REFERENCES.map((reference) => sends.get(reference)), `sends after the ${which} #${nth} failed`).toEqual(Array(12).fill(1))
      expect(nth).toBeLessThan(100)
    }
    // A header, then intents and results grouped: every place the journal writes was failed once.
    expect(positions).toBeGreaterThan(4)
  }, 60_000)
})
