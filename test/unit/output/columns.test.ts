import {describe, expect, it} from 'vitest'
import {profileColumns} from '../../../src/auth/columns.js'
import * as declared from '../../../src/output/columns.js'
import {type Column, deliveryColumns, purchaseColumns, refundColumns, reportColumns} from '../../../src/output/columns.js'
import {recordsTable} from '../../../src/output/table.js'
import {displayWidth} from '../../../src/output/text-width.js'

// Each table keeps the columns its task needs when the terminal is narrow.
const header = (text: string) => text.split('\n')[1]!.split('│').map((cell) => cell.trim()).filter(Boolean)

describe('the columns each table keeps', () => {
  it("gw report keeps Net and Refunded at 80 and 100 columns, with a busy day's sums; the counts go first, declines last", () => {
    const day = {day: '2026-11-17', currency: 'AUD', purchases_approved: 1280, purchases_approved_amount: 12_345_678, purchases_declined: 117, refunds: 42, refunds_amount: 345_600, net: 12_000_078}
    const at80 = recordsTable([day], reportColumns, {color: false, width: 80})
    expect(header(at80.text)).toEqual(['Day', 'Currency', 'Approved amount', 'Refunded', 'Net'])
    expect(at80.text).toContain('│ 2026-11-17 │ AUD      │ 123456.78 AUD   │ 3456.00 AUD │ 120000.78 AUD │')
    expect(at80.leftOut).toEqual(['Refunds', 'Approved', 'Declined'])
    const at100 = recordsTable([day], reportColumns, {color: false, width: 100})
    expect(header(at100.text)).toEqual(['Day', 'Currency', 'Approved', 'Approved amount', 'Declined', 'Refunded', 'Net'])
    expect(at100.leftOut).toEqual(['Refunds'])
    const quiet = recordsTable([{...day, purchases_approved_amount: 64_500, refunds_amount: 5000, net: 59_500}], reportColumns, {color: false, width: 80})
    expect(header(quiet.text)).toEqual(['Day', 'Currency', 'Approved amount', 'Declined', 'Refunded', 'Net'])
    // At 60 the currency goes, without a word: each sum names it.
    const at60 = recordsTable([day], reportColumns, {color: false, width: 60})
    expect(header(at60.text)).toEqual(['Day', 'Approved amo…', 'Refunded', 'Net'])
    expect(at60.text).toContain('│ 2026-11-17 │ 123456.78 AUD │ 3456.00 AUD │ 120000.78 AUD │')
    expect(at60.missed).toEqual([])
    // Authorizations left uncaptured and voids are shown apart, where there is room, and go first.
    const apart = {...day, purchases_uncaptured: 3, purchases_uncaptured_amount: 90_000, purchases_voided: 2, refunds_voided: 1}
    expect(header(recordsTable([apart], reportColumns, {color: false, width: 200}).text)).toEqual(['Day', 'Currency', 'Approved', 'Approved amount', 'Uncaptured', 'Voided', 'Declined', 'Refunds', 'Refunded', 'Refunds voided', 'Net'])
    expect(header(recordsTable([apart], reportColumns, {color: false, width: 80}).text)).toEqual(['Day', 'Currency', 'Approved amount', 'Refunded', 'Net'])
  })

  it('gw sandbox deliveries keeps the address at 80 columns, the id (a UUID) going first; at 100 the attempts come back', () => {
    const delivery = {
      id: 'f4594078-2ab2-4624-ad2e-2cc1f1c589b6', event: 'card:expiring', status: 'failed', hook: 'https://shop.example.com/hooks/gw',
      attempts: 8, last_answer: 'HTTP 500', last_attempt_at: '2026-11-17T09:31:02.123Z',
    }
    const at80 = recordsTable([delivery], deliveryColumns, {color: false, width: 80})
    expect(header(at80.text)).toEqual(['Event', 'Status', 'Address', 'Last answer'])
    expect(at80.text).toContain('│ https://shop.example.com/hooks/gw │')
    expect(at80.leftOut).toEqual(['Last attempt', 'Attempts', 'Id'])
    const at100 = recordsTable([delivery], deliveryColumns, {color: false, width: 100})
    expect(header(at100.text)).toEqual(['Event', 'Status', 'Address', 'Last answer', 'Attempts'])
    expect(at100.leftOut).toEqual(['Last attempt', 'Id'])
    const at160 = recordsTable([delivery], deliveryColumns, {color: false, width: 160})
    expect(header(at160.text)).toEqual(['Id', 'Event', 'Status', 'Address', 'Last answer', 'Attempts', 'Last attempt'])
    expect(at160.text).toContain('│ 2026-11-17 09:31 │')
  })

  it.each([
    ['purchase', purchaseColumns],
    ['refund', refundColumns],
  ])('a %s list keeps the id before the card holder, and shows it first', (_, columns) => {
    const record = {transaction_date: '2026-11-17T10:31:02+11:00', reference: 'order-2026-11-17-0001', amount: 1000, currency: 'AUD', successful: true, message: 'Approved', card_number: '424242XXXXXX4242', id: '071-P-ABCDEFGH', card_holder: 'Jane Q Citizen'}
    const at100 = recordsTable([record], columns, {color: false, width: 100})
    expect(header(at100.text)).toEqual(['Date', 'Reference', 'Amount', 'Outcome', 'Card', 'Id'])
    expect(at100.leftOut).toEqual(['Card holder'])
    const at120 = recordsTable([record], columns, {color: false, width: 120})
    expect(header(at120.text)).toEqual(['Date', 'Reference', 'Amount', 'Outcome', 'Card', 'Id', 'Card holder'])
  })
})

describe('every table of gw', () => {
  const tables = Object.entries(declared).filter((entry): entry is [string, Column[]] => Array.isArray(entry[1]) && typeof entry[1][0] === 'object')
  tables.push(['profileColumns', profileColumns])
  // A record with every field a table shows, each as long as real ones run.
  const recordFor = (columns: Column[]) =>
    Object.fromEntries(columns.map(({field, format}) => [field, format === 'money' || format === 'refund-money' ? 1_234_567 : format === 'datetime' ? '2026-11-25T15:04:12+11:00' : format === 'card' ? '424242XXXXXX4242' : format === 'boolean' ? true : `${field}-value-long-enough`]))

  it.each(tables.flatMap(([name, columns]) => [40, 60, 120].map((width) => [name, width, columns] as const)))('%s at %i columns: no line wider, every column needed always shown, and a note only for those that matter', (_, width, columns) => {
    const record = {...recordFor(columns), currency: 'AUD', successful: false, message: 'Insufficient Funds'}
    const {text, leftOut, missed} = recordsTable([record, record], columns, {color: false, width})
    for (const line of text.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(width)
    for (const column of columns.filter(({need}) => need === 'always')) expect(header(text)).toContain(column.label)
    expect(missed).toEqual(leftOut.filter((label) => ['most', 'id', 'always'].includes(columns.find((column) => column.label === label)!.need ?? 'often')))
  })

  it('declares what matters most in every table of records a person looks up: the outcome always, the id kept whole', () => {
    for (const columns of [purchaseColumns, refundColumns]) {
      expect(columns.filter(({need}) => need === 'always').map(({label}) => label)).toEqual(['Outcome'])
      expect(columns.filter(({need}) => need === 'id').map(({label}) => label)).toEqual(['Id'])
      expect(columns.filter(({need}) => need === 'most').map(({label}) => label)).toEqual(['Reference', 'Amount', 'Card'])
    }
  })

  it("shows a refund's amount with one sign whichever gateway answered: the interface's negative and the live gateway's positive alike", () => {
    const refund = {transaction_date: '2026-11-25T15:04:12+11:00', reference: 'r-1', currency: 'AUD', successful: true, message: 'Approved', id: '071-R-1'}
    const contract = recordsTable([{...refund, amount: -1000}], refundColumns, {color: false, width: 120})
    const live = recordsTable([{...refund, amount: 1000}], refundColumns, {color: false, width: 120})
    expect(contract.text).toContain('│ 10.00 AUD │')
    expect(live.text).toBe(contract.text)
  })
})

describe('a payment plan made without a currency', () => {
  it('shows its amounts as a batch summary does, saying the currency is not known; one with a currency names it', async () => {
    const {paymentPlanColumns} = await import('../../../src/output/payment-columns.js')
    const {countedPlan, perpetualPlan} = await import('../../fixtures/recorded-plans-debits.js')
    const plain = recordsTable([countedPlan], paymentPlanColumns, {color: false, width: 200}).text
    expect(plain).toContain('1.00 (currency not known)')
    expect(plain).toContain('0.00 (currency not known)')
    expect(recordsTable([perpetualPlan], paymentPlanColumns, {color: false, width: 200}).text).toContain('1.00 AUD')
  })
})
