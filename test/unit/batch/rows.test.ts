import {describe, expect, it} from 'vitest'
import {readBatchInput} from '../../../src/batch/read.js'
import {checkRows, purchaseRows, refundRows, type RowSchema} from '../../../src/batch/rows.js'
import {UsageError} from '../../../src/errors.js'

describe('readBatchInput', () => {
  it('reads CSV with RFC 4180 quoting, counting every line (blank ones, CRLF, a BOM)', () => {
    const text = '\uFEFF\r\ntransaction_id,amount,reference\r\n\r\n071-P-A,100,"r,1"\r\n071-P-B,,"r ""2"""\r\n'
    expect(readBatchInput(text)).toEqual({
      format: 'csv',
      columns: ['transaction_id', 'amount', 'reference'],
      rows: [
        {line: 4, values: {transaction_id: '071-P-A', amount: '100', reference: 'r,1'}},
        {line: 5, values: {transaction_id: '071-P-B', amount: '', reference: 'r "2"'}},
      ],
      problems: [],
    })
  })

  it('tells NDJSON by its first non-blank character; a line that is not an object is a problem of that line', () => {
    expect(readBatchInput('\n  {"a":1}\n[1]\n')).toEqual({format: 'ndjson', columns: ['a'], rows: [{line: 2, values: {a: 1}}], problems: [{line: 3, message: 'is not a JSON object (NDJSON: one object a line)'}]})
  })

  it('reports a CSV row with more fields than the header, and an unclosed quote', () => {
    expect(readBatchInput('a,b\n1,2,3\n').problems).toEqual([{line: 2, message: 'has 3 fields, the header 2'}])
    expect(readBatchInput('a,b\n1,"2\n').problems[0]).toMatchObject({line: 2, message: expect.stringContaining('cannot be read as CSV: Quote Not Closed')})
  })
})

describe('checkRows', () => {
  const check = (text: string, schema: RowSchema<unknown> = refundRows as RowSchema<unknown>) => checkRows(readBatchInput(text), schema, 'r.csv')

  it('turns rows into operation inputs, a blank refund amount meaning the full amount', () => {
    expect(check('transaction_id,amount,reference\n071-P-A,100,r-1\n071-P-B,,r-2\n')).toEqual({
      valid: [
        {row: 1, line: 2, reference: 'r-1', input: {transactionId: '071-P-A', amount: 100, reference: 'r-1'}},
        {row: 2, line: 3, reference: 'r-2', input: {transactionId: '071-P-B', amount: undefined, reference: 'r-2'}},
      ],
      invalid: [],
    })
    expect(check('{"card_token":"tok","amount":250,"reference":"o-1","currency":"nzd"}\n', purchaseRows as RowSchema<unknown>).valid).toEqual([
      {row: 1, line: 1, reference: 'o-1', input: {card: {token: 'tok'}, amount: 250, reference: 'o-1', currency: 'NZD', customerIp: undefined}},
    ])
  })

  it('lists every bad row with its messages, and marks each row of a repeated reference', () => {
    const {valid, invalid} = check('transaction_id,amount,reference\n071-P-A,1.5,r-1\n,100,\n071-P-A,100,r-3\n071-P-B,100,r-3\n071-P-C,100,r-5\n')
    expect(valid.map((row) => row.reference)).toEqual(['r-5'])
    expect(invalid).toEqual([
      {row: 1, line: 2, reference: 'r-1', messages: ['amount must be a whole number greater than 0 in the minor unit (1000 is 10.00 AUD), got "1.5"']},
      {row: 2, line: 3, messages: ['transaction_id is blank', 'reference is blank']},
      {row: 3, line: 4, reference: 'r-3', messages: ['reference r-3 is used again on line 5: each row needs a reference of its own']},
      {row: 4, line: 5, reference: 'r-3', messages: ['reference r-3 is used again on line 4: each row needs a reference of its own']},
    ])
  })

  it.each([
    ['unknown columns, named', 'transaction_id,amout,reference\n', 'r.csv: unknown column "amout": nothing was sent'],
    ['a missing required column', 'amount,reference\n1,r\n', 'r.csv: no transaction_id column: nothing was sent'],
    ['no rows', 'transaction_id,amount,reference\n', 'r.csv has no rows to send'],
  ])('refuses the whole file for %s', (_, text, message) => {
    const error = (() => {
      try {
        check(text)
      } catch (err) {
        return err
      }
    })()
    expect(error).toBeInstanceOf(UsageError)
    expect((error as Error).message).toContain(message)
  })

  it('refuses card data, by column or by a card number in a field, without repeating it', () => {
    expect(() => check('card_number,cvv,amount,reference\n4242424242424242,123,1,r\n', purchaseRows as RowSchema<unknown>)).toThrow('r.csv holds card data (columns card_number, cvv): raw card data does not belong in files, and nothing was sent')
    expect(() => check('card_token,amount,reference\n4242 4242 4242 4242,1,r\n', purchaseRows as RowSchema<unknown>)).toThrow(/^r\.csv holds what looks like a card number \(line 2\)[^4]*$/)
  })

  it('refuses control characters in a field', () => {
    expect(check('transaction_id,amount,reference\n071-P-A,100,"r\u001b[31m"\n').invalid[0]!.messages).toEqual(['reference holds control characters'])
  })
})

describe('checkRows and numeric references', () => {
  it('takes a long numeric order number as a reference, even one that passes the Luhn check', () => {
    const {valid} = checkRows(readBatchInput('card_token,amount,reference\ntok,100,4242424242424242\n'), purchaseRows as RowSchema<unknown>, 'p.csv')
    expect(valid.map((row) => row.reference)).toEqual(['4242424242424242'])
  })
})
