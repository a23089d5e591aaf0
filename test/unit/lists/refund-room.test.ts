import {describe, expect, it} from 'vitest'
import {GatewayError, InterruptedError, NotFoundError, RejectedError} from '../../../src/errors.js'
import {lookUpPurchase, refundable} from '../../../src/lists/refund-room.js'
import type {RefundInput} from '../../../src/operations/refunds.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'
import {fakeClient} from '../operations/fake-client.js'
import {testBook} from './test-book.js'

// One refund held to what is certainly left of its purchase before it is sent: refused
// as the gateway would refuse it, in the words of a refund in full or of an amount; a purchase not
// found is the gateway's to judge only when an amount is given.

// The gateway's own figure (refunded_amount): what is left is known without a walk of the card's refunds.
const refundedSoFar = (refunded: number) => ({...livePurchase, refunded_amount: refunded})
// Each purchase here says what was refunded of it, or is not found: the book of refunds is never read.
const request = {concurrency: 1, made: async () => new Map(), book: testBook(fakeClient({}).client)}
const answering = (get: (name: string) => unknown) => fakeClient({'purchases.get': get})
const notFound = () => Promise.reject(new NotFoundError('Purchase not found', {status: 404}))

describe('refundable: one refund held to what is left of its purchase', () => {
  it('a refund in full of a purchase partly refunded is refused in a refund-in-full’s words', async () => {
    const {client} = answering(() => refundedSoFar(3000))
    const error = await refundable({transactionId: 'order-1042'}, request, {client}).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(RejectedError)
    expect((error as Error).message).toBe('Refunding purchase order-1042 in full: 100.00 AUD is more than is left of it, 70.00 AUD (the gateway says 30.00 AUD of 100.00 AUD refunded): nothing was sent')
  })

  it('a refund of an amount over what is left is refused in an amount’s words', async () => {
    const {client} = answering(() => refundedSoFar(3000))
    await expect(refundable({transactionId: 'order-1042', amount: 8000}, request, {client})).rejects.toThrow(
      'A refund of purchase order-1042: 80.00 AUD is more than is left of it, 70.00 AUD (the gateway says 30.00 AUD of 100.00 AUD refunded): nothing was sent',
    )
  })

  it('what is left goes on, with the purchase looked up carried along', async () => {
    const {client, calls} = answering(() => refundedSoFar(3000))
    expect(await refundable({transactionId: 'order-1042', amount: 7000}, request, {client})).toEqual({transactionId: 'order-1042', amount: 7000, purchase: refundedSoFar(3000)})
    expect(calls.map((call) => call.method)).toEqual(['purchases.get'])
  })

  it('a purchase that came back without its amount goes on with it, for refundBody to say so', async () => {
    const {amount: _, ...noAmount} = livePurchase
    const {client} = answering(() => noAmount)
    expect(await refundable({transactionId: 'order-1042', amount: 500}, request, {client})).toEqual({transactionId: 'order-1042', amount: 500, purchase: noAmount})
  })

  it('a purchase not found, with an amount given: the input goes on unchanged, the gateway’s to judge', async () => {
    const {client} = answering(notFound)
    const input: RefundInput = {transactionId: 'order-new', amount: 500, reference: 'refund-1'}
    expect(await refundable(input, request, {client})).toStrictEqual({transactionId: 'order-new', amount: 500, reference: 'refund-1'})
  })

  it('a purchase not found, refunded in full: said as the other commands say it', async () => {
    const {client} = answering(notFound)
    const error = await refundable({transactionId: 'order-new'}, request, {client}).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(NotFoundError)
    expect((error as Error).message).toBe('No purchase has the id or reference order-new: Purchase not found')
  })
})

describe('lookUpPurchase', () => {
  it('not found: none with an amount given; refused without one', async () => {
    const {client} = answering(notFound)
    expect(await lookUpPurchase({transactionId: 'order-new', amount: 500}, {client})).toBeUndefined()
    await expect(lookUpPurchase({transactionId: 'order-new'}, {client})).rejects.toThrow('No purchase has the id or reference order-new: Purchase not found')
  })

  it('any other failure fails it, with an amount given or not', async () => {
    const {client} = answering(() => Promise.reject(new GatewayError('network', 'No answer')))
    await expect(lookUpPurchase({transactionId: 'order-1042', amount: 500}, {client})).rejects.toThrow('No answer')
    await expect(lookUpPurchase({transactionId: 'order-1042'}, {client})).rejects.toThrow('No answer')
  })
})

describe('refundable: a refusal that rests on gw’s index reads afresh the refunds that refuse it', () => {
  // Refund R-1, which gw made for the purchase, refunded it in full (as the index read it).
  const made = async (ids: ReadonlySet<string>) => new Map([...ids].filter((id) => id === 'R-1').map((id) => [id, {transactionId: String(livePurchase.id), purchaseId: String(livePurchase.id), by: 'journal' as const}]))
  const madeRefund = {...liveRefund, id: 'R-1', amount: livePurchase.amount, reference: 'order-1042-R1'}
  const listed = (...records: Record<string, unknown>[]) => () => ({records, paging: {page: 0, pages: 1, total: records.length}})

  function gateway(readAgain: () => unknown, others: Record<string, unknown>[] = []) {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': listed(madeRefund, ...others), 'refunds.get': readAgain})
    return {...fake, request: {concurrency: 1, made, book: testBook(fake.client)}}
  }

  it('voided since the index read it: it counts for nothing, and the refund goes on', async () => {
    const {client, calls, request} = gateway(() => ({...madeRefund, message: 'Voided', refunded: 'Voided'}))
    expect(await refundable({transactionId: 'order-1042', amount: 4000}, request, {client})).toMatchObject({transactionId: 'order-1042', amount: 4000, purchase: {id: livePurchase.id}})
    expect(calls.filter((call) => call.method === 'refunds.get').map((call) => call.args)).toEqual([['R-1']])
  })

  it('as the index read it: refused, in the words of what gw made for it', async () => {
    const {client, request} = gateway(() => madeRefund)
    await expect(refundable({transactionId: 'order-1042', amount: 4000}, request, {client})).rejects.toThrow(
      `Nothing is left of purchase order-1042 to refund (100.00 AUD of 100.00 AUD refunded for certain: 1 refund gw made for it): nothing was sent`,
    )
  })

  it('only the refunds gw made for it are read again, not those that only may be its own', async () => {
    const other = {...liveRefund, id: 'R-2', amount: 100, reference: 'someone-else'}
    const {client, calls, request} = gateway(() => madeRefund, [other])
    await expect(refundable({transactionId: 'order-1042', amount: 4000}, request, {client})).rejects.toBeInstanceOf(RejectedError)
    expect(calls.filter((call) => call.method === 'refunds.get').map((call) => call.args)).toEqual([['R-1']])
  })

  it('one the gateway will not give again leaves the index’s copy standing; a stop stops it', async () => {
    const failing = gateway(() => Promise.reject(new GatewayError('network', 'no answer')))
    await expect(refundable({transactionId: 'order-1042', amount: 4000}, failing.request, {client: failing.client})).rejects.toThrow('Nothing is left of purchase order-1042 to refund')
    const stop = new InterruptedError('SIGINT')
    const stopped = gateway(() => Promise.reject(stop))
    await expect(refundable({transactionId: 'order-1042', amount: 4000}, stopped.request, {client: stopped.client})).rejects.toBe(stop)
  })

  it('the gateway’s own figure refuses with nothing read: no list, no refund read again', async () => {
    const {client, calls, request} = gateway(() => madeRefund)
    const figured = {...livePurchase, refunded_amount: 0}
    expect((await refundable({transactionId: 'order-1042', amount: 100, purchase: figured}, request, {client})).amount).toBe(100)
    await expect(refundable({transactionId: 'order-1042', amount: 100_000, purchase: figured}, request, {client})).rejects.toThrow('the gateway says')
    expect(calls).toEqual([])
  })

  it('refused with nothing gw made for it (declined): nothing read again, and no other purchase asked about', async () => {
    // A refund on its card whose reference names another purchase: only a full match asks about that one.
    const {client, calls, request} = gateway(() => madeRefund, [{...liveRefund, id: 'R-9', amount: 100, reference: 'order-9-R1'}])
    const declined = {...livePurchase, successful: false, message: 'Declined'}
    await expect(refundable({transactionId: 'order-1042', amount: 100, purchase: declined}, {...request, made: async () => new Map()}, {client})).rejects.toThrow('took nothing (it was declined)')
    expect(calls.map((call) => call.method)).toEqual(['refunds.list'])
  })
})
