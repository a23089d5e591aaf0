import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {openBatch} from '../../../src/batch/read.js'
import {refundRows, scanRows} from '../../../src/batch/rows.js'
import {RowsKey} from '../../../src/batch/rows-key.js'

// A batch is its rows as read, not its bytes (design.md §5): a copy that differs only in how the
// rows are written is the same batch, and finds the first one's journal.

const fileOf = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-rows-key-')), 'batch')
  writeFileSync(path, text)
  return path
}

/** The key a refund batch of this text is known by, as scanRows reads it. */
const keyOf = async (text: string) => (await scanRows(await openBatch(fileOf(text)), refundRows, 'r.csv')).key

const ORIGINAL = 'transaction_id,amount,reference\nord-111,100,\nord-112,100,\n'

describe('the rows key of a batch', () => {
  it.each([
    ['CRLF line ends (Excel, Windows editors)', ORIGINAL.replaceAll('\n', '\r\n')],
    ['no final newline', ORIGINAL.slice(0, -1)],
    ['a byte order mark', `\uFEFF${ORIGINAL}`],
    ['spaces around the header names', ' transaction_id , amount ,reference \nord-111,100,\nord-112,100,\n'],
    ['spaces around the fields', 'transaction_id,amount,reference\n ord-111 , 100 ,  \nord-112,100 ,\n'],
    ['blank lines between the rows', '\ntransaction_id,amount,reference\n\nord-111,100,\n\n\nord-112,100,\n\n'],
    ['its columns in another order', 'amount,reference,transaction_id\n100,,ord-111\n100,,ord-112\n'],
    ['upper case header names', 'Transaction_ID,Amount,Reference\nord-111,100,\nord-112,100,\n'],
    ['quotes around the fields', '"transaction_id","amount","reference"\n"ord-111","100",""\n"ord-112","100",""\n'],
    ['NDJSON holding the same rows', '{"transaction_id":"ord-111","amount":100}\n{"amount":"100","transaction_id":"ord-112","reference":""}\n'],
    ['no reference column, every reference blank', 'transaction_id,amount\nord-111,100\nord-112,100\n'],
  ])('is the same for a copy with %s', async (_, copy) => {
    expect(await keyOf(copy)).toBe(await keyOf(ORIGINAL))
  })

  it.each([
    ['another amount', 'transaction_id,amount,reference\nord-111,200,\nord-112,100,\n'],
    ['another purchase', 'transaction_id,amount,reference\nord-113,100,\nord-112,100,\n'],
    ['a reference given', 'transaction_id,amount,reference\nord-111,100,r-1\nord-112,100,\n'],
    ['the rows in another order', 'transaction_id,amount,reference\nord-112,100,\nord-111,100,\n'],
    ['a row more', `${ORIGINAL}ord-113,100,\n`],
    ['a row less', 'transaction_id,amount,reference\nord-111,100,\n'],
    ['a row the same twice', `${ORIGINAL}ord-112,100,\n`],
    ['a field split in two', 'transaction_id,amount,reference\nord-111,10,0\nord-112,100,\n'],
  ])('differs for rows with %s', async (_, other) => {
    expect(await keyOf(other)).not.toBe(await keyOf(ORIGINAL))
  })

  it('tells a row that cannot be read from one that can, by what is wrong with it', async () => {
    const short = await keyOf('transaction_id,amount,reference\nord-111,100\nord-112,100,\n')
    expect(short).not.toBe(await keyOf(ORIGINAL))
    expect(short).toBe(await keyOf('transaction_id,amount,reference\r\nord-111,100\r\nord-112,100,\r\n'))
    expect(short).not.toBe(await keyOf('transaction_id,amount,reference\nord-111,100,,\nord-112,100,\n'))
  })

  it('keeps the fields of a row apart: no two rows of other fields make one text', () => {
    const key = (...values: Record<string, unknown>[]) => {
      const rows = new RowsKey()
      values.forEach((value, index) => rows.add({line: index + 2, values: value}))
      return rows.digest()
    }
    expect(key({a: 'x,y'})).not.toBe(key({a: 'x', y: ''}))
    expect(key({a: '1', b: '2'})).not.toBe(key({a: '12'}))
    expect(key({a: '1'}, {b: '2'})).not.toBe(key({a: '1', b: '2'}))
    expect(key({a: 1})).toBe(key({a: '1'}))
    expect(key({a: {b: 1}})).not.toBe(key({a: '[object Object]'}))
    // The line a row is on is no part of it.
    const rows = new RowsKey()
    rows.add({line: 9, values: {a: '1'}})
    expect(rows.digest()).toBe(key({a: '1'}))
  })
})
