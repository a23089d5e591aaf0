import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {journaledReferences, type RowPlace, withJournaledReferences} from '../../../src/batch/journaled-references.js'
import {openBatch} from '../../../src/batch/read.js'
import {refundBatch} from '../../../src/batch/refund-kind.js'
import {refundRows, type Scan, scanRows, validRows} from '../../../src/batch/rows.js'
import type {RefundInput} from '../../../src/operations/refunds.js'

const fileOf = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-journaled-references-')), 'batch')
  writeFileSync(path, text)
  return path
}

describe('the references an earlier run journaled for rows that give none', () => {
  /** The references of a file's refund rows, as a run after the journal's (`intents`) sends them. */
  async function referencesOf(path: string, scan: Scan<RefundInput>, intents: Parameters<typeof journaledReferences>[0], place: RowPlace, asked = refundBatch.preview): Promise<string[]> {
    const journaled = await journaledReferences(intents, asked, place, async () => validRows(await openBatch(path), scan))
    const references: string[] = []
    for await (const row of withJournaledReferences(validRows(await openBatch(path), scan), journaled)) references.push(row.input.reference ?? '')
    return references
  }

  it('in a file edited since, a row whose reference is made when sent takes one the journal derived for a row of its purchase, in order, and only such a row', async () => {
    const path = fileOf('transaction_id,amount,reference\n071-P-A,100,\n071-P-A,200,\n071-P-B,300,given\n071-P-C,400,\n071-P-D,500,\n')
    const scan = await scanRows(await openBatch(path), refundRows, 'r.csv')
    const sent = (transaction_id: string, amount: number, reference: string) => ({transaction_id, amount, reference})
    const intents = new Map([
      // Sent from line 5 for 200 of A: the row on line 3 now, moved up by a line removed.
      ['order-7-R2', {row: 4, line: 5, request: sent('071-P-A', 200, 'order-7-R2')}],
      // Sent from line 2 for 150 of A: the row on line 2, edited since (refused as changed later).
      ['order-7-R1', {row: 1, line: 2, request: sent('071-P-A', 150, 'order-7-R1')}],
      ['given', {row: 3, line: 4, request: sent('071-P-B', 300, 'given')}],
      // Line 5 refunded another purchase then (next month's file at the same path): line 5's row is another.
      ['order-2-R1', {row: 6, line: 7, request: sent('071-P-Z', 400, 'order-2-R1'), asked: {transaction_id: '071-P-Z'}}],
      // A reference a row gave then, of the derived shape: that row's, never taken for a row that gives none.
      ['order-9-R1', {row: 8, line: 9, request: sent('071-P-D', 500, 'order-9-R1')}],
      ['elsewhere', {row: 9, line: 10, request: sent('071-P-C', 400, 'elsewhere')}],
      // Derived for B's row then: the row that gives a reference now keeps its own.
      ['order-8-R1', {row: 10, line: 11, request: sent('071-P-B', 300, 'order-8-R1')}],
    ])
    expect(await referencesOf(path, scan, intents, {by: 'order', given: new Set(['given'])})).toEqual(['order-7-R1', 'order-7-R2', 'given', '', 'order-9-R1'])
    expect(await referencesOf(path, scan, intents, {by: 'order', given: new Set(['given', 'order-9-R1'])})).toEqual(['order-7-R1', 'order-7-R2', 'given', '', ''])
  })

  it('in a file edited since, the rows of a purchase take its references: rows asking for the same as one sent first (from their line first), then rows edited since (from their line, else the first left)', async () => {
    const sent = (line: number, amount: number) => ({row: line - 1, line, request: {transaction_id: '071-P-A', amount, reference: `order-7-R${line - 1}`}})
    const intents = new Map([sent(2, 100), sent(3, 200), sent(4, 300)].map((intent) => [intent.request.reference, intent]))
    const referencesIn = async (text: string) => {
      const path = fileOf(`transaction_id,amount,reference\n${text}`)
      return referencesOf(path, await scanRows(await openBatch(path), refundRows, 'r.csv'), intents, {by: 'order', given: new Set()})
    }
    // Line 2 removed: the rows below it are the rows they were.
    expect(await referencesIn('071-P-A,200,\n071-P-A,300,\n')).toEqual(['order-7-R2', 'order-7-R3'])
    // A row added above them: a new row, which takes no reference of theirs.
    expect(await referencesIn('071-P-A,50,\n071-P-A,100,\n071-P-A,200,\n071-P-A,300,\n')).toEqual(['', 'order-7-R1', 'order-7-R2', 'order-7-R3'])
    // Line 3 edited: the reference sent from its line, under which it is refused as changed.
    expect(await referencesIn('071-P-A,100,\n071-P-A,250,\n071-P-A,300,\n')).toEqual(['order-7-R1', 'order-7-R2', 'order-7-R3'])
    // The rows in another order: each the one asking for the same.
    expect(await referencesIn('071-P-A,300,\n071-P-A,100,\n071-P-A,200,\n')).toEqual(['order-7-R3', 'order-7-R1', 'order-7-R2'])
    // A row removed and another edited: the one asking for the same first, then the one sent from the edited row's line.
    expect(await referencesIn('071-P-A,250,\n071-P-A,300,\n')).toEqual(['order-7-R1', 'order-7-R3'])
    // Edited, on a line nothing was sent from: the first left.
    expect(await referencesIn('071-P-A,100,\n071-P-A,300,\n071-P-A,250,\n')).toEqual(['order-7-R1', 'order-7-R3', 'order-7-R2'])
    // Edited, on a line something was sent from: that one, though another is left before it.
    expect(await referencesIn('071-P-A,300,\n071-P-A,250,\n')).toEqual(['order-7-R3', 'order-7-R2'])
  })

  it('in a file edited since, a row asking for the same as two sent takes the one sent from its line, leaving the other to the row edited on its line', async () => {
    const path = fileOf('transaction_id,amount,reference\n071-P-A,50,\n071-P-A,100,\n')
    const sent = (line: number) => ({row: line - 1, line, request: {transaction_id: '071-P-A', amount: 100, reference: `order-7-R${line - 1}`}})
    const intents = new Map([sent(2), sent(3)].map((intent) => [intent.request.reference, intent]))
    expect(await referencesOf(path, await scanRows(await openBatch(path), refundRows, 'r.csv'), intents, {by: 'order', given: new Set()})).toEqual(['order-7-R1', 'order-7-R2'])
  })

  it('in a file edited since, the references left are taken in the order of the rows they were sent for, whatever the journal’s order', async () => {
    const path = fileOf('transaction_id,amount,reference\n071-P-C,1,\n071-P-C,2,\n071-P-C,3,\n071-P-A,150,\n')
    const sent = (row: number, amount: number) => ({row, line: row + 1, request: {transaction_id: '071-P-A', amount, reference: `order-7-R${row}`}})
    const intents = new Map([sent(3, 300), sent(2, 200), sent(1, 100)].map((intent) => [intent.request.reference, intent]))
    expect(await referencesOf(path, await scanRows(await openBatch(path), refundRows, 'r.csv'), intents, {by: 'order', given: new Set()})).toEqual(['', '', '', 'order-7-R1'])
  })

  it('in a file edited since, a field a row leaves blank is no field, as the journal keeps it: the row asks for the same', async () => {
    const path = fileOf('transaction_id,amount,reference\n071-P-A,200,\n071-P-A,100,\n')
    const scan = await scanRows(await openBatch(path), refundRows, 'r.csv')
    const sent = (line: number, amount: number) => ({row: line - 1, line, request: {transaction_id: '071-P-A', amount, reference: `order-7-R${line - 1}`}})
    const intents = new Map([sent(2, 100), sent(3, 200)].map((intent) => [intent.request.reference, intent]))
    const withBlank = (input: RefundInput) => ({...refundBatch.preview(input), note: undefined})
    expect(await referencesOf(path, scan, intents, {by: 'order', given: new Set()}, withBlank)).toEqual(['order-7-R2', 'order-7-R1'])
  })

  it('in a file edited since, the file is not read again where the journal derived no reference for a row', async () => {
    const intents = new Map([['given', {row: 1, line: 2, request: {transaction_id: '071-P-A', amount: 100, reference: 'given'}}]])
    const journaled = await journaledReferences(intents, refundBatch.preview, {by: 'order', given: new Set()}, () => Promise.reject(new Error('the file was read again')))
    expect(journaled.of({row: 1, line: 2, reference: '', input: {transactionId: '071-P-A', amount: 100}})).toBeUndefined()
  })

  it('withJournaledReferences by row: the journal’s rows on other lines (blank lines, a byte order mark) each take the reference of their place among the rows', async () => {
    const path = fileOf('\uFEFF\r\ntransaction_id,amount,reference\r\n\r\n071-P-A,100,\r\n\r\n071-P-A,200,\r\n071-P-B,300,\r\n')
    const scan = await scanRows(await openBatch(path), refundRows, 'r.csv')
    const sent = (transaction_id: string, amount: number, reference: string) => ({transaction_id, amount, reference})
    // As an earlier run journaled them from the file without its blank lines: rows 1 to 3 on lines 2 to 4.
    const intents = new Map([
      ['order-7-R1', {row: 1, line: 2, request: sent('071-P-A', 100, 'order-7-R1')}],
      ['order-7-R2', {row: 2, line: 3, request: sent('071-P-A', 200, 'order-7-R2')}],
      ['order-8-R1', {row: 3, line: 4, request: sent('071-P-B', 300, 'order-8-R1')}],
      // Row 4 of the journal's rows refunded another purchase: no row of these.
      ['order-5-R1', {row: 4, line: 5, request: sent('071-P-Z', 300, 'order-5-R1')}],
    ])
    expect(await referencesOf(path, scan, intents, {by: 'row'})).toEqual(['order-7-R1', 'order-7-R2', 'order-8-R1'])
  })
})
