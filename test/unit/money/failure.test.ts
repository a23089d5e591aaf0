import {describe, expect, it} from 'vitest'
import {DeclinedError, OutcomeUnknownError, ReferenceTakenError} from '../../../src/errors.js'
import type {Decided} from '../../../src/money/decide.js'
import {describeDifferences, failureOf, refusedUnfound} from '../../../src/money/failure.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'

const sent = {amount: 5000, reference: 'refund-1042-a', transaction_id: 'order-1042'}
const details = {status: 200, requestId: 'req-1'}

describe('failureOf: what an outcome other than an approval exits with', () => {
  it('an approval, however learned, fails nothing', () => {
    for (const source of ['answer', 'recovered', 'earlier'] as const) expect(failureOf({outcome: 'approved', noun: 'refund', record: liveRefund, source}, {sent})).toBeUndefined()
  })

  it('a decline now, and one made earlier under the reference, keep the record and the status', () => {
    const now = failureOf({outcome: 'declined', noun: 'refund', record: liveRefund, source: 'recovered', reason: 'Do Not Honour'}, {sent, ...details})
    expect(now).toBeInstanceOf(DeclinedError)
    expect(now).toMatchObject({exitCode: 3, message: 'Refund declined: Do Not Honour', messages: ['Do Not Honour'], record: liveRefund, status: 200, requestId: 'req-1'})
    expect(failureOf({outcome: 'declined', noun: 'purchase', record: livePurchase, source: 'earlier', reason: 'Declined'}, {sent})?.message).toBe('Purchase declined (earlier, under this reference): Declined')
  })

  it('a reference taken names the holder when its id is text, and never a number in its place', () => {
    const differences = [{field: 'amount', against: 'sent' as const, expected: 5000, found: 2500}]
    const named = failureOf({outcome: 'taken', noun: 'refund', record: liveRefund, differences}, {sent, ...details})
    expect(named).toBeInstanceOf(ReferenceTakenError)
    expect(named).toMatchObject({exitCode: 7, noun: 'refund', reference: 'refund-1042-a', holder: '071-R-8KD2MZQA', status: 200, requestId: 'req-1'})
    expect(named?.message).toBe('Reference refund-1042-a is already taken by another refund 071-R-8KD2MZQA: amount: sent 5000, found 2500. Nothing was sent.')
    const unnamed = failureOf({outcome: 'taken', noun: 'refund', record: {...liveRefund, id: 42}, differences}, {sent})
    expect(unnamed?.message).toBe('Reference refund-1042-a is already taken by another refund: amount: sent 5000, found 2500. Nothing was sent.')
    expect(unnamed).toMatchObject({holder: undefined})
    // Sent, and refused by the gateway as taken: something was sent, though nothing was made.
    const refused = failureOf({outcome: 'taken', noun: 'refund', record: liveRefund, differences}, {sent, refusedAsTaken: true})
    expect(refused?.message).toBe('Reference refund-1042-a is already taken by another refund 071-R-8KD2MZQA: amount: sent 5000, found 2500. The gateway refused this request under it: nothing was made.')
    // Found under the reference with neither it nor the id: not said as found by its id.
    const neither = failureOf({outcome: 'taken', noun: 'refund', record: {...liveRefund, reference: 'refund-9'}, differences}, {sent})
    expect(neither?.message).toBe('Reference refund-1042-a is already taken by another refund 071-R-8KD2MZQA: amount: sent 5000, found 2500. Nothing was sent.')
  })

  it('a record found by its id, whose reference is not the one sent, is said as found by that id, never as the holder of the reference', () => {
    const differences = [{field: 'reference', against: 'sent' as const, expected: '071-P-52NRCGCF', found: 'order-1042'}]
    const byId = {...livePurchase, id: '071-P-52NRCGCF', reference: 'order-1042'}
    const refused = failureOf({outcome: 'taken', noun: 'purchase', record: byId, differences}, {sent: {reference: '071-P-52NRCGCF'}, refusedAsTaken: true, ...details})
    expect(refused).toBeInstanceOf(ReferenceTakenError)
    expect(refused).toMatchObject({exitCode: 7, noun: 'purchase', reference: '071-P-52NRCGCF', holder: undefined, status: 200, requestId: 'req-1', hint: 'Give this purchase a reference of its own.'})
    expect(refused?.message).toBe('The gateway refused reference 071-P-52NRCGCF as already taken, and nothing was made. Looking 071-P-52NRCGCF up found purchase 071-P-52NRCGCF by its id (its reference is "order-1042"), not by reference.')
    // Looked up before sending (a batch's row), and nothing sent.
    const unsent = failureOf({outcome: 'taken', noun: 'purchase', record: byId, differences}, {sent: {reference: '071-P-52NRCGCF'}})
    expect(unsent?.message).toBe('Reference 071-P-52NRCGCF is the id of another purchase: looking it up found purchase 071-P-52NRCGCF by its id (its reference is "order-1042"), not by reference. Nothing was sent.')
    const {reference: _, ...unreferenced} = byId
    const bare = failureOf({outcome: 'taken', noun: 'refund', record: unreferenced, differences}, {sent: {reference: '071-P-52NRCGCF'}})
    expect(bare?.message).toBe('Reference 071-P-52NRCGCF is the id of another refund: looking it up found refund 071-P-52NRCGCF by its id (it has no reference), not by reference. Nothing was sent.')
    expect(bare).toMatchObject({hint: 'Give this refund a reference of its own.'})
    // Its id and its reference both the one sent: it holds the reference, and is named as its holder.
    const both = failureOf({outcome: 'taken', noun: 'purchase', record: {...byId, reference: '071-P-52NRCGCF'}, differences: [{field: 'amount', against: 'sent', expected: 1, found: 2}]}, {sent: {reference: '071-P-52NRCGCF'}})
    expect(both?.message).toBe('Reference 071-P-52NRCGCF is already taken by another purchase 071-P-52NRCGCF: amount: sent 1, found 2. Nothing was sent.')
    expect(both).toMatchObject({holder: '071-P-52NRCGCF', hint: undefined})
  })

  it('refused as taken and found under no record of its kind: nothing was made, and the reference is held elsewhere', () => {
    const error = refusedUnfound('refund', 'refund-1042-a', details)
    expect(error).toBeInstanceOf(ReferenceTakenError)
    expect(error).toMatchObject({exitCode: 7, kind: 'rejected', noun: 'refund', reference: 'refund-1042-a', holder: undefined, status: 200, requestId: 'req-1', hint: 'Give this refund a reference of its own.'})
    expect(error.message).toBe('The gateway refused reference refund-1042-a as already taken, and nothing was made. Looking refund-1042-a up found no refund: the gateway holds the reference elsewhere.')
  })

  it('no answer, and none found: why, in the words of how it was looked up', () => {
    const unanswered: Decided = {outcome: 'unknown', noun: 'purchase', reason: {why: 'unanswered'}}
    const bare = failureOf(unanswered, {sent: {reference: 'order-1'}, ...details})
    expect(bare).toBeInstanceOf(OutcomeUnknownError)
    expect(bare).toMatchObject({exitCode: 8, noun: 'purchase', reference: 'order-1', status: 200, requestId: 'req-1', message: 'The purchase was sent and no answer came back.'})
    expect(failureOf(unanswered, {sent: {reference: 'order-1'}, lookedUpBecause: 'An earlier run sent this purchase and its answer was not recorded'})?.message).toBe(
      'An earlier run sent this purchase and its answer was not recorded.',
    )
  })

  it('a record that says no outcome, or could not be checked, is shown with why; a missing reference is said as none', () => {
    const record = {id: '071-P-1', amount: 1000}
    const noOutcome = failureOf({outcome: 'unknown', noun: 'purchase', record, reason: {why: 'no_outcome'}}, {sent: {}})
    expect(noOutcome).toMatchObject({exitCode: 8, noun: 'purchase', reference: ''})
    expect(noOutcome?.message).toBe(`The gateway's purchase under reference  does not say whether it was approved (no successful or authorized field): {"id":"071-P-1","amount":1000}`)
    const unchecked = failureOf({outcome: 'unknown', noun: 'refund', record, reason: {why: 'unchecked', unchecked: ['card_holder', 'purchase refunded']}}, {sent, lookedUpBecause: 'The refund was sent but no answer came back that could be read (socket hang up)'})
    expect(unchecked).toMatchObject({exitCode: 8, noun: 'refund', reference: 'refund-1042-a'})
    expect(unchecked?.message).toBe(
      'The refund was sent but no answer came back that could be read (socket hang up). The gateway has a refund under reference refund-1042-a, but whether it is the one sent could not be checked (card_holder, purchase refunded not known): {"id":"071-P-1","amount":1000}',
    )
  })

  it('a record that differs is shown beside what was sent', () => {
    const different = failureOf({outcome: 'unknown', noun: 'refund', record: {id: '071-R-2'}, reason: {why: 'different', differences: [{field: 'amount', against: 'sent', expected: 5000, found: 1}]}}, {sent})
    expect(different?.message).toBe(
      'The gateway has a refund under reference refund-1042-a, but not the one sent (amount: sent 5000, found 1):\n  sent:  {"amount":5000,"reference":"refund-1042-a","transaction_id":"order-1042"}\n  found: {"id":"071-R-2"}',
    )
  })
})

describe('describeDifferences', () => {
  it('names each field, against what was sent or the purchase; nothing is said as none, and false and 0 as they are', () => {
    expect(
      describeDifferences([
        {field: 'reference', against: 'sent', expected: null, found: undefined},
        {field: 'card_holder', against: 'purchase', expected: 'Jane Citizen', found: 'John Smith'},
        {field: 'amount', against: 'sent', expected: 0, found: false},
      ]),
    ).toBe(`reference: sent none, found none; card_holder: the purchase's "Jane Citizen", found "John Smith"; amount: sent 0, found false`)
    expect(describeDifferences([])).toBe('')
  })
})
