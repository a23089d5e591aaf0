import {describe, expect, it} from 'vitest'
import {settlementSums} from '../../../src/operations/settlement.js'
import {BAR_CELLS, netBar, netShares} from '../../../src/output/net-chart.js'
import {totalRows} from '../../../src/output/report-table.js'
import {settlementTotalLine} from '../../../src/output/settlement-total.js'

describe("netBar: a day's net as a bar of blocks", () => {
  it('fills the cells for the largest, in eighths for the rest, at least one eighth for any net but 0', () => {
    expect(netBar(1)).toBe('█'.repeat(BAR_CELLS))
    expect(netBar(0.5)).toBe('██████')
    expect(netBar(0.35)).toBe('████▎')
    expect(netBar(0.001)).toBe('▏')
    expect(netBar(0)).toBe('')
    expect(netBar(Number.NaN)).toBe('')
  })

  it('starts a loss with -, so it reads as one without colour', () => {
    expect(netBar(-0.75)).toBe('-█████████')
    expect(netBar(-1)).toBe(`-${'█'.repeat(BAR_CELLS)}`)
  })
})

describe('netShares: each net against the largest of its own currency', () => {
  it('scales each currency apart: amounts in two currencies are never compared', () => {
    const rows = [
      {currency: 'AUD', net: 4200},
      {currency: 'USD', net: 250},
      {currency: 'AUD', net: 12000},
      {currency: 'AUD', net: -9000},
      {currency: 'USD', net: 0},
    ]
    expect(netShares(rows)).toEqual([0.35, 1, 1, -0.75, 0])
  })

  it('draws nothing for a currency whose every day is 0', () => {
    expect(netShares([{currency: '', net: 0}, {currency: '', net: 0}])).toEqual([0, 0])
  })
})

describe("totalRows: a report's total, a row per currency", () => {
  it('adds up each count and sum of the days of one currency, never across currencies', () => {
    const rows = [
      {day: '2026-11-16', currency: 'USD', purchases_approved: 1, net: 2500},
      {day: '2026-11-16', currency: 'AUD', purchases_approved: 2, net: 4200},
      {day: '2026-11-17', currency: 'AUD', purchases_approved: 0, net: -9000},
      {day: '2026-11-17', currency: 'USD', purchases_approved: 0, net: 0},
    ]
    expect(totalRows(rows)).toEqual([
      {day: 'Total', currency: 'AUD', purchases_approved: 2, net: -4800},
      {day: 'Total', currency: 'USD', purchases_approved: 1, net: 2500},
    ])
  })
})

describe("settlementTotalLine: the total under gw purchase settlement's list", () => {
  const purchase = (amount: number, currency: string, more: Record<string, unknown> = {}) => ({successful: true, message: 'Approved', amount, currency, settlement_date: '2026-11-18', ...more})

  it('says what settles in each currency, what was captured of each purchase, and what settles nothing', () => {
    const records = [
      purchase(2500, 'CHF'),
      purchase(1000, 'chf', {captured_amount: 600}),
      purchase(1200, 'USD'),
      purchase(700, 'CHF', {message: 'Voided', captured_amount: 0}),
      purchase(10051, 'CHF', {successful: false, message: 'Insufficient Funds'}),
    ]
    expect(settlementTotalLine(settlementSums(records))).toBe('Total settling: 31.00 CHF (2 purchases), 12.00 USD (1 purchase); 1 voided and 1 declined settle nothing.\n')
    expect(settlementTotalLine(settlementSums(records.slice(0, 4)))).toBe('Total settling: 31.00 CHF (2 purchases), 12.00 USD (1 purchase); 1 voided settles nothing.\n')
    expect(settlementTotalLine(settlementSums(records.slice(3)))).toBe('Total settling: nothing; 1 voided and 1 declined settle nothing.\n')
    expect(settlementTotalLine(settlementSums([purchase(1000, 'JPY')]))).toBe('Total settling: 1000 JPY (1 purchase).\n')
  })
})
