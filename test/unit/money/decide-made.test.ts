import {describe, expect, it} from 'vitest'
import {compare, type Decided, decideAnswer, decideFound, decideNotFound, exitCodeOf, foundByReference, isMade, type Noun} from '../../../src/money/decide.js'
import {failureOf} from '../../../src/money/failure.js'
import {OutcomeUnknownError, ReferenceTakenError} from '../../../src/errors.js'
import {countedPlan, laterDebit, newDebit, perpetualPlan, refusedDebit} from '../../fixtures/recorded-plans-debits.js'
import type {GwRecord} from '../../../src/api/schemas/record.js'

// What gw sent for the recorded plans and debits (recorded-plans-debits.ts): the plan with a count
// and no currency, the plan with an end date, and the debit with a reference of its own.
const planSent = {customer: '071-C-AXMHJRZV', payment_method: 'Credit Card', reference: countedPlan.reference, amount: 100, setup_fee: 0, start_date: '2018-10-10', frequency: 'Weekly', anniversary: 5, total_count: 5, total_amount: 500}
const perpetualSent = {...planSent, start_date: '2023-01-04', end_date: '2023-04-04', total_count: undefined, total_amount: undefined, currency: 'AUD'}
const debitSent = {description: 'Confirmation', amount: 42, bsb: '123-123', account_name: 'Test', account_number: '012345678', reference: newDebit.reference}

describe('decideAnswer: a plan or debit is made once its record has an id', () => {
  it.each<[string, Noun, GwRecord, Partial<Decided>]>([
    ['a plan made with a count', 'payment plan', countedPlan, {outcome: 'made', source: 'answer'}],
    ['a plan made with an end date', 'payment plan', perpetualPlan, {outcome: 'made'}],
    ['a debit made, New', 'direct debit', newDebit, {outcome: 'made'}],
    ['a record of nulls (a refused debit)', 'direct debit', refusedDebit, {outcome: 'unknown', reason: {why: 'no_outcome'}}],
    ['an id that is empty text', 'payment plan', {...countedPlan, id: ''}, {outcome: 'unknown', reason: {why: 'no_outcome'}}],
    ['an id that is no text', 'payment plan', {...countedPlan, id: 42}, {outcome: 'unknown', reason: {why: 'no_outcome'}}],
    // `successful` is a purchase's word: a plan's record is made by its id, whatever else it says.
    ['a plan saying successful false', 'payment plan', {...countedPlan, successful: false}, {outcome: 'made'}],
  ])('%s', (_, noun, record, expected) => {
    expect(decideAnswer(noun, record)).toMatchObject(expected)
  })

  it('keeps the source it is told', () => {
    expect(decideAnswer('direct debit', laterDebit, 'earlier')).toEqual({outcome: 'made', noun: 'direct debit', record: laterDebit, source: 'earlier'})
  })

  it('made exits 0, as approved', () => {
    expect(exitCodeOf({outcome: 'made', noun: 'payment plan', record: countedPlan, source: 'answer'})).toBe(0)
  })

  it.each<[Noun, boolean, boolean]>([
    ['purchase', false, true],
    ['refund', false, true],
    ['payment plan', true, true],
    ['direct debit', true, false],
  ])('%s: made %s, found by reference %s', (noun, made, byReference) => {
    expect(isMade(noun)).toBe(made)
    expect(foundByReference(noun)).toBe(byReference)
    expect(decideNotFound(noun)).toEqual(byReference ? undefined : {outcome: 'unknown', noun, reason: {why: 'not_findable'}})
  })
})

describe('compare: what a plan or debit found under its reference must share with what was sent', () => {
  it.each<[string, Noun, GwRecord, GwRecord, ReturnType<typeof compare>]>([
    ['the plan sent', 'payment plan', planSent, countedPlan, {differences: [], unchecked: []}],
    ['the plan sent with an end date and a currency', 'payment plan', perpetualSent, perpetualPlan, {differences: [], unchecked: []}],
    // Sent without a currency, the gateway's is whatever it implies (null, or AUD in 2022).
    ['a plan sent without a currency, found in AUD', 'payment plan', planSent, {...countedPlan, currency: 'AUD'}, {differences: [], unchecked: []}],
    ['its frequency in another case', 'payment plan', {...planSent, frequency: 'weekly'}, countedPlan, {differences: [], unchecked: []}],
    [
      'another customer, amount and anniversary',
      'payment plan',
      planSent,
      {...countedPlan, customer: '071-C-OTHER', amount: 200, anniversary: 1},
      {
        differences: [
          {field: 'customer', against: 'sent', expected: '071-C-AXMHJRZV', found: '071-C-OTHER'},
          {field: 'amount', against: 'sent', expected: 100, found: 200},
          {field: 'anniversary', against: 'sent', expected: 5, found: 1},
        ],
        unchecked: [],
      },
    ],
    [
      'another reference, currency, frequency, start, fee, count and end',
      'payment plan',
      perpetualSent,
      {...perpetualPlan, reference: 'other', currency: 'NZD', frequency: 'Monthly', start_date: '2023-01-05', setup_fee: 100, total_count: 3, end_date: '2023-05-01'},
      {
        differences: [
          {field: 'reference', against: 'sent', expected: countedPlan.reference, found: 'other'},
          {field: 'currency', against: 'sent', expected: 'AUD', found: 'NZD'},
          {field: 'frequency', against: 'sent', expected: 'Weekly', found: 'Monthly'},
          {field: 'start_date', against: 'sent', expected: '2023-01-04', found: '2023-01-05'},
          {field: 'setup_fee', against: 'sent', expected: 0, found: 100},
          {field: 'end_date', against: 'sent', expected: '2023-04-04', found: '2023-05-01'},
        ],
        unchecked: [],
      },
    ],
    ['a count found where none was sent: not held', 'payment plan', perpetualSent, {...perpetualPlan, total_count: 12}, {differences: [], unchecked: []}],
    ['another count', 'payment plan', planSent, {...countedPlan, total_count: 6}, {differences: [{field: 'total_count', against: 'sent', expected: 5, found: 6}], unchecked: []}],
    ['a currency sent, and none found', 'payment plan', perpetualSent, {...perpetualPlan, currency: null}, {differences: [], unchecked: ['currency']}],
    ['the count sent, and none found', 'payment plan', planSent, {...countedPlan, total_count: null}, {differences: [], unchecked: ['total_count']}],
    ['a plan record without its customer', 'payment plan', planSent, {...countedPlan, customer: undefined}, {differences: [], unchecked: ['customer']}],
    ['the debit sent', 'direct debit', debitSent, newDebit, {differences: [], unchecked: []}],
    ['its name and description in another case', 'direct debit', {...debitSent, account_name: 'TEST ', description: 'confirmation'}, newDebit, {differences: [], unchecked: []}],
    [
      'another amount, account and bsb',
      'direct debit',
      debitSent,
      {...newDebit, amount: 42.42, bsb: '123-124', account_number: '012345679', account_name: 'Other', description: 'Other'},
      {
        differences: [
          {field: 'amount', against: 'sent', expected: 42, found: 42.42},
          {field: 'bsb', against: 'sent', expected: '123-123', found: '123-124'},
          {field: 'account_number', against: 'sent', expected: '012345678', found: '012345679'},
          {field: 'account_name', against: 'sent', expected: 'Test', found: 'Other'},
          {field: 'description', against: 'sent', expected: 'Confirmation', found: 'Other'},
        ],
        unchecked: [],
      },
    ],
    ['a debit under another reference', 'direct debit', {...debitSent, reference: 'dd-1'}, newDebit, {differences: [{field: 'reference', against: 'sent', expected: 'dd-1', found: newDebit.reference}], unchecked: []}],
    ['a debit record of nulls', 'direct debit', debitSent, {...refusedDebit, amount: null}, {differences: [], unchecked: ['reference', 'amount', 'bsb', 'account_number', 'account_name', 'description']}],
  ])('%s', (_, noun, sent, found, expected) => {
    expect(compare(noun, sent, found)).toEqual(expected)
  })
})

describe('decideFound and failureOf for a plan or debit found under its reference', () => {
  it('the plan sent is made, recovered or earlier: no failure', () => {
    for (const source of ['recovered', 'earlier'] as const) {
      const decided = decideFound('payment plan', planSent, countedPlan, {}, source)
      expect(decided).toEqual({outcome: 'made', noun: 'payment plan', record: countedPlan, source})
      expect(failureOf(decided, {sent: planSent})).toBeUndefined()
    }
  })

  it('another plan under the reference: unknown after a lost answer, taken where the reference was refused or an earlier run sent it', () => {
    const found = {...countedPlan, amount: 200}
    const lost = decideFound('payment plan', planSent, found, {}, 'recovered')
    expect(lost).toMatchObject({outcome: 'unknown', reason: {why: 'different'}})
    const taken = failureOf(decideFound('payment plan', planSent, found, {}, 'earlier'), {sent: planSent})
    expect(taken).toBeInstanceOf(ReferenceTakenError)
    expect(taken!.message).toBe(`Reference ${countedPlan.reference} is already taken by another payment plan 071-PP-C0YK842K: amount: sent 100, found 200. Nothing was sent.`)
  })

  it('a record without an id says it does not show the plan made', () => {
    const failure = failureOf(decideAnswer('payment plan', {...countedPlan, id: null}), {sent: planSent})
    expect(failure).toBeInstanceOf(OutcomeUnknownError)
    expect(failure!.message).toMatch(new RegExp(`^The gateway's payment plan under reference ${countedPlan.reference} has no id, so it does not show that it was made: \\{"id":null,`))
    expect(failure!.exitCode).toBe(8)
  })

  it('a debit not found under its reference: unknown, naming why, and not sent again', () => {
    const decided = decideNotFound('direct debit')!
    expect(exitCodeOf(decided)).toBe(8)
    const why = 'The gateway has no direct debit it finds under reference dd-1, but it is known to find a direct debit by its id only: it may have been made all the same, and it is not sent again'
    const alone = failureOf(decided, {sent: {...debitSent, reference: 'dd-1'}})
    expect(alone).toBeInstanceOf(OutcomeUnknownError)
    expect(alone).toMatchObject({message: why, noun: 'direct debit', reference: 'dd-1'})
    const earlier = failureOf(decided, {sent: {...debitSent, reference: 'dd-1'}, lookedUpBecause: 'An earlier run sent this direct debit and its answer was not recorded'})
    expect(earlier!.message).toBe(`An earlier run sent this direct debit and its answer was not recorded. ${why}`)
  })
})
