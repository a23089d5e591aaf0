import {describe, expect, it} from 'vitest'
import {RejectedError} from '../../../src/errors.js'
import {sendPurchase} from '../../../src/operations/purchases.js'
import {submitRefund} from '../../../src/operations/refunds.js'
import {fakeClient, fakeDeps} from './fake-client.js'

const taken = (message: string) => () => Promise.reject(new RejectedError(message, {status: 400, messages: [message]}))

describe('a reference already taken (issue 9 §4)', () => {
  it('by the same refund, the purchase named by its reference: done earlier, nothing sent again', async () => {
    const earlier = {id: '071-R-1', reference: 'r-1', amount: -500, transaction_id: '071-P-1', successful: true}
    const fake = fakeClient({'refunds.create': taken('Reference has already been taken'), 'refunds.get': () => earlier, 'purchases.get': () => ({id: '071-P-1'})})
    await expect(submitRefund({transactionId: 'order-1', amount: 500, reference: 'r-1'}, fakeDeps(fake.client))).resolves.toMatchObject({record: earlier, doneEarlier: true})
    expect(fake.calls.map((call) => call.method)).toEqual(['refunds.create', 'refunds.get', 'purchases.get'])
  })

  it('by another refund: exit 7 naming both, and the look-up is all that is sent', async () => {
    const fake = fakeClient({'refunds.create': taken('Reference has already been taken'), 'refunds.get': () => ({id: '071-R-1', amount: 300, transaction_id: '071-P-1'})})
    const error = await submitRefund({transactionId: '071-P-1', amount: 500, reference: 'r-1'}, fakeDeps(fake.client)).catch((err: unknown) => err)
    expect(error).toMatchObject({exitCode: 7, message: 'Reference r-1 is already taken by another refund 071-R-1: amount 300 there, 500 asked. Nothing was sent.', hint: 'Give this refund a reference of its own, or check the earlier one: gw refund get r-1'})
  })

  it('by the same purchase, the card named by its alias', async () => {
    const earlier = {id: '071-P-1', amount: 1000, currency: 'AUD', card_token: 'tok123', successful: true}
    const fake = fakeClient({'purchases.create': taken('Reference is already taken'), 'purchases.get': () => earlier, 'cards.get': () => ({token: 'tok123'})})
    await expect(sendPurchase({card_token: 'my-alias', amount: 1000, currency: 'aud', reference: 'o-1'}, fakeDeps(fake.client))).resolves.toEqual({record: earlier, doneEarlier: true})
    fake.verify()
  })

  it('any other refusal passes through untouched', async () => {
    const fake = fakeClient({'purchases.create': taken('Currency XYZ is not valid for this merchant')})
    await expect(sendPurchase({card_token: 't', amount: 1, currency: 'XYZ', reference: 'o'}, fakeDeps(fake.client))).rejects.toThrow('Currency XYZ is not valid')
  })
})

describe('a refund without an amount', () => {
  it("refunds the purchase's full amount, looked up first", async () => {
    const fake = fakeClient({'purchases.get': () => ({id: '071-P-1', amount: 4200, currency: 'AUD'}), 'refunds.create': (body: unknown) => ({id: '071-R-1', ...(body as object)})})
    const sent = await submitRefund({transactionId: '071-P-1', reference: 'r-1'}, fakeDeps(fake.client))
    expect(fake.calls[1]).toEqual({method: 'refunds.create', args: [{transaction_id: '071-P-1', amount: 4200, reference: 'r-1'}]})
    expect(sent.purchase).toEqual({id: '071-P-1', amount: 4200, currency: 'AUD'})
  })
})
