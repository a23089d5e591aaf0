import {describe, expect, it} from 'vitest'
import {NotFoundError, ReferenceTakenError, RejectedError} from '../../../src/errors.js'
import {freeRefundReference, refundBody, submitRefund} from '../../../src/operations/refunds.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'
import {fakeClient, fakeDeps} from './fake-client.js'

// A refund without a reference of the user's gets <purchase-ref>-R<n>, the first n no
// refund has at the gateway, and none handed out already in this run.

/** A gateway holding refunds under these references. */
const holding = (...references: string[]) => (reference: string) =>
  references.includes(reference) ? {...liveRefund, reference} : Promise.reject(new NotFoundError(`Purchase not found`, {status: 404}))

describe('freeRefundReference', () => {
  it('asks the gateway for -R1, -R2, ... and takes the first it has no refund under', async () => {
    const fake = fakeClient({'refunds.get': holding('order-1042-R1', 'order-1042-R2')})
    expect(await freeRefundReference(livePurchase, fakeDeps(fake.client))).toBe('order-1042-R3')
    expect(fake.calls.map((call) => call.args[0])).toEqual(['order-1042-R1', 'order-1042-R2', 'order-1042-R3'])
  })

  it('never hands out one reserved already, even at once: two rows of one purchase in flight get two references', async () => {
    const fake = fakeClient({'refunds.get': holding('order-1042-R1')})
    const reserved = new Set(['order-1042-R3'])
    const [a, b] = await Promise.all([freeRefundReference(livePurchase, fakeDeps(fake.client), reserved), freeRefundReference(livePurchase, fakeDeps(fake.client), reserved)])
    expect([a, b].sort()).toEqual(['order-1042-R2', 'order-1042-R4'])
    expect(reserved).toEqual(new Set(['order-1042-R1', 'order-1042-R2', 'order-1042-R3', 'order-1042-R4']))
  })

  it('a look-up that fails otherwise than not found stops it: nothing is derived on a guess', async () => {
    const fake = fakeClient({'refunds.get': () => Promise.reject(new RejectedError('HTTP 503', {status: 503}))})
    await expect(freeRefundReference(livePurchase, fakeDeps(fake.client))).rejects.toBeInstanceOf(RejectedError)
  })

  it('a long purchase reference gives references of 255 characters, the suffix whole', async () => {
    const long = {...livePurchase, reference: 'x'.repeat(300)}
    const fake = fakeClient({'refunds.get': holding('x'.repeat(252) + '-R1')})
    const reference = await freeRefundReference(long, fakeDeps(fake.client))
    expect(reference).toBe('x'.repeat(252) + '-R2')
  })
})

describe('a refund sent without a reference', () => {
  it('looks the purchase up and sends the derived reference; the amount given is kept', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': holding(), 'refunds.create': (body: Record<string, unknown>) => ({...liveRefund, ...body})})
    const sent = await submitRefund({transactionId: livePurchase.id, amount: 5000}, fakeDeps(fake.client))
    expect(sent.body).toEqual({transaction_id: livePurchase.id, amount: 5000, reference: 'order-1042-R1'})
    expect(sent).toMatchObject({derived: true, inFull: false, purchase: livePurchase})
    expect(sent.decided.outcome).toBe('approved')
  })

  it('a reference given is used as it is, and nothing is looked up for it', async () => {
    const fake = fakeClient({'refunds.create': () => liveRefund})
    const request = await refundBody({transactionId: 'order-1042', amount: 5000, reference: 'my-own'}, fakeDeps(fake.client))
    expect(request).toEqual({body: {transaction_id: 'order-1042', amount: 5000, reference: 'my-own'}, purchase: undefined, derived: undefined})
    expect(fake.calls).toEqual([])
  })

  it('a derived reference the gateway says is taken was taken meanwhile by another refund: exit 7, never reported as this one done earlier', async () => {
    // The other refund under it has this one's amount and card: were it believed, this refund would pass as done.
    const fake = fakeClient({
      'purchases.get': () => livePurchase,
      'refunds.get': holding(),
      'refunds.create': () => Promise.reject(new RejectedError('Reference has already been taken', {status: 400, messages: ['Reference has already been taken']})),
    })
    const failed = await submitRefund({transactionId: livePurchase.id, amount: 5000}, fakeDeps(fake.client)).catch((err: unknown) => err)
    expect(failed).toBeInstanceOf(ReferenceTakenError)
    expect((failed as ReferenceTakenError).exitCode).toBe(7)
    expect((failed as ReferenceTakenError).message).toBe('Reference order-1042-R1, made for this refund and free a moment before, was taken by another refund meanwhile: the gateway refused this request under it, and nothing was made.')
    // Looked up once, before it was sent, and never after.
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.get', 'refunds.create'])
  })
})
