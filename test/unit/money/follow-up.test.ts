import {describe, expect, it} from 'vitest'
import {
  decideBeforeSending,
  decideEarlier,
  decideFollowUpAnswer,
  decideLost,
  decideRefused,
  type FollowUp,
  followUpExitCode,
  isVoided,
  stateOf,
  VOIDED,
} from '../../../src/money/follow-up.js'
import * as recorded from '../../fixtures/beyond-records.js'

const id = '071-P-RYOF0L78'
const capture: FollowUp = {kind: 'capture', id, amount: 4842}
const voidPurchase: FollowUp = {kind: 'void', noun: 'purchase', id}
const voidRefund: FollowUp = {kind: 'void', noun: 'refund', id: '071-R-1'}
const increment: FollowUp = {kind: 'increment', id, amount: 10200}
const extend: FollowUp = {kind: 'extend', id}

describe('what a record shows of a capture', () => {
  it('an authorization not captured: not done (yet)', () => {
    expect(stateOf(capture, recorded.authorization)).toEqual({state: 'not_done'})
  })
  it('captured for the amount sent: done', () => {
    expect(stateOf(capture, recorded.captured)).toEqual({state: 'done'})
  })
  it('captured for another amount: never captured twice, said with both amounts', () => {
    expect(stateOf({...capture, amount: 4843}, recorded.captured)).toEqual({state: 'other', why: `${id} is captured already, 4842 of it, not 4843`})
    expect(stateOf({...capture, amount: 1}, {captured: true})).toEqual({state: 'other', why: `${id} is captured already, an amount not shown of it, not 1`})
  })
  it('voided: another state, whatever it was captured for', () => {
    expect(stateOf(capture, {...recorded.captured, message: VOIDED})).toEqual({state: 'other', why: `${id} is voided`})
  })
  it('a record that does not say whether it is captured tells nothing', () => {
    expect(stateOf(capture, {amount: 4842})).toEqual({state: 'untold', why: `${id} does not say whether it is captured`})
    expect(stateOf(capture, {captured: null, captured_amount: 4842})).toEqual({state: 'untold', why: `${id} does not say whether it is captured`})
  })
})

describe('what a record shows of a void', () => {
  it('a purchase voided in either build (successful false in 2017, true in 2019): done', () => {
    expect(stateOf(voidPurchase, recorded.voidedPurchase2017)).toEqual({state: 'done'})
    expect(stateOf(voidPurchase, recorded.voidedPurchase2019)).toEqual({state: 'done'})
  })
  it('a refund voided (refunded Voided, or message Voided): done', () => {
    expect(stateOf(voidRefund, recorded.voidedRefund2018)).toEqual({state: 'done'})
    expect(stateOf(voidRefund, {refunded: VOIDED})).toEqual({state: 'done'})
    expect(stateOf(voidRefund, {message: VOIDED})).toEqual({state: 'done'})
  })
  it('not voided: not done', () => {
    expect(stateOf(voidPurchase, recorded.captured)).toEqual({state: 'not_done'})
    expect(stateOf(voidRefund, recorded.refund2018)).toEqual({state: 'not_done'})
  })
  it('isVoided reads message and refunded', () => {
    expect(isVoided({message: 'Voided'})).toBe(true)
    expect(isVoided({refunded: 'Voided'})).toBe(true)
    expect(isVoided({message: 'Approved', refunded: 'Approved'})).toBe(false)
  })
})

describe('what a record shows of an increment to a new total', () => {
  it('the amount now the total sent: done', () => {
    expect(stateOf(increment, recorded.incremented)).toEqual({state: 'done'})
  })
  it('below it: not done; above it: another state', () => {
    expect(stateOf(increment, recorded.authorization)).toEqual({state: 'not_done'})
    expect(stateOf({...increment, amount: 10199}, recorded.incremented)).toEqual({state: 'other', why: `${id} is authorized for 10200 already, more than 10199`})
  })
  it('captured or voided: another state', () => {
    expect(stateOf(increment, recorded.captured)).toEqual({state: 'other', why: `${id} is captured already`})
    expect(stateOf(increment, recorded.voidedPurchase2019)).toEqual({state: 'other', why: `${id} is voided`})
  })
  it('no amount tells nothing', () => {
    expect(stateOf(increment, {captured: false})).toEqual({state: 'untold', why: `${id} came back without an amount`})
  })
})

describe('what a record shows of an extension', () => {
  it('nothing, while it is an authorization', () => {
    expect(stateOf(extend, recorded.authorization)).toEqual({state: 'untold', why: 'an extension changes nothing a look-up shows'})
  })
  it('captured or voided: another state', () => {
    expect(stateOf(extend, recorded.captured)).toEqual({state: 'other', why: `${id} is captured already`})
    expect(stateOf(extend, recorded.voidedPurchase2017)).toEqual({state: 'other', why: `${id} is voided`})
  })
})

describe('deciding a follow-up', () => {
  it('an answer is done, as it came', () => {
    expect(decideFollowUpAnswer(recorded.captured)).toEqual({outcome: 'done', record: recorded.captured, source: 'answer'})
  })

  it('a refusal of what is done already is done earlier: a rerun of a void is no failure', () => {
    expect(decideRefused(voidPurchase, ['Transaction has already been voided'], recorded.voidedPurchase2019)).toEqual({outcome: 'done', record: recorded.voidedPurchase2019, source: 'earlier'})
    expect(decideRefused(capture, ['Transaction has already been captured'], recorded.captured)).toEqual({outcome: 'done', record: recorded.captured, source: 'earlier'})
  })

  it('any other refusal stands, in the gateway\'s words, with the record when it was found', () => {
    const words = [recorded.overCapture.errors[0]]
    expect(decideRefused({...capture, amount: 1000000000}, words, recorded.authorization)).toEqual({outcome: 'refused', record: recorded.authorization, messages: words})
    expect(decideRefused(capture, words, null)).toEqual({outcome: 'refused', messages: words})
    expect(decideRefused({...capture, amount: 1}, words, recorded.captured)).toEqual({outcome: 'refused', record: recorded.captured, messages: words})
  })

  it('a lost answer: the record says done, not done, another state, or nothing', () => {
    expect(decideLost(capture, recorded.captured)).toEqual({outcome: 'done', record: recorded.captured, source: 'recovered'})
    expect(decideLost(capture, recorded.authorization)).toEqual({outcome: 'not_done', record: recorded.authorization})
    expect(decideLost({...capture, amount: 1}, recorded.captured)).toEqual({outcome: 'other', record: recorded.captured, why: `${id} is captured already, 4842 of it, not 1`})
    expect(decideLost(extend, recorded.authorization)).toEqual({outcome: 'unknown', record: recorded.authorization, why: 'an extension changes nothing a look-up shows'})
  })

  it('a row sent by an earlier run: done earlier, to be sent (not done), another state, or nothing', () => {
    expect(decideEarlier(capture, recorded.captured)).toEqual({outcome: 'done', record: recorded.captured, source: 'earlier'})
    expect(decideEarlier(capture, recorded.authorization)).toBeUndefined()
    expect(decideEarlier({...capture, amount: 1}, recorded.captured)).toEqual({outcome: 'other', record: recorded.captured, why: `${id} is captured already, 4842 of it, not 1`})
    expect(decideEarlier(extend, recorded.authorization)).toEqual({outcome: 'unknown', record: recorded.authorization, why: 'an extension changes nothing a look-up shows'})
  })

  it('an increment looked at before it is sent: to the total first authorized, unchanged (nothing to send); to the total an increment made, done earlier; anything else is sent', () => {
    expect(decideBeforeSending({...increment, amount: 10000}, recorded.authorization)).toEqual({outcome: 'unchanged', record: recorded.authorization})
    // A gateway that names no metadata at all made no increment either.
    const bare = {...recorded.authorization, metadata: null}
    expect(decideBeforeSending({...increment, amount: 10000}, bare)).toEqual({outcome: 'unchanged', record: bare})
    const {metadata: _, ...without} = recorded.authorization
    expect(decideBeforeSending({...increment, amount: 10000}, without)).toEqual({outcome: 'unchanged', record: without})
    expect(decideBeforeSending(increment, recorded.incremented)).toEqual({outcome: 'done', record: recorded.incremented, source: 'earlier'})
    expect(decideBeforeSending(increment, recorded.authorization)).toBeUndefined()
    expect(decideBeforeSending({...increment, amount: 10100}, recorded.incremented)).toBeUndefined()
    // A captured or voided one is the gateway's to refuse, in its words.
    expect(decideBeforeSending({...increment, amount: 10000}, {...recorded.authorization, captured: true})).toBeUndefined()
    expect(decideBeforeSending({...increment, amount: 10000}, {...recorded.authorization, message: VOIDED})).toBeUndefined()
    // Only an increment is looked at first.
    expect(decideBeforeSending({...capture, amount: 10000}, recorded.authorization)).toBeUndefined()
    expect(decideBeforeSending(extend, recorded.authorization)).toBeUndefined()
  })

  it('exit codes: done 0, refused or another state 7, not done or unknown 8, unchanged 2', () => {
    expect(followUpExitCode({outcome: 'unchanged', record: {}})).toBe(2)
    expect(followUpExitCode({outcome: 'done', record: {}, source: 'answer'})).toBe(0)
    expect(followUpExitCode({outcome: 'refused', messages: []})).toBe(7)
    expect(followUpExitCode({outcome: 'other', record: {}, why: ''})).toBe(7)
    expect(followUpExitCode({outcome: 'not_done', record: {}})).toBe(8)
    expect(followUpExitCode({outcome: 'unknown', why: ''})).toBe(8)
  })
})
