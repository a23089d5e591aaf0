import {describe, expect, it} from 'vitest'
import {ModeMismatchError, NotFoundError, RejectedError} from '../../../src/errors.js'
import {sendPurchase} from '../../../src/operations/purchases.js'
import {findEarlierRefund, submitRefund} from '../../../src/operations/refunds.js'
import {hintFor} from '../../../src/output/hints.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'
import {fakeClient, fakeDeps} from './fake-client.js'
import {expectReject} from '../../expect-error.js'

const taken = (message: string) => () => Promise.reject(new RejectedError(message, {status: 400, messages: [message]}))

describe('a reference already taken, decided on live-shaped records', () => {
  it('by this same refund (its transaction_id its own id, its amount positive): done earlier, nothing sent again', async () => {
    const fake = fakeClient({'refunds.create': taken('Reference has already been taken'), 'refunds.get': () => liveRefund, 'purchases.get': () => livePurchase})
    const sent = await submitRefund({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, fakeDeps(fake.client))
    expect(sent.decided).toEqual({outcome: 'approved', noun: 'refund', record: liveRefund, source: 'earlier'})
    expect(sent.failure).toBeUndefined()
    expect(fake.calls).toEqual([
      {method: 'refunds.create', args: [{transaction_id: 'order-1042', amount: 5000, reference: 'refund-1042-a'}]},
      {method: 'refunds.get', args: ['refund-1042-a']},
      {method: 'purchases.get', args: ['order-1042']},
    ])
  })

  it('by another refund: exit 7 naming it and what differs; the look-ups are all that is sent', async () => {
    const fake = fakeClient({'refunds.create': taken('Reference has already been taken'), 'refunds.get': () => ({...liveRefund, amount: 300}), 'purchases.get': () => livePurchase})
    const sent = await submitRefund({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, fakeDeps(fake.client))
    expect(sent.decided.outcome).toBe('taken')
    expect(sent.failure).toMatchObject({exitCode: 7, message: 'Reference refund-1042-a is already taken by another refund 071-R-8KD2MZQA: amount: sent 5000, found 300. Nothing was sent.'})
    expect(hintFor(sent.failure!)).toBe('Give this refund a reference of its own, or check the earlier one: gw refund get refund-1042-a')
  })

  it('a full refund taken earlier is held against the purchase looked up for its amount, not looked up again', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.create': taken('Reference has already been taken'), 'refunds.get': () => ({...liveRefund, amount: 10000})})
    const sent = await submitRefund({transactionId: 'order-1042', reference: 'refund-1042-a'}, fakeDeps(fake.client))
    expect(sent.decided).toMatchObject({outcome: 'approved', source: 'earlier'})
    expect(sent.purchase).toEqual(livePurchase)
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.create', 'refunds.get'])
  })

  it('by this same purchase, the card named by its alias', async () => {
    const fake = fakeClient({'purchases.create': taken('Reference is already taken'), 'purchases.get': () => livePurchase, 'cards.get': () => ({token: livePurchase.card_token})})
    const sent = await sendPurchase({card_token: 'jane-mastercard', amount: 10000, currency: 'aud', reference: 'order-1042'}, fakeDeps(fake.client))
    expect(sent.decided).toMatchObject({outcome: 'approved', source: 'earlier', record: livePurchase})
    fake.verify()
  })

  it('by a purchase whose alias cannot be looked up: unknown (exit 8), never believed', async () => {
    const fake = fakeClient({'purchases.create': taken('Reference is already taken'), 'purchases.get': () => livePurchase, 'cards.get': () => Promise.reject(new Error('HTTP 503'))})
    const sent = await sendPurchase({card_token: 'jane-mastercard', amount: 10000, currency: 'AUD', reference: 'order-1042'}, fakeDeps(fake.client))
    expect(sent.decided).toMatchObject({outcome: 'unknown', reason: {why: 'unchecked'}})
    expect(sent.failure?.exitCode).toBe(8)
  })

  it('any other refusal passes through untouched', async () => {
    const fake = fakeClient({'purchases.create': taken('Currency XYZ is not valid for this merchant')})
    await expectReject(sendPurchase({card_token: 't', amount: 1, currency: 'XYZ', reference: 'o'}, fakeDeps(fake.client)), RejectedError, 'Currency XYZ is not valid')
  })
})

describe('a row an earlier run sent (a batch resumed)', () => {
  it('found as a live-shaped refund: approved, done earlier', async () => {
    const fake = fakeClient({'refunds.get': () => liveRefund, 'purchases.get': () => livePurchase})
    await expect(findEarlierRefund({body: {transaction_id: livePurchase.id, amount: 5000, reference: 'refund-1042-a'}}, fakeDeps(fake.client))).resolves.toMatchObject({
      decided: {outcome: 'approved', source: 'earlier'},
    })
  })

  it('not found: undefined, to be sent', async () => {
    const fake = fakeClient({'refunds.get': () => Promise.reject(new NotFoundError('Purchase not found', {status: 404}))})
    await expect(findEarlierRefund({body: {transaction_id: livePurchase.id, amount: 5000, reference: 'refund-1042-a'}}, fakeDeps(fake.client))).resolves.toBeUndefined()
  })

  it('a look-up that fails leaves it unknown', async () => {
    const fake = fakeClient({'refunds.get': () => Promise.reject(new Error('socket hang up'))})
    const sent = await findEarlierRefund({body: {transaction_id: livePurchase.id, amount: 5000, reference: 'refund-1042-a'}}, fakeDeps(fake.client))
    expect(sent?.failure).toMatchObject({exitCode: 8, message: 'An earlier run sent this refund and its answer was not recorded, and looking it up failed: socket hang up'})
  })
})

describe('a purchase answered by a gateway of the other environment', () => {
  it('is decided from the record that came, and stops with the mismatch (exit 6)', async () => {
    const mismatch = new ModeMismatchError('answered in live mode', {expected: 'sandbox', reported: 'live', inFlight: {noun: 'purchase', reference: 'order-1042'}}, {record: livePurchase})
    const fake = fakeClient({'purchases.create': () => Promise.reject(mismatch)})
    const sent = await sendPurchase({card_token: 't', amount: 10000, currency: 'AUD', reference: 'order-1042'}, fakeDeps(fake.client))
    expect(sent.decided).toMatchObject({outcome: 'approved', record: livePurchase})
    expect(sent.wrongGateway).toBe(mismatch)
    expect(sent.failure?.exitCode).toBe(6)
  })
})
