import {describe, expect, it} from 'vitest'
import {DirectDebit} from '../../../src/api/schemas/direct-debit.js'
import {PaymentPlan} from '../../../src/api/schemas/payment-plan.js'
import {cancelledPlan, countedPlan, deletedDebit, laterDebit, newDebit, perpetualPlan, refusedDebit, suspendedPlan} from '../../fixtures/recorded-plans-debits.js'

describe('the schemas of payment plans and direct debits read every recorded answer kind', () => {
  it.each([
    ['a plan with a count, currency null', countedPlan],
    ['a plan with an end date, AUD, totals null', perpetualPlan],
    ['a suspended plan', suspendedPlan],
    ['a cancelled plan', cancelledPlan],
  ])('%s', (_, plan) => {
    expect(PaymentPlan.parse(plan)).toStrictEqual(plan)
  })

  it.each([
    ['a new debit, metadata {}', newDebit],
    ['a later one, metadata null', laterDebit],
    ['a deleted one', deletedDebit],
    ['the record of a refused one', refusedDebit],
  ])('%s', (_, debit) => {
    expect(DirectDebit.parse(debit)).toStrictEqual(debit)
  })

  it('keep fields they do not name, and take a processed payment and debit of any result shape', () => {
    const payment = {...countedPlan.payments[0], status: 'Completed', result: {code: '00'}, records: [{id: '071-P-1'}], settled: true}
    expect(PaymentPlan.parse({...countedPlan, payments: [payment], extra: 1})).toStrictEqual({...countedPlan, payments: [payment], extra: 1})
    expect(DirectDebit.parse({...newDebit, status: 'Completed', result: 'Processed', process_date: '2018-05-04', batch: 'x'})).toMatchObject({result: 'Processed', batch: 'x'})
  })

  it('refuse a field of the wrong kind', () => {
    expect(PaymentPlan.safeParse({...countedPlan, amount: '100'}).success).toBe(false)
    expect(DirectDebit.safeParse({...newDebit, amount: '42.0'}).success).toBe(false)
  })
})
