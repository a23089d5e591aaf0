import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it, onTestFinished} from 'vitest'
import {type BatchEntry, openBatch} from '../../../src/batch/read.js'
import {askedAbout, type InvalidRow, purchaseRows, refundRows, type RowSchema, scanRows, type ValidRow, validRows} from '../../../src/batch/rows.js'
import {UsageError} from '../../../src/errors.js'
import {expectReject} from '../../expect-error.js'

const fileOf = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-rows-')), 'batch')
  writeFileSync(path, text)
  return path
}

/** What openBatch reads: the format, header and every entry. */
async function readBatch(text: string): Promise<{format: string; header: string[]; entries: BatchEntry[]}> {
  const file = await openBatch(fileOf(text))
  const entries: BatchEntry[] = []
  for await (const entry of file.entries) entries.push(entry)
  return {format: file.format, header: file.header, entries}
}

/** The two passes of a batch: checked once, then its valid rows read again. */
async function check(text: string, schema: RowSchema<unknown> = refundRows as RowSchema<unknown>, source = 'r.csv'): Promise<{valid: ValidRow<unknown>[]; invalid: InvalidRow[]}> {
  const path = fileOf(text)
  const scan = await scanRows(await openBatch(path), schema, source)
  const valid: ValidRow<unknown>[] = []
  for await (const row of validRows(await openBatch(path), scan)) valid.push(row)
  return {valid, invalid: [...scan.invalid.values()].sort((a, b) => a.row - b.row)}
}

describe('scanRows, as it reads', () => {
  const rowsOf = (count: number) => 'transaction_id,amount,reference\n' + Array.from({length: count}, (_, i) => `071-P-A,100,r-${i}\n`).join('')

  it('tells the number of each row as it is counted, invalid rows too', async () => {
    const told: number[] = []
    await scanRows(await openBatch(fileOf('transaction_id,amount,reference\n071-P-A,100,r-1\n071-P-A,x,r-2\n071-P-A,100,r-3\n')), refundRows, 'r.csv', (row) => told.push(row))
    expect(told).toEqual([1, 2, 3])
  })

  // bin/start.js's favourMemory changes a V8 flag, and V8 then refuses Node's own code caches: a batch pays for it only once it is long.
  it.for([
    [9_999, 0],
    [10_000, 1],
    [10_001, 1],
  ] as const)('%i rows keep memory small %i times', async ([rows, favoured]) => {
    const hook = Symbol.for('gw.favour-memory')
    let calls = 0
    ;(globalThis as Record<symbol, unknown>)[hook] = () => calls++
    onTestFinished(() => void delete (globalThis as Record<symbol, unknown>)[hook])
    const scan = await scanRows(await openBatch(fileOf(rowsOf(rows))), refundRows, 'r.csv')
    expect(scan.total).toBe(rows)
    expect(calls).toBe(favoured)
  })
})

describe('openBatch', () => {
  it('reads CSV with RFC 4180 quoting, counting every line (blank ones, CRLF, a BOM, a quoted line break)', async () => {
    const text = '\uFEFF\r\ntransaction_id,amount,reference\r\n\r\n071-P-A,100,"r,1"\r\n071-P-B,,"r ""2"""\r\n071-P-C,7,"r\n3"\n071-P-D,8,r-4\n'
    expect(await readBatch(text)).toEqual({
      format: 'csv',
      header: ['transaction_id', 'amount', 'reference'],
      entries: [
        {line: 4, values: {transaction_id: '071-P-A', amount: '100', reference: 'r,1'}},
        {line: 5, values: {transaction_id: '071-P-B', amount: '', reference: 'r "2"'}},
        {line: 6, values: {transaction_id: '071-P-C', amount: '7', reference: 'r\n3'}},
        {line: 8, values: {transaction_id: '071-P-D', amount: '8', reference: 'r-4'}},
      ],
    })
  })

  it('tells NDJSON by its first non-blank character; a line that is not an object is a problem of that line', async () => {
    expect(await readBatch('\n  {"a":1}\n[1]\n')).toEqual({format: 'ndjson', header: [], entries: [{line: 2, values: {a: 1}}, {line: 3, problem: 'is not a JSON object (NDJSON: one object a line)'}]})
  })

  it('reports a CSV row with more fields than the header, or fewer (never a field quietly blank), and an unclosed quote', async () => {
    expect((await readBatch('a,b\n1,2,3\n')).entries).toEqual([{line: 2, problem: 'has 3 fields, the header 2'}])
    expect((await readBatch('a,b,c\n1,2\n1,2,\n')).entries).toEqual([{line: 2, problem: 'has 2 fields, the header 3'}, {line: 3, values: {a: '1', b: '2', c: ''}}])
    expect((await readBatch('a,b\n1,"2\n')).entries[0]).toMatchObject({line: 2, problem: expect.stringContaining('cannot be read as CSV: Quote Not Closed')})
  })

  it("quotes no more than 40 characters of the field csv-parse could not read: a binary file's runs to pages", async () => {
    const before = '\u0000'.repeat(5000)
    expect((await readBatch(`a,b\n1,${before}x"y\n`)).entries).toEqual([{line: 2, problem: `cannot be read as CSV: Invalid Opening Quote: a quote is found on field 1 at line 2, value is ${JSON.stringify(before.slice(0, 40))}...`}])
    expect((await readBatch('a,b\n1,x"y\n')).entries).toEqual([{line: 2, problem: 'cannot be read as CSV: Invalid Opening Quote: a quote is found on field 1 at line 2, value is "x"'}])
  })
})

describe('scanRows and validRows', () => {
  it('turns rows into operation inputs, a blank refund amount meaning the full amount', async () => {
    expect(await check('transaction_id,amount,reference\n071-P-A,100,r-1\n071-P-B,,r-2\n')).toEqual({
      valid: [
        {row: 1, line: 2, reference: 'r-1', input: {transactionId: '071-P-A', amount: 100, reference: 'r-1'}},
        {row: 2, line: 3, reference: 'r-2', input: {transactionId: '071-P-B', amount: undefined, reference: 'r-2'}},
      ],
      invalid: [],
    })
    expect((await check('{"card_token":"tok","amount":250,"reference":"o-1","currency":"nzd"}\n', purchaseRows as RowSchema<unknown>)).valid).toEqual([
      {row: 1, line: 1, reference: 'o-1', input: {card: {token: 'tok'}, amount: 250, reference: 'o-1', currency: 'NZD', customerIp: undefined}},
    ])
  })

  it('lists every bad row with its messages, and marks each row of a repeated reference', async () => {
    const {valid, invalid} = await check('transaction_id,amount,reference\n071-P-A,1.5,r-1\n,100,\n071-P-A,100,r-3\n071-P-B,100,r-3\n071-P-C,100,r-5\n')
    expect(valid.map((row) => row.reference)).toEqual(['r-5'])
    expect(invalid).toEqual([
      {row: 1, line: 2, reference: 'r-1', messages: ['amount must be a positive whole number in the currency\'s minor unit, got "1.5"']},
      {row: 2, line: 3, messages: ['transaction_id must not be blank']},
      {row: 3, line: 4, reference: 'r-3', messages: ['reference r-3 is used again on line 5: each row needs a reference of its own']},
      {row: 4, line: 5, reference: 'r-3', messages: ['reference r-3 is used again on line 4: each row needs a reference of its own']},
    ])
  })

  it('a refund row with a blank reference, or none, is valid: its reference is made when it is sent, and read from its input', async () => {
    const path = fileOf('transaction_id,amount,reference\n071-P-A,100,\n071-P-A,200,\n071-P-B,300,order-9-R1\n')
    const scan = await scanRows(await openBatch(path), refundRows, 'r.csv')
    // Two blank references are no reference used twice; one given in the derived shape is kept from every derived one.
    expect(scan).toMatchObject({valid: 3, unreferenced: 2, derivedShaped: new Set(['order-9-R1'])})
    expect(scan.invalid.size).toBe(0)
    const rows: ValidRow<{reference?: string}>[] = []
    for await (const row of validRows(await openBatch(path), scan)) rows.push(row)
    expect(rows.map((row) => row.reference)).toEqual(['', '', 'order-9-R1'])
    rows[0]!.input.reference = 'order-7-R1'
    expect(rows[0]!.reference).toBe('order-7-R1')
    expect((await check('{"transaction_id":"071-P-A","amount":100}\n')).valid).toMatchObject([{row: 1, line: 1, reference: '', input: {transactionId: '071-P-A', amount: 100, reference: undefined}}])
  })

  it('askedAbout: what a row asks about, its amount, reference and blank fields aside', () => {
    expect(askedAbout({transaction_id: '071-P-A', amount: 100, reference: 'r'})).toBe(askedAbout({transaction_id: '071-P-A'}))
    expect(askedAbout({transaction_id: '071-P-A', note: undefined})).toBe(askedAbout({transaction_id: '071-P-A'}))
    expect(askedAbout({transaction_id: '071-P-A'})).not.toBe(askedAbout({transaction_id: '071-P-B'}))
  })

  it('a row one field short is an error of its line, not a refund in full; so is an NDJSON amount of null', async () => {
    expect((await check('transaction_id,reference,amount\nbf-p-2,sr-1\nbf-p-3,sr-2,\n')).invalid).toEqual([{row: 1, line: 2, messages: ['has 2 fields, the header 3']}])
    expect((await check('{"transaction_id":"bf-p-2","reference":"sr-1","amount":null}\n{"transaction_id":"bf-p-3","reference":"sr-2"}\n')).invalid).toEqual([
      {row: 1, line: 1, messages: ['amount is null: leave the field out, or give it a value']},
    ])
  })

  it('refuses a reference longer than the gateway takes (255 characters)', async () => {
    const {invalid} = await check(`transaction_id,amount,reference\n071-P-A,100,${'r'.repeat(256)}\n071-P-A,100,${'r'.repeat(255)}\n`)
    expect(invalid).toEqual([{row: 1, line: 2, reference: 'r'.repeat(256), messages: ['reference is 256 characters long; the gateway takes at most 255']}])
  })

  it.each([
    ['unknown columns, named', 'transaction_id,amout,reference\nx,1,y\n', 'r.csv: unknown column "amout": nothing was sent'],
    ['a missing required column', 'amount,reference\n1,r\n', 'r.csv: no transaction_id column: nothing was sent'],
    ['a column named twice', 'transaction_id,amount,reference,amount\nx,1,r,2\n', 'r.csv: the column "amount" is named twice: nothing was sent'],
    ['no rows', 'transaction_id,amount,reference\n', 'r.csv has no rows to send'],
  ])('refuses the whole file for %s', async (_, text, message) => {
    const error = await check(text).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(UsageError)
    expect((error as Error).message).toContain(message)
  })

  it('refuses card data, by column or by a card number in a field, without repeating it', async () => {
    await expectReject(check('card_number,cvv,amount,reference\n4242424242424242,123,1,r\n', purchaseRows as RowSchema<unknown>), UsageError, 'r.csv holds card data (columns card_number, cvv): raw card data does not belong in files, and nothing was sent')
    await expectReject(check('card_token,amount,reference\n4242 4242 4242 4242,1,r\n', purchaseRows as RowSchema<unknown>), UsageError, /^r\.csv holds what looks like a card number \(line 2\)[^4]*$/)
  })

  it('refuses control characters in a field', async () => {
    expect((await check('transaction_id,amount,reference\n071-P-A,100,"r\u001b[31m"\n')).invalid[0]!.messages).toEqual(['reference holds control characters'])
  })

  it('takes a long numeric order number as a reference, even one that passes the Luhn check', async () => {
    const {valid} = await check('card_token,amount,reference\ntok,100,4242424242424242\n', purchaseRows as RowSchema<unknown>, 'p.csv')
    expect(valid.map((row) => row.reference)).toEqual(['4242424242424242'])
  })
})
