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

const page = (records: Record<string, unknown>[]) => (query: ListQuery) => ({records: query.offset === 0 ? records : [], paging: {page: 1, pages: 1, total: records.length}})

describe('reportTotals', () => {
  it('adds up each day of this machine\'s calendar and each currency: approved and declined purchases, approved refunds of either sign, net', async () => {
    const fake = fakeClient({
      'purchases.list': page([
        livePurchase,
        {...livePurchase, id: 'p2', amount: 2500},
        {...livePurchase, id: 'p3', successful: false, amount: 1051},
        // 23:30 UTC on the 17th is the 18th in Sydney.
        {...livePurchase, id: 'p4', transaction_date: '2026-11-17T23:30:00Z'},
        {...livePurchase, id: 'p5', currency: 'NZD'},
      ]),
      'refunds.list': page([liveRefund, {...liveRefund, id: 'r2', amount: -1000}, {...liveRefund, id: 'r3', successful: false}]),
    })
    const totals = await reportTotals({}, fakeDeps(fake.client), {concurrency: 2})
    expect(totals).toEqual([
      {day: '2026-11-17', currency: 'AUD', purchases_approved: 2, purchases_approved_amount: 12500, purchases_declined: 1, refunds: 2, refunds_amount: 6000, net: 6500},
      {day: '2026-11-17', currency: 'NZD', purchases_approved: 1, purchases_approved_amount: 10000, purchases_declined: 0, refunds: 0, refunds_amount: 0, net: 10000},
      {day: '2026-11-18', currency: 'AUD', purchases_approved: 1, purchases_approved_amount: 10000, purchases_declined: 0, refunds: 0, refunds_amount: 0, net: 10000},
    ])
    fake.verify()
  })
})
