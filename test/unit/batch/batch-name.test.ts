import {describe, expect, it} from 'vitest'
import {batchName, MADE_BY, madeBy, madeByMark, newBatchName} from '../../../src/batch/batch-name.js'

// What a batch's refunds carry at the gateway to say which batch and row made them (design.md §5).

describe('a batch’s name at the gateway', () => {
  it('is its command’s and its rows’: the same from any copy of its journal or from none; another for other rows or another command', () => {
    const name = batchName('refund create', 'a'.repeat(64))
    expect(name).toBe(batchName('refund create', 'a'.repeat(64)))
    expect(name).toMatch(/^[a-p]{16}$/)
    expect(batchName('refund create', 'b'.repeat(64))).not.toBe(name)
    expect(batchName('purchase create', 'a'.repeat(64))).not.toBe(name)
    // Letters only: no run of digits a masker could take for a card number.
    expect(name).not.toMatch(/\d/)
  })

  it('of a batch begun anew is its own, each time', () => {
    const names = new Set(Array.from({length: 20}, () => newBatchName()))
    expect(names.size).toBe(20)
    for (const name of names) expect(name).toMatch(/^[a-p]{16}$/)
  })

  it('is sent as two keys of metadata: the batch, and the row', () => {
    expect(MADE_BY).toEqual({batch: 'gw_batch', row: 'gw_row'})
    expect(madeByMark('abcd', 12)).toEqual({gw_batch: 'abcd', gw_row: '12'})
  })
})

describe('who made a refund, as its metadata says', () => {
  it('this row of this batch; another row, batch or a person; or untold where the record shows no metadata', () => {
    expect(madeBy({metadata: {gw_batch: 'abcd', gw_row: '3'}}, 'abcd', 3)).toBe('this row')
    expect(madeBy({metadata: {gw_batch: 'abcd', gw_row: '3', other: 'x'}}, 'abcd', 3)).toBe('this row')
    expect(madeBy({metadata: {gw_batch: 'abcd', gw_row: '4'}}, 'abcd', 3)).toBe('other')
    expect(madeBy({metadata: {gw_batch: 'efgh', gw_row: '3'}}, 'abcd', 3)).toBe('other')
    expect(madeBy({metadata: {gw_batch: 'abcd', gw_row: 3}}, 'abcd', 3)).toBe('other')
    expect(madeBy({metadata: {gw_row: '3'}}, 'abcd', 3)).toBe('other')
    expect(madeBy({metadata: {}}, 'abcd', 3)).toBe('other')
    for (const metadata of [undefined, null, 'gw_batch=abcd', ['abcd', '3']]) expect(madeBy({metadata}, 'abcd', 3)).toBe('untold')
    expect(madeBy({}, 'abcd', 3)).toBe('untold')
  })
})
