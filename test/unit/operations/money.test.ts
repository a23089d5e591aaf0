import {describe, expect, it} from 'vitest'
import {GatewayError, InterruptedError, ModeMismatchError, NotFoundError, NotSentError, ReferenceTakenError, RejectedError} from '../../../src/errors.js'
import {sendPurchase} from '../../../src/operations/purchases.js'
import {findEarlierRefund, sendRefund, submitRefund} from '../../../src/operations/refunds.js'
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

  it('by another refund: exit 7 naming it and what differs, the request said to have been refused (it was sent); the look-ups are all that is sent after it', async () => {
    const fake = fakeClient({'refunds.create': taken('Reference has already been taken'), 'refunds.get': () => ({...liveRefund, amount: 300}), 'purchases.get': () => livePurchase})
    const sent = await submitRefund({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, fakeDeps(fake.client))
    expect(sent.decided.outcome).toBe('taken')
    expect(sent.failure).toMatchObject({exitCode: 7, message: 'Reference refund-1042-a is already taken by another refund 071-R-8KD2MZQA: amount: sent 5000, found 300. The gateway refused this request under it: nothing was made.'})
    expect(hintFor(sent.failure!)).toBe('Give this refund a reference of its own, or check the earlier one: gw refund get refund-1042-a')
  })

  it('refused as taken, and found under no refund by its reference: nothing was made, exit 7, said so (never a bare not found)', async () => {
    const fake = fakeClient({'refunds.create': taken('Reference has already been taken'), 'refunds.get': () => Promise.reject(new NotFoundError('Refund not found', {status: 404}))})
    const error = await expectReject(submitRefund({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, fakeDeps(fake.client)), ReferenceTakenError, 'the gateway holds the reference elsewhere')
    expect(error).toMatchObject({exitCode: 7, status: 400, message: 'The gateway refused reference refund-1042-a as already taken, and nothing was made. Looking refund-1042-a up found no refund: the gateway holds the reference elsewhere.'})
    expect(fake.calls.map((call) => call.method)).toEqual(['refunds.create', 'refunds.get'])
  })

  it('refused as taken, and the look-up failing otherwise: that failure, as it came', async () => {
    const down = new GatewayError('gateway', 'HTTP 503', {status: 503})
    const fake = fakeClient({'refunds.create': taken('Reference has already been taken'), 'refunds.get': () => Promise.reject(down)})
    expect(await expectReject(submitRefund({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, fakeDeps(fake.client)), GatewayError, 'HTTP 503')).toBe(down)
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

describe('a batch row looked up before it is sent (lookFirst: an earlier run of its batch may have made it)', () => {
  const body = {transaction_id: livePurchase.id, amount: 5000, reference: 'refund-1042-a'}
  const notFound = () => Promise.reject(new NotFoundError('Purchase not found', {status: 404}))

  it('found: reported done earlier, nothing sent', async () => {
    const fake = fakeClient({'refunds.get': () => liveRefund, 'purchases.get': () => livePurchase})
    const sent = await sendRefund({body}, fakeDeps(fake.client), {lookFirst: true})
    expect(sent.decided).toMatchObject({outcome: 'approved', source: 'earlier', record: liveRefund})
    expect(fake.calls.map((call) => call.method)).toEqual(['refunds.get', 'purchases.get'])
  })

  it('found, another transaction’s: refused (exit 7) with nothing sent, saying so', async () => {
    const fake = fakeClient({'refunds.get': () => ({...liveRefund, amount: 300}), 'purchases.get': () => livePurchase})
    const sent = await sendRefund({body}, fakeDeps(fake.client), {lookFirst: true})
    expect(sent.decided.outcome).toBe('taken')
    expect(sent.failure).toMatchObject({exitCode: 7, message: 'Reference refund-1042-a is already taken by another refund 071-R-8KD2MZQA: amount: sent 5000, found 300. Nothing was sent.'})
  })

  it('found, but not to be checked: unknown (exit 8), said to have been looked up before it was sent', async () => {
    const fake = fakeClient({'refunds.get': () => liveRefund, 'purchases.get': () => Promise.reject(new Error('HTTP 503'))})
    const sent = await sendRefund({body}, fakeDeps(fake.client), {lookFirst: true})
    expect(sent.failure?.exitCode).toBe(8)
    expect(sent.failure?.message).toMatch(/^This refund was looked up before it was sent, in case an earlier run of its batch made it\. The gateway has a refund under reference refund-1042-a, but whether it is the one sent could not be checked/)
  })

  it('not found: sent, once', async () => {
    const fake = fakeClient({'refunds.get': notFound, 'refunds.create': () => liveRefund})
    const sent = await sendRefund({body}, fakeDeps(fake.client), {lookFirst: true})
    expect(sent.decided).toMatchObject({outcome: 'approved', source: 'answer'})
    expect(fake.calls.map((call) => call.method)).toEqual(['refunds.get', 'refunds.create'])
  })

  it('a look-up that fails sends nothing: NotSentError, its cause the look-up’s failure, said so', async () => {
    const down = new GatewayError('network', 'Could not reach the gateway', {status: 502, requestId: 'r-1', hint: 'Check the network.'})
    const fake = fakeClient({'refunds.get': () => Promise.reject(down)})
    const error = await sendRefund({body}, fakeDeps(fake.client), {lookFirst: true}).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(NotSentError)
    const {cause} = error as NotSentError
    expect(cause).toBeInstanceOf(GatewayError)
    expect(cause).toMatchObject({kind: 'network', exitCode: 1, status: 502, requestId: 'r-1', hint: 'Check the network.', message: 'Reference refund-1042-a could not be looked up before it was sent (Could not reach the gateway): nothing was sent'})
    expect((error as NotSentError).message).toBe(cause.message)
    expect(fake.calls.map((call) => call.method)).toEqual(['refunds.get'])
  })

  it('a look-up answered by the other environment, or refused, sends nothing either: its own error the cause; a signal stops as it came, and anything else passes through', async () => {
    const mismatch = new ModeMismatchError('answered in live mode', {expected: 'sandbox', reported: 'live'})
    const wrong = await sendRefund({body}, fakeDeps(fakeClient({'refunds.get': () => Promise.reject(mismatch)}).client), {lookFirst: true}).catch((err: unknown) => err)
    expect(wrong).toBeInstanceOf(NotSentError)
    expect((wrong as NotSentError).cause).toBe(mismatch)
    const stop = new InterruptedError('SIGINT')
    await expect(sendRefund({body}, fakeDeps(fakeClient({'refunds.get': () => Promise.reject(stop)}).client), {lookFirst: true})).rejects.toBe(stop)
    const odd = new Error('odd')
    await expect(sendRefund({body}, fakeDeps(fakeClient({'refunds.get': () => Promise.reject(odd)}).client), {lookFirst: true})).rejects.toBe(odd)
    // A resumed row's look-up (not before sending) leaves a signal and the other environment as they came, too.
    await expect(findEarlierRefund({body}, fakeDeps(fakeClient({'refunds.get': () => Promise.reject(stop)}).client))).rejects.toBe(stop)
    await expect(findEarlierRefund({body}, fakeDeps(fakeClient({'refunds.get': () => Promise.reject(mismatch)}).client))).rejects.toBe(mismatch)
  })

  it('a purchase too', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'cards.get': () => ({token: livePurchase.card_token})})
    const sent = await sendPurchase({card_token: 'jane-mastercard', amount: 10000, currency: 'aud', reference: 'order-1042'}, fakeDeps(fake.client), {lookFirst: true})
    expect(sent.decided).toMatchObject({outcome: 'approved', source: 'earlier'})
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'cards.get'])
  })
})
