import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {ListQuery} from '../../../src/api/client.js'
import {reportTotals} from '../../../src/operations/report.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'
import {fakeClient, fakeDeps} from '../operations/fake-client.js'

let zone: string | undefined
beforeEach(() => {
  zone = process.env.TZ
  process.env.TZ = 'Australia/Sydney'
})
afterEach(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
})

/** A day with no plan payments or debits. */
const none = {plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0}
/** Nothing voided, nothing authorized and left uncaptured. */
const unmoved = {purchases_uncaptured: 0, purchases_uncaptured_amount: 0, purchases_voided: 0, refunds_voided: 0}
const empty = {purchases_approved: 0, purchases_approved_amount: 0, purchases_declined: 0, refunds: 0, refunds_amount: 0, ...unmoved}

const page = (records: Record<string, unknown>[]) => (query: ListQuery) => ({records: query.offset === 0 ? records : [], paging: {page: 1, pages: 1, total: records.length}})

describe('reportTotals', () => {
  it('adds up each day of this machine\'s calendar and each currency: approved and declined purchases, approved refunds of either sign, net', async () => {
    const fake = fakeClient({
      'purchases.list': page([
        livePurchase,
        {...livePurchase, id: 'p2', amount: 2500, captured_amount: 2500},
        {...livePurchase, id: 'p3', successful: false, amount: 1051},
        // 23:30 UTC on the 17th is the 18th in Sydney.
        {...livePurchase, id: 'p4', transaction_date: '2026-11-17T23:30:00Z'},
        {...livePurchase, id: 'p5', currency: 'NZD'},
      ]),
      'refunds.list': page([liveRefund, {...liveRefund, id: 'r2', amount: -1000}, {...liveRefund, id: 'r3', successful: false}]),
      'paymentPlans.list': page([]),
      'directDebits.list': page([]),
    })
    const totals = await reportTotals({}, fakeDeps(fake.client), {concurrency: 2})
    expect(totals).toEqual([
      {day: '2026-11-17', currency: 'AUD', purchases_approved: 2, purchases_approved_amount: 12500, purchases_declined: 1, refunds: 2, refunds_amount: 6000, ...unmoved, ...none, net: 6500},
      {day: '2026-11-17', currency: 'NZD', purchases_approved: 1, purchases_approved_amount: 10000, purchases_declined: 0, refunds: 0, refunds_amount: 0, ...unmoved, ...none, net: 10000},
      {day: '2026-11-18', currency: 'AUD', purchases_approved: 1, purchases_approved_amount: 10000, purchases_declined: 0, refunds: 0, refunds_amount: 0, ...unmoved, ...none, net: 10000},
      // Every day in every currency the window saw: the 18th in NZD too, of nothing.
      {day: '2026-11-18', currency: 'NZD', ...empty, ...none, net: 0},
    ])
    fake.verify()
  })

  it('counts money that moved: what was captured of a purchase, no voided purchase or refund (either build\'s shape), no authorization not captured yet, each apart', async () => {
    const voided2019 = {message: 'Voided', successful: true}
    const voided2017 = {message: 'Voided', successful: false}
    const fake = fakeClient({
      'purchases.list': page([
        livePurchase,
        {...livePurchase, id: 'p-void', amount: 5000, captured_amount: 0, ...voided2019},
        {...livePurchase, id: 'p-void-2017', amount: 700, captured_amount: 0, ...voided2017},
        // An authorization of 2000 captured for 1500; one of 900 not captured yet; a void of one never captured.
        {...livePurchase, id: 'p-part', amount: 2000, captured_amount: 1500},
        {...livePurchase, id: 'p-open', amount: 900, captured: false, captured_amount: 0, settlement_date: null},
        {...livePurchase, id: 'p-open-void', amount: 300, captured: false, captured_amount: 0, settlement_date: null, ...voided2019},
        // As the contract writes a purchase: no captured fields, captured at once.
        {id: 'p-contract', amount: 400, successful: true, currency: 'AUD', transaction_date: livePurchase.transaction_date},
        {...livePurchase, id: 'p-declined', successful: false, amount: 1051, captured: false, captured_amount: 0},
      ]),
      'refunds.list': page([
        {...liveRefund, amount: 4000},
        {...liveRefund, id: 'r-void', amount: 4000, refunded: 'Voided', ...voided2019},
        {...liveRefund, id: 'r-void-2017', amount: -300, refunded: 'Voided', ...voided2017, response_code: '99'},
      ]),
      'paymentPlans.list': page([]),
      'directDebits.list': page([]),
    })
    expect(await reportTotals({}, fakeDeps(fake.client), {concurrency: 2})).toEqual([
      {
        day: '2026-11-17', currency: 'AUD', purchases_approved: 3, purchases_approved_amount: 10000 + 1500 + 400, purchases_uncaptured: 1, purchases_uncaptured_amount: 900,
        purchases_voided: 3, purchases_declined: 1, refunds: 1, refunds_amount: 4000, refunds_voided: 2, ...none, net: 10000 + 1500 + 400 - 4000,
      },
    ])
  })

  /** A plan's payment: its attempts as the gateway keeps them, the last one settling it or not. */
  const payment = (status: string, attempts: {successful: boolean; transaction_date: string}[]) => ({
    status,
    currency: null,
    records: attempts.map((attempt, index) => ({id: `071-P-${index}`, amount: 1000, currency: 'AUD', ...attempt})),
  })

  it("counts a plan's payments on the day the attempt that settled them was made, among the purchases and apart; a debit the bank completed on its process date, in cents, in net", async () => {
    const fake = fakeClient({
      'purchases.list': page([]),
      'refunds.list': page([]),
      'paymentPlans.list': page([
        {
          id: '071-PP-1',
          currency: null,
          payments: [
            payment('Completed', [{successful: true, transaction_date: '2026-11-17T09:00:00+11:00'}]),
            // Declined, then approved on the retry three days later: counted on the 20th.
            payment('Completed', [{successful: false, transaction_date: '2026-11-17T09:00:00+11:00'}, {successful: true, transaction_date: '2026-11-20T09:00:00+11:00'}]),
            payment('Declined', [{successful: false, transaction_date: '2026-11-17T09:00:00+11:00'}]),
            payment('Scheduled', []),
            // Outside the window.
            payment('Completed', [{successful: true, transaction_date: '2026-11-25T09:00:00+11:00'}]),
          ],
        },
      ]),
      'directDebits.list': page([
        {id: 'dd-1', amount: 42.42, status: 'Completed', date: '2026-11-16', process_date: '2026-11-17'},
        {id: 'dd-2', amount: 42.03, status: 'Rejected', date: '2026-11-16', process_date: '2026-11-17'},
        {id: 'dd-3', amount: 10, status: 'Pending', date: '2026-11-17', process_date: null},
        {id: 'dd-4', amount: 0.29, status: 'Completed', date: '2026-11-19', process_date: '2026-11-20'},
        {id: 'dd-5', amount: 5, status: 'Completed', date: '2026-11-23', process_date: '2026-11-24'},
      ]),
    })
    const window = {from: new Date('2026-11-17T00:00:00+11:00'), to: new Date('2026-11-21T00:00:00+11:00')}
    const totals = await reportTotals(window, fakeDeps(fake.client), {concurrency: 2})
    expect(totals).toEqual([
      {day: '2026-11-17', currency: 'AUD', ...empty, plan_payments: 1, plan_payments_amount: 1000, direct_debits: 1, direct_debits_amount: 4242, net: 4242},
      // The days between have rows of their own, of nothing.
      {day: '2026-11-18', currency: 'AUD', ...empty, ...none, net: 0},
      {day: '2026-11-19', currency: 'AUD', ...empty, ...none, net: 0},
      {day: '2026-11-20', currency: 'AUD', ...empty, plan_payments: 1, plan_payments_amount: 1000, direct_debits: 1, direct_debits_amount: 29, net: 29},
      // The window's last instant is the first of the 21st: a day of it too.
      {day: '2026-11-21', currency: 'AUD', ...empty, ...none, net: 0},
    ])
    // Neither list is dated by when each settled: both are read whole.
    expect(fake.calls.filter((call) => call.method === 'paymentPlans.list' || call.method === 'directDebits.list').map((call) => (call.args[0] as ListQuery & {from?: string}).from)).toEqual([undefined, undefined])
    fake.verify()
  })

  it('counts none apart against a gateway without a list of payment plans or direct debits, and says which', async () => {
    const {NotFoundError} = await import('../../../src/errors.js')
    const fake = fakeClient({
      'purchases.list': page([]),
      'refunds.list': page([]),
      'paymentPlans.list': () => Promise.reject(new NotFoundError('Record not found')),
      'directDebits.list': () => Promise.reject(new NotFoundError('Record not found')),
    })
    const unlisted: string[] = []
    expect(await reportTotals({}, fakeDeps(fake.client), {concurrency: 2, onUnlisted: (resource) => unlisted.push(resource)})).toEqual([])
    expect(unlisted.sort()).toEqual(['directDebits', 'paymentPlans'])
  })

  describe('every day of the window, empty ones too', () => {
    const lists = (purchases: Record<string, unknown>[]) =>
      fakeClient({'purchases.list': page(purchases), 'refunds.list': page([]), 'paymentPlans.list': page([]), 'directDebits.list': page([])})
    const zero = (day: string, currency: string) => ({day, currency, ...empty, ...none, net: 0})
    // Monday 16 to Sunday 22 November 2026, in Sydney.
    const week = {from: new Date('2026-11-16T00:00:00+11:00'), to: new Date('2026-11-22T23:59:59.999+11:00')}

    it('gives a day with nothing a row of zeros in each currency the window saw, every day in every one', async () => {
      const fake = lists([{...livePurchase, transaction_date: '2026-11-17T10:00:00+11:00'}, {...livePurchase, id: 'p2', currency: 'NZD', transaction_date: '2026-11-19T10:00:00+11:00'}])
      const totals = await reportTotals(week, fakeDeps(fake.client), {concurrency: 2, now: new Date('2026-11-30T12:00:00+11:00')})
      expect(totals.map((row) => `${row.day} ${row.currency} ${row.net}`)).toEqual(
        ['16', '17', '18', '19', '20', '21', '22'].flatMap((day) => [`2026-11-${day} AUD ${day === '17' ? 10000 : 0}`, `2026-11-${day} NZD ${day === '19' ? 10000 : 0}`]),
      )
      expect(totals[0]).toEqual(zero('2026-11-16', 'AUD'))
    })

    it("runs to the gateway's today, not into days yet to come; a window that saw no currency has rows in none", async () => {
      const totals = await reportTotals(week, fakeDeps(lists([]).client), {concurrency: 2, now: new Date('2026-11-18T09:00:00+11:00')})
      expect(totals).toEqual([zero('2026-11-16', ''), zero('2026-11-17', ''), zero('2026-11-18', '')])
    })

    it("counts days in the window's calendar: 23:30 UTC on the 17th is Sydney's 18th", async () => {
      const fake = lists([{...livePurchase, transaction_date: '2026-11-17T23:30:00Z'}])
      const window = {from: new Date('2026-11-18T00:00:00+11:00'), to: new Date('2026-11-19T23:59:59.999+11:00')}
      const totals = await reportTotals(window, fakeDeps(fake.client), {concurrency: 2, now: new Date('2026-11-30T00:00:00+11:00')})
      expect(totals.map((row) => `${row.day} ${row.net}`)).toEqual(['2026-11-18 10000', '2026-11-19 0'])
    })

    it('starts a window without a first day at its first row, and one from an age at the day that age falls on', async () => {
      const fake = lists([{...livePurchase, transaction_date: '2026-11-20T10:00:00+11:00'}])
      const now = new Date('2026-11-22T12:00:00+11:00')
      expect((await reportTotals({to: now}, fakeDeps(fake.client), {concurrency: 2, now})).map((row) => row.day)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22'])
      const age = {from: new Date(now.getTime() - 3 * 86_400_000)}
      expect((await reportTotals(age, fakeDeps(lists([]).client), {concurrency: 2, now})).map((row) => row.day)).toEqual(['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'])
    })
  })
})
