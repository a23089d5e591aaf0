import {describe, expect, it} from 'vitest'
import {missingRow} from '../../../src/batch/row-reports.js'

// --verify: a row the journal has done that the gateway has nothing of. What is missing is said as
// the row's kind is found: a capture's change on its purchase (by id), a direct debit by the id it
// was made as (the gateway finds none by reference), anything else under its reference.

const row = (reference: string) => ({row: 2, line: 3, reference, input: {}})
const done = (id?: string) => ({result: 'approved', status: 'approved', exit_code: 0, ...(id ? {record: {id}} : {}), amount: 1000, currency: 'AUD'})
const messageOf = (report: ReturnType<typeof missingRow>) => report.error?.messages

describe('a row done by an earlier run that the gateway has nothing of', () => {
  it('a capture, named by its purchase id: the purchase shows no capture', () => {
    const report = missingRow(row('071-P-AAAA1111'), done('071-P-AAAA1111'), {row: 'capture', key: 'id', noun: 'purchase'})
    expect(messageOf(report)).toEqual(['The journal has this capture approved by an earlier run, and purchase 071-P-AAAA1111 shows no capture: it was not sent again'])
    expect(report).toMatchObject({status: 'missing', exitCode: 5, reference: '071-P-AAAA1111', amount: 1000, currency: 'AUD'})
  })

  it('a direct debit, found by id only: the gateway has none by the id it was made as', () => {
    const report = missingRow(row('dd-7'), done('071-DD-BBBB2222'), {row: 'direct debit', key: 'reference', noun: 'direct debit'})
    expect(messageOf(report)).toEqual(['The journal has this direct debit approved as 071-DD-BBBB2222 by an earlier run, and the gateway has no direct debit 071-DD-BBBB2222: it was not sent again'])
  })

  it('a purchase made as an id: the gateway has none under its reference', () => {
    const report = missingRow(row('ord-7'), done('071-P-CCCC3333'), {row: 'purchase', key: 'reference', noun: 'purchase'})
    expect(messageOf(report)).toEqual(['The journal has this purchase approved as 071-P-CCCC3333 by an earlier run, and the gateway has no purchase under reference ord-7: it was not sent again'])
  })

  it('a row whose record the journal did not keep: named by its reference alone', () => {
    const report = missingRow(row('ord-8'), done(), {row: 'purchase', key: 'reference', noun: 'purchase'})
    expect(messageOf(report)).toEqual(['The journal has this purchase approved by an earlier run, and the gateway has no purchase under reference ord-8: it was not sent again'])
  })
})
