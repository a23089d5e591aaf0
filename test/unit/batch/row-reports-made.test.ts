import {describe, expect, it} from 'vitest'
import {decidedRow, resultEntry, type RowReport} from '../../../src/batch/row-reports.js'
import {ModeMismatchError} from '../../../src/errors.js'
import {countedPlan} from '../../fixtures/recorded-plans-debits.js'

// A plan or debit made, as a row reports it and its journal keeps it.
const row = {row: 1, line: 2, reference: countedPlan.reference}
const body = {reference: countedPlan.reference}
const money = () => ({amount: 100})

describe('a row whose plan or debit was made', () => {
  it('is made, exit 0, with its record; done earlier when found so, and then resumed', () => {
    const now = decidedRow(row, {body, decided: {outcome: 'made', noun: 'payment plan', record: countedPlan, source: 'answer'}}, money)
    expect(now).toEqual({row: 1, line: 2, reference: countedPlan.reference, status: 'made', exitCode: 0, resumed: false, record: countedPlan, amount: 100})
    const earlier = decidedRow(row, {body, decided: {outcome: 'made', noun: 'payment plan', record: countedPlan, source: 'earlier'}}, money)
    expect(earlier).toMatchObject({status: 'made', resumed: true, record: countedPlan})
  })

  it('is journaled as made, exit 0, even when this run exits otherwise (answered by the wrong gateway)', () => {
    const wrongGateway = new ModeMismatchError('live gateway', {expected: 'sandbox', reported: 'live'})
    const report = decidedRow(row, {body, decided: {outcome: 'made', noun: 'payment plan', record: countedPlan, source: 'answer'}, failure: wrongGateway, wrongGateway}, money)
    expect([report.status, report.exitCode]).toEqual(['made', 6])
    expect(resultEntry(row.reference, report, undefined)).toMatchObject({result: row.reference, status: 'made', exit_code: 0, record: countedPlan})
    const unknown: RowReport = {...report, status: 'unknown', exitCode: 8}
    expect(resultEntry(row.reference, unknown, undefined).exit_code).toBe(8)
  })
})
