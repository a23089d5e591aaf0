import {describe, expect, it} from 'vitest'
import {type BatchAtGateway, purchaseBatch, refundBatch} from '../../../src/batch/kinds.js'
import {GatewayError, InterruptedError, NotFoundError, ReferenceTakenError, RejectedError} from '../../../src/errors.js'
import type {RefundInput} from '../../../src/operations/refunds.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'
import {fakeClient} from '../operations/fake-client.js'

// How a refund or purchase row is made and sent (design.md §5: the gateway has the last word): a row
// no journal of this run has is looked up before it is sent; a blank reference is walked at the
// gateway, and carries the batch's mark.

const BATCH: BatchAtGateway<RefundInput> = {name: 'abcdefghabcdefgh', alike: () => 1}
const notFound = () => Promise.reject(new NotFoundError('Purchase not found', {status: 404}))
const mark = (row: number) => ({gw_batch: BATCH.name, gw_row: String(row)})
const refunds = (client: ReturnType<typeof fakeClient>['client'], batch = BATCH) => refundBatch.sender({client}, new Set(), {dataDir: '/nonexistent'} as never, batch)
const taken = () => Promise.reject(new RejectedError('Reference has already been taken', {status: 400, messages: ['Reference has already been taken']}))

describe('a refund row', () => {
  it('with its reference and amount: made as it is, asking nothing; looked up before it is sent, and sent when the gateway has none', async () => {
    const fake = fakeClient({'refunds.get': notFound, 'refunds.create': () => liveRefund})
    const sender = refunds(fake.client)
    const input = {transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}
    expect(sender.asksFirst(input)).toBe(false)
    const body = await sender.request(input, 1)
    expect(body).toEqual({transaction_id: 'order-1042', amount: 5000, reference: 'refund-1042-a'})
    expect(fake.calls).toEqual([])
    expect((await sender.send(body)).decided).toMatchObject({outcome: 'approved', source: 'answer'})
    expect(fake.calls.map((call) => call.method)).toEqual(['refunds.get', 'refunds.create'])
  })

  it('with its reference, made by an earlier run: found before it is sent, reported done earlier, never sent', async () => {
    const fake = fakeClient({'refunds.get': () => liveRefund, 'purchases.get': () => livePurchase})
    const sender = refunds(fake.client)
    const sent = await sender.send(await sender.request({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, 1))
    expect(sent.decided).toMatchObject({outcome: 'approved', source: 'earlier', record: liveRefund})
    expect(fake.calls.map((call) => call.method)).toEqual(['refunds.get', 'purchases.get'])
  })

  it('without a reference: the first free one derived from the purchase’s, with the batch’s mark, the row’s from now on; sent without a second look-up', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': notFound, 'refunds.create': () => liveRefund})
    const sender = refunds(fake.client)
    const input: RefundInput = {transactionId: 'order-1042', amount: 5000}
    expect(sender.asksFirst(input)).toBe(true)
    const body = await sender.request(input, 3)
    expect(body).toEqual({transaction_id: 'order-1042', amount: 5000, reference: 'order-1042-R1', metadata: mark(3)})
    expect(input.reference).toBe('order-1042-R1')
    expect((await sender.send(body)).decided.outcome).toBe('approved')
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.get', 'refunds.create'])
  })

  it('without a reference, one found free and taken meanwhile was taken by another: nothing of this row was sent', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': notFound, 'refunds.create': taken})
    const sender = refunds(fake.client)
    const error = await sender.send(await sender.request({transactionId: 'order-1042', amount: 5000}, 3)).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(ReferenceTakenError)
    expect((error as Error).message).toBe('Reference order-1042-R1, made for this refund and free a moment before, was taken by another refund meanwhile: the gateway refused this request under it, and nothing was made.')
  })

  it('without a reference, its refund made by an earlier run of this batch: that reference, looked up and reported done earlier, never sent', async () => {
    const made = {...liveRefund, reference: 'order-1042-R1', amount: 5000, metadata: mark(3)}
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': () => made})
    const sender = refunds(fake.client)
    const input: RefundInput = {transactionId: 'order-1042', amount: 5000}
    const body = await sender.request(input, 3)
    expect(body).toEqual({transaction_id: 'order-1042', amount: 5000, reference: 'order-1042-R1', metadata: mark(3)})
    expect(input.reference).toBe('order-1042-R1')
    expect((await sender.send(body)).decided).toMatchObject({outcome: 'approved', source: 'earlier'})
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.get', 'refunds.get', 'purchases.get'])
  })

  it('in full, with a reference the gateway holds: its amount the purchase’s, no question of what is left, reported done earlier', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': () => ({...liveRefund, amount: 10000})})
    const sender = refunds(fake.client)
    const input: RefundInput = {transactionId: 'order-1042', reference: 'refund-1042-a'}
    expect(sender.asksFirst(input)).toBe(true)
    const body = await sender.request(input, 1)
    expect(body).toEqual({transaction_id: 'order-1042', amount: 10000, reference: 'refund-1042-a'})
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.get'])
    expect((await sender.send(body)).decided).toMatchObject({outcome: 'approved', source: 'earlier'})
  })

  it('a look-up before it is made that fails fails the row, unsent', async () => {
    const down = new GatewayError('network', 'no answer')
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': () => Promise.reject(down)})
    await expect(refunds(fake.client).request({transactionId: 'order-1042', reference: 'refund-1042-a'}, 1)).rejects.toBe(down)
  })

  it('how many rows without a reference refund each purchase, counted over the rows', async () => {
    async function* rows(inputs: RefundInput[]) {
      for (const [i, input] of inputs.entries()) yield {row: i + 1, line: i + 2, reference: input.reference ?? '', input}
    }
    const alike = await refundBatch.alike!(rows([{transactionId: 'a'}, {transactionId: 'a', amount: 100}, {transactionId: 'b'}, {transactionId: 'a', reference: 'given'}]))
    expect([alike({transactionId: 'a'}), alike({transactionId: 'b'}), alike({transactionId: 'c'})]).toEqual([2, 1, 1])
  })

  it('the alike count reaches the walk: a row of a purchase the batch refunds twice looks past a free reference for its own', async () => {
    const made = {...liveRefund, reference: 'order-1042-R2', amount: 5000, metadata: mark(3)}
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': (reference: string) => (reference === 'order-1042-R2' ? made : notFound())})
    const body = await refunds(fake.client, {...BATCH, alike: () => 2}).request({transactionId: 'order-1042', amount: 5000}, 3)
    expect(body.reference).toBe('order-1042-R2')
  })

  it('says how the same rows are refunded again, as a new batch', () => {
    expect(refundBatch.anew).toBe('To refund these rows again as a new batch, give it --new-batch and a journal of its own (--journal FILE).')
    expect(purchaseBatch.anew).toBeNull()
  })
})

describe('a refund row’s reference in a dry run', () => {
  const dry = (stubs: Parameters<typeof fakeClient>[0]) => refundBatch.dryReferences!({deps: async () => ({client: fakeClient(stubs).client}) as never}, new Set(), BATCH)

  it('is the one the run would send: derived by the same walk, made earlier or free; none for a row that gives one', async () => {
    const made = {...liveRefund, reference: 'order-1042-R1', amount: 10000, metadata: mark(2)}
    const derive = await dry({'purchases.get': () => livePurchase, 'refunds.get': (reference: string) => (reference === 'order-1042-R1' ? made : notFound())})
    expect(await derive({transactionId: 'order-1042'}, 2)).toEqual({reference: 'order-1042-R1', made: true})
    expect(await derive({transactionId: 'order-1042', amount: 100}, 3)).toEqual({reference: 'order-1042-R2', made: false})
    expect(await derive({transactionId: 'order-1042', reference: 'given'}, 4)).toBeUndefined()
  })

  it('is untold where gw cannot tell: no profile, a look-up that fails, a purchase without an amount; a signal still stops', async () => {
    const noProfile = await refundBatch.dryReferences!({deps: () => Promise.reject(new GatewayError('gateway', 'no profile'))}, new Set(), BATCH)
    expect(await noProfile({transactionId: 'order-1042'}, 1)).toBeUndefined()
    await expect(refundBatch.dryReferences!({deps: () => Promise.reject(new Error('odd'))}, new Set(), BATCH)).rejects.toThrow('odd')
    expect(await (await dry({'purchases.get': notFound}))({transactionId: 'x'}, 1)).toBeUndefined()
    expect(await (await dry({'purchases.get': () => ({reference: 'order-1042'})}))({transactionId: 'x'}, 1)).toBeUndefined()
    const stop = new InterruptedError('SIGINT')
    await expect((await dry({'purchases.get': () => Promise.reject(stop)}))({transactionId: 'x'}, 1)).rejects.toBe(stop)
    const odd = new Error('odd')
    await expect((await dry({'purchases.get': () => Promise.reject(odd)}))({transactionId: 'x'}, 1)).rejects.toBe(odd)
  })
})

describe('a purchase row', () => {
  it('made as the file asks, asking nothing first; looked up before it is sent, and reported done earlier when the gateway has it', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'cards.get': () => ({token: livePurchase.card_token})})
    const sender = purchaseBatch.sender({client: fake.client}, new Set(), {} as never, {name: 'x', alike: () => 1})
    const input = {card: {token: 'jane-mastercard'}, amount: 10000, reference: 'order-1042', currency: 'AUD'}
    expect(sender.asksFirst(input)).toBe(false)
    const body = await sender.request(input, 1)
    expect(fake.calls).toEqual([])
    expect((await sender.send(body)).decided).toMatchObject({outcome: 'approved', source: 'earlier'})
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'cards.get'])
  })
})
