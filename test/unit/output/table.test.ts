import {describe, expect, it} from 'vitest'
import type {Column} from '../../../src/output/columns.js'
import {columnsFor} from '../../../src/output/fields.js'
import {fieldList, fitColumns, recordsTable} from '../../../src/output/table.js'
import {formsOf} from '../../../src/output/table-forms.js'
import {displayWidth, truncate, wrap} from '../../../src/output/text-width.js'

describe('text widths', () => {
  it('counts colour codes as nothing and wide characters as two', () => {
    expect(displayWidth('\u001B[32mApproved\u001B[39m')).toBe(8)
    expect(displayWidth('山田 Zoë')).toBe(8)
    // One emoji drawn from three (woman, zero-width joiner, laptop), and a flag from two letters.
    expect(displayWidth('👩\u200D💻 ok')).toBe(5)
    expect(displayWidth('🇦🇺')).toBe(2)
  })

  it('cuts with … to the width, closing a colour it cut into', () => {
    expect(truncate('order-1001-abc', 8)).toBe('order-1…')
    expect(truncate('short', 8)).toBe('short')
    expect(truncate('山田太郎', 5)).toBe('山田…')
    expect(truncate('山田太郎', 4)).toBe('山…')
    expect(truncate('\u001B[31mInsufficient Funds\u001B[39m', 6)).toBe('\u001B[31mInsuf\u001B[39m…')
  })

  it('wraps at spaces when it can, mid-word when it cannot', () => {
    expect(wrap('Insufficient funds in the account', 12)).toEqual(['Insufficient', 'funds in the', 'account'])
    expect(wrap('071-P-ABCDEFGHIJKL', 8)).toEqual(['071-P-AB', 'CDEFGHIJ', 'KL'])
  })
})

describe('fitColumns', () => {
  it('keeps natural widths when they fit', () => {
    expect(fitColumns([5, 10, 3], 40)).toEqual({widths: [5, 10, 3], kept: 3})
  })

  it('narrows the widest columns first, keeping short ones whole', () => {
    // 50 columns: 4 borders and 6 spaces of padding leave 40 for content.
    expect(fitColumns([9, 40, 30], 50)).toEqual({widths: [9, 16, 15], kept: 3})
  })

  it('keeps the first column, which names the row, whole when it takes up to half the width', () => {
    expect(fitColumns([20, 40, 40], 60).widths[0]).toBe(20)
    expect(fitColumns([50, 40], 60).widths).toEqual([30, 23])
  })

  it('keeps another column whole in its place when told it names the row (the id at the end of a purchase list)', () => {
    expect(fitColumns([30, 40, 14], 50, 2)).toEqual({widths: [13, 13, 14], kept: 3})
    // Told nothing, the first is kept whole (up to half the width) and the id does not fit.
    expect(fitColumns([30, 40, 14], 50)).toEqual({widths: [25, 18], kept: 2})
  })

  it('leaves columns out from the end when even narrow ones cannot fit', () => {
    // 20 + 15 + 15 of content, 3 columns of borders and padding: 60.
    expect(fitColumns(Array(12).fill(20), 60)).toEqual({widths: [20, 15, 15], kept: 3})
  })
})

const columns: Column[] = [
  {label: 'Id', field: 'id'},
  {label: 'Name', field: 'name'},
  {label: 'Description', field: 'description'},
  {label: 'Amount', field: 'amount', format: 'money'},
]

describe('recordsTable', () => {
  const listed: Column[] = [
    {label: 'Date', field: 'date'},
    {label: 'Reference', field: 'reference', need: 'most'},
    {label: 'Outcome', field: 'message', need: 'always'},
    {label: 'Id', field: 'id', need: 'id'},
    {label: 'Holder', field: 'holder', need: 'sometimes'},
  ]
  const records = [{date: '2026-11-25 07:44', reference: 'order-with-a-long-reference', message: 'Insufficient Funds', id: '071-P-ANQ59K4U', holder: 'Jane Citizen'}]
  const at = (width: number) => recordsTable(records, listed, {color: false, width})

  it('leaves out the columns needed less, without a word, before one needed more is cut', () => {
    expect(at(80).leftOut).toEqual(['Holder', 'Date'])
    expect(at(80).missed).toEqual([])
    expect(at(80).text).toContain('│ order-with-a-long-reference │ Insufficient Funds │ 071-P-ANQ59K4U │\n')
    // Narrower, what matters is cut before it goes.
    expect(at(60).text).toContain('│ order-with-a-long… │ Insufficient Funds │ 071-P-ANQ59K4U │\n')
    expect(at(60).missed).toEqual([])
  })

  it('leaves the id the next command takes out last but the outcome, and whole, though it comes after the others; the outcome never', () => {
    expect(at(45).leftOut).toEqual(['Holder', 'Date', 'Reference'])
    expect(at(45).missed).toEqual(['Reference'])
    expect(at(45).text).toContain('│ Insufficient Funds │ 071-P-ANQ59K4U │\n')
    expect(at(30).missed).toEqual(['Reference', 'Id'])
    expect(at(30).text).toContain('│ Insufficient Funds │\n')
    expect(at(12).text).toContain('│ Insuffi… │\n')
  })

  it('names every column asked for by name (--fields) that is left out, the last first', () => {
    const asked = columnsFor(listed, ['holder', 'date', 'reference'])
    const table = recordsTable(records, asked, {color: false, width: 40})
    expect(table.leftOut).toEqual(['Reference'])
    expect(table.missed).toEqual(['Reference'])
  })

  it.each([20, 30, 45, 60, 80, 120])('no line is wider than %i columns', (width) => {
    const records = Array.from({length: 5}, (_, i) => ({id: `plan-${i}`, name: `Gold ${'plan '.repeat(i * 3)}`, description: 'x'.repeat(i * 40), amount: 1000 * i, currency: 'AUD'}))
    const {text} = recordsTable(records, columns, {color: true, width})
    expect(text).toContain('plan-4')
    for (const line of text.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(width)
  })

  it('shows a nested value as compact JSON cut to its column, never one giant cell', () => {
    const {text} = recordsTable([{id: 'e1', name: {deep: {payload: 'y'.repeat(900)}}}], columns.slice(0, 2), {color: false, width: 40})
    for (const line of text.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40)
    expect(text).toContain('{"deep":{"payload":"yyy')
  })
})

describe('a table of dates and times', () => {
  const dated: Column[] = [
    {label: 'Date', field: 'date', format: 'datetime'},
    {label: 'Reference', field: 'reference', need: 'most'},
    {label: 'Id', field: 'id', need: 'id'},
  ]
  const on = (date: string, reference = 'order-2001') => ({date, reference, id: '071-P-G9331UE0'})

  it('shortens them to what fits before cutting or leaving out anything: without the year, said once in the header', () => {
    const records = [on('2026-11-25T15:04:12+11:00'), on('2026-11-26T09:00:00+11:00')]
    const header = (width: number) => recordsTable(records, dated, {color: false, width}).text.split('\n')[1]
    expect(header(50)).toBe('│ Date             │ Reference  │ Id             │')
    const narrow = recordsTable(records, dated, {color: false, width: 46})
    expect(narrow.text.split('\n')[1]).toBe('│ Date (2026) │ Reference  │ Id             │')
    expect(narrow.text).toContain('│ 11-25 15:04 │ order-2001 │ 071-P-G9331UE0 │')
    expect(narrow.leftOut).toEqual([])
    // Narrower still, the date goes, without a word, before the reference is cut.
    const narrower = recordsTable(records, dated, {color: false, width: 42})
    expect(narrower.text).toContain('│ order-2001 │ 071-P-G9331UE0 │')
    expect(narrower).toMatchObject({leftOut: ['Date'], missed: []})
  })

  it('cuts a date that must stay only once it is as short as it goes', () => {
    const kept: Column[] = [{...dated[0]!, need: 'always'}]
    expect(recordsTable([on('2026-11-25T15:04:12+11:00')], kept, {color: false, width: 12}).text).toContain('│ 11-25 1… │')
  })

  it('keeps the day alone when the rows span years', () => {
    const forms = formsOf(dated[0]!, [], ['2025-12-31 23:59', '2026-01-01 00:01', ''])
    expect(forms.map(({label, cells}) => [label, ...cells])).toEqual([
      ['Date', '2025-12-31 23:59', '2026-01-01 00:01', ''],
      ['Date', '2025-12-31', '2026-01-01', ''],
    ])
  })

  it('has no shorter form for values that are not dates and times as gw shows them', () => {
    expect(formsOf(dated[0]!, [], ['2026-11-25 15:04', 'yesterday'])).toHaveLength(1)
    expect(formsOf(dated[1]!, [], ['2026-11-25 15:04'])).toHaveLength(1)
  })

  it("keeps a refund's match as its word when the reason does not fit", () => {
    const match: Column = {label: 'Match', field: 'gw_match', format: 'match', need: 'always'}
    const records = [{gw_match: {match: 'certain', by: 'refund_create'}}, {gw_match: {match: 'other_purchase', other_purchase: 'order-7'}}]
    expect(formsOf(match, records, ["certain (made by gw)", 'of order-7 (likely: )'])[1]!.cells).toEqual(['certain', 'of order-7'])
    // A voided one, or one of no purchase, keeps that word too.
    const more = [{gw_match: {match: 'certain', by: 'refund_create', voided: true}}, {gw_match: {match: 'unmatched', by: 'standalone'}}]
    expect(formsOf(match, more, ["certain (made by gw), voided: not counted", "of no purchase (unmatched: the gateway's standalone)"])[1]!.cells).toEqual(['certain, voided', 'unmatched'])
  })
})

describe('fieldList', () => {
  it('no line is wider than the terminal, long values wrapped under the value column', () => {
    const text = fieldList({id: 'p1', name: 'Gold', description: 'word '.repeat(50).trim()}, columns, {color: false, width: 40})
    const out = text.trimEnd().split('\n')
    for (const line of out) expect(displayWidth(line)).toBeLessThanOrEqual(40)
    expect(out[0]).toBe('Id           p1')
    expect(out[2]).toMatch(/^Description {2}word word/)
    expect(out[3]).toMatch(/^ {13}word/)
  })
})
