import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {type BatchAtGateway, purchaseBatch} from '../../../src/batch/kinds.js'
import {refundBatch} from '../../../src/batch/refund-kind.js'
import {GatewayError, InterruptedError, NotFoundError, ReferenceTakenError, RejectedError, UsageError} from '../../../src/errors.js'
import type {RefundInput} from '../../../src/operations/refunds.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'
import {fakeClient} from '../operations/fake-client.js'

// How a refund or purchase row is made and sent (design.md §5: the gateway has the last word): a row
// no journal of this run has is looked up before it is sent; a blank reference is walked at the
// gateway, and carries the batch's mark.

const BATCH: BatchAtGateway<RefundInput> = {name: 'abcdefghabcdefgh', alike: () => 1}
const notFound = () => Promise.reject(new NotFoundError('Purchase not found', {status: 404}))
const mark = (row: number) => ({gw_batch: BATCH.name, gw_row: String(row)})
// Where gw's records of the refunds it made are, and its index of refunds: a folder of each sender's own, empty, so only the gateway's own figure (refunded_amount) makes what is left certain.
const place = () => ({dataDir: mkdtempSync(join(tmpdir(), 'gw-kinds-')), target: async () => ({baseUrl: 'https://gateway.example', username: 'merchant'})})
const refunds = (client: ReturnType<typeof fakeClient>['client'], batch = BATCH) => refundBatch.sender({client}, new Set(), place(), batch)
const noRefunds = {records: [], paging: {page: 1, pages: 1, total: 0}}
/** The refunds list as the gateway holds these: one page. */
const listing = (...records: Record<string, unknown>[]) => () => ({records, paging: {page: 1, pages: 1, total: records.length}})
const taken = () => Promise.reject(new RejectedError('Reference has already been taken', {status: 400, messages: ['Reference has already been taken']}))

describe('a refund row', () => {
  it('with its reference and amount: held to what is left of its purchase, its reference found free in the refunds since it (gw\'s index, one page), and sent with no look-up', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': () => noRefunds, 'refunds.create': () => liveRefund})
    const sender = refunds(fake.client)
    const input = {transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}
    expect(sender.asksFirst(input)).toBe(true)
    const body = await sender.request(input, 1)
    expect(body).toEqual({transaction_id: 'order-1042', amount: 5000, reference: 'refund-1042-a'})
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.list'])
    expect((await sender.send(body)).decided).toMatchObject({outcome: 'approved', source: 'answer'})
    expect(fake.calls.map((call) => call.method).slice(2)).toEqual(['refunds.create'])
  })

  it('with its reference, found free and then taken at the gateway: looked up then, as a reference gw did not make (not one taken by another)', async () => {
    let made = false
    const found = {...liveRefund, reference: 'refund-1042-a', amount: 5000}
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': () => (made ? found : notFound()), 'refunds.list': () => noRefunds, 'refunds.create': () => ((made = true), taken())})
    const sender = refunds(fake.client)
    const sent = await sender.send(await sender.request({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, 1))
    expect(sent.decided).toMatchObject({outcome: 'approved', source: 'earlier'})
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.list', 'refunds.create', 'refunds.get'])
  })

  it('with its reference, made by an earlier run: found before it is sent, reported done earlier, never sent; its purchase read once', async () => {
    const fake = fakeClient({'refunds.get': () => liveRefund, 'purchases.get': () => livePurchase, 'refunds.list': listing({...liveRefund, reference: 'refund-1042-a'})})
    const sender = refunds(fake.client)
    const sent = await sender.send(await sender.request({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, 1))
    expect(sent.decided).toMatchObject({outcome: 'approved', source: 'earlier', record: liveRefund})
    // Held under its reference since the purchase, as gw's index has it: looked up once, as an earlier run's, before anything is sent.
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.list', 'refunds.get'])
  })

  it('a refund found made by an earlier run is in the gateway’s own figure already: the next row of its purchase may take the rest', async () => {
    const earlier = {...liveRefund, reference: 'refund-1042-a', amount: 5000}
    const fake = fakeClient({'purchases.get': () => ({...livePurchase, refunded_amount: 5000}), 'refunds.get': () => earlier, 'refunds.list': listing(earlier)})
    const sender = refunds(fake.client)
    const found = await sender.send(await sender.request({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, 1))
    expect(found.decided).toMatchObject({outcome: 'approved', source: 'earlier'})
    expect(await sender.request({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-b'}, 2)).toEqual({transaction_id: 'order-1042', amount: 5000, reference: 'refund-1042-b'})
  })

  it('of an amount beyond what is certainly left: refused before anything is sent (exit 7), its money the amount asked in its purchase’s currency', async () => {
    const fake = fakeClient({'purchases.get': () => ({...livePurchase, refunded_amount: 6000}), 'refunds.list': () => noRefunds})
    const sender = refunds(fake.client)
    for (const input of [{transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, {transactionId: 'order-1042', amount: 4001}] as RefundInput[]) {
      const error = await sender.request(input, 1).catch((err: unknown) => err)
      expect(error).toBeInstanceOf(RejectedError)
      expect((error as RejectedError).exitCode).toBe(7)
      expect((error as Error).message).toMatch(/^A refund of purchase order-1042: .*40\.00 AUD.*: nothing was sent$/)
      expect(sender.unsentMoney!(input)).toEqual({amount: input.amount, currency: 'AUD'})
    }
    // What is left may be asked: the row is made.
    expect(await sender.request({transactionId: 'order-1042', amount: 4000, reference: 'refund-1042-b'}, 3)).toEqual({transaction_id: 'order-1042', amount: 4000, reference: 'refund-1042-b'})
    expect(fake.calls.map((call) => call.method)).not.toContain('refunds.create')
  })

  it('in full, failed before it is sent: its money the purchase’s amount and currency; a purchase not found leaves the currency untold', async () => {
    const sender = refunds(fakeClient({'purchases.get': () => ({...livePurchase, refunded_amount: 10000}), 'refunds.list': () => noRefunds}).client)
    const inFull: RefundInput = {transactionId: 'order-1042'}
    await expect(sender.request(inFull, 1)).rejects.toThrow('Nothing is left of purchase order-1042 to refund')
    expect(sender.unsentMoney!(inFull)).toEqual({amount: 10000, currency: 'AUD'})
    const missing = refunds(fakeClient({'purchases.get': notFound}).client)
    const given: RefundInput = {transactionId: 'order-404', amount: 700}
    await expect(missing.request(given, 2)).rejects.toBeInstanceOf(NotFoundError)
    expect(missing.unsentMoney!(given)).toEqual({amount: 700, currency: undefined})
    expect(missing.unsentMoney!({transactionId: 'order-404'})).toEqual({amount: undefined, currency: undefined})
    const odd = refunds(fakeClient({'purchases.get': () => ({...livePurchase, amount: '100', currency: 36})}).client)
    const oddInput: RefundInput = {transactionId: 'order-1042'}
    await expect(odd.request(oddInput, 1)).rejects.toThrow('without an amount')
    expect(odd.unsentMoney!(oddInput)).toEqual({amount: undefined, currency: undefined})
  })

  it('with its reference and amount, its purchase not found yet: the gateway’s to judge, sent once after its reference is looked up', async () => {
    const fake = fakeClient({'purchases.get': notFound, 'refunds.get': notFound, 'refunds.create': () => liveRefund})
    const sender = refunds(fake.client)
    const body = await sender.request({transactionId: 'order-new', amount: 500, reference: 'refund-new'}, 1)
    await sender.send(body)
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.get', 'refunds.create'])
    expect(sender.money(body, {...liveRefund, currency: undefined})).toEqual({amount: 500, currency: undefined})
  })

  it('its money in the currency the gateway’s answer says, else its purchase’s', async () => {
    const fake = fakeClient({'purchases.get': () => ({...livePurchase, currency: 'NZD'}), 'refunds.get': notFound, 'refunds.list': () => noRefunds})
    const sender = refunds(fake.client)
    const body = await sender.request({transactionId: 'order-1042', amount: 500, reference: 'refund-1042-c'}, 1)
    expect(sender.money(body, {...liveRefund, currency: undefined})).toEqual({amount: 500, currency: 'NZD'})
    expect(sender.money(body, {...liveRefund, currency: 'AUD'})).toEqual({amount: 500, currency: 'AUD'})
    expect(sender.money(body)).toEqual({amount: 500, currency: 'NZD'})
    expect(sender.money({...body}, {...liveRefund, currency: 7})).toEqual({amount: 500, currency: undefined})
  })

  it('without a reference: the first free one derived from the purchase’s, with the batch’s mark, the row’s from now on; sent without a second look-up', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': () => noRefunds, 'refunds.create': () => liveRefund})
    const sender = refunds(fake.client)
    const input: RefundInput = {transactionId: 'order-1042', amount: 5000}
    expect(sender.asksFirst(input)).toBe(true)
    const body = await sender.request(input, 3)
    expect(body).toEqual({transaction_id: 'order-1042', amount: 5000, reference: 'order-1042-R1', metadata: mark(3)})
    expect(input.reference).toBe('order-1042-R1')
    expect((await sender.send(body)).decided.outcome).toBe('approved')
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.list', 'refunds.create'])
  })

  it('without a reference, one found free and taken meanwhile was taken by another: nothing of this row was sent', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': () => noRefunds, 'refunds.create': taken})
    const sender = refunds(fake.client)
    const error = await sender.send(await sender.request({transactionId: 'order-1042', amount: 5000}, 3)).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(ReferenceTakenError)
    expect((error as Error).message).toBe('Reference order-1042-R1, made for this refund and free a moment before, was taken by another refund meanwhile: the gateway refused this request under it, and nothing was made.')
  })

  it('without a reference, its refund made by an earlier run of this batch: that reference, looked up and reported done earlier, never sent', async () => {
    const made = {...liveRefund, reference: 'order-1042-R1', amount: 5000, metadata: mark(3)}
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': () => made, 'refunds.list': listing(made)})
    const sender = refunds(fake.client)
    const input: RefundInput = {transactionId: 'order-1042', amount: 5000}
    const body = await sender.request(input, 3)
    expect(body).toEqual({transaction_id: 'order-1042', amount: 5000, reference: 'order-1042-R1', metadata: mark(3)})
    expect(input.reference).toBe('order-1042-R1')
    expect((await sender.send(body)).decided).toMatchObject({outcome: 'approved', source: 'earlier'})
    // Its purchase read once: the one looked up for its reference serves the check of the refund found.
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.list', 'refunds.get'])
  })

  it('without a reference, of a purchase an earlier run refunded from a row set aside (named by its id then): refused unsent, once for each such refund; other purchases’ and given references refuse nothing', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': () => noRefunds, 'refunds.create': () => liveRefund})
    const intent = (reference: string, line: number, request: Record<string, unknown>, asked?: Record<string, unknown>) => ({intent: reference, row: 1, line, request, sent_at: '2026-11-30T09:00:00.000Z', ...(asked ? {asked} : {})})
    const setAside = [
      intent('order-1042-R1', 4, {transaction_id: '071-P-1VQZVNTX', amount: 5000, reference: 'order-1042-R1'}, {transaction_id: '071-P-1VQZVNTX', reference: 'order-1042-R1'}),
      intent('order-7-R1', 5, {transaction_id: 'order-7', amount: 100, reference: 'order-7-R1'}),
      intent('order-1042', 6, {transaction_id: '071-P-1VQZVNTX', amount: 100, reference: 'order-1042'}),
    ]
    // As a run has them: every reference its journal holds is taken.
    const sender = refundBatch.sender({client: fake.client}, new Set(setAside.map((each) => each.intent)), place(), {...BATCH, setAside})
    const refused = await sender.request({transactionId: 'order-1042', amount: 5000}, 2).catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(UsageError)
    expect(refused).toMatchObject({
      exitCode: 2,
      message: 'Purchase order-1042 is the one an earlier run of this batch sent refund order-1042-R1 of, from line 4, where it was named 071-P-1VQZVNTX: this row may be that one, so it was not sent',
      hint: 'To finish that row, name the purchase 071-P-1VQZVNTX as line 4 did. To make another refund of it, give this row a reference of its own.',
    })
    // A row that gives its reference is its own; the next row of the purchase is a new refund.
    expect((await sender.request({transactionId: 'order-1042', amount: 100, reference: 'refund-b'}, 3)).reference).toBe('refund-b')
    expect(await sender.request({transactionId: 'order-1042', amount: 100}, 4)).toEqual({transaction_id: 'order-1042', amount: 100, reference: 'order-1042-R2', metadata: mark(4)})
    expect(fake.calls.map((call) => call.method).filter((method) => method === 'refunds.create')).toEqual([])
  })

  it('in full, with a reference the gateway holds: its amount the purchase’s, no question of what is left, reported done earlier', async () => {
    const held = {...liveRefund, reference: 'refund-1042-a', amount: 10000}
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': () => held, 'refunds.list': listing(held)})
    const sender = refunds(fake.client)
    const input: RefundInput = {transactionId: 'order-1042', reference: 'refund-1042-a'}
    expect(sender.asksFirst(input)).toBe(true)
    const body = await sender.request(input, 1)
    expect(body).toEqual({transaction_id: 'order-1042', amount: 10000, reference: 'refund-1042-a'})
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.list'])
    expect((await sender.send(body)).decided).toMatchObject({outcome: 'approved', source: 'earlier'})
  })

  it('a look-up of its reference before it is made that fails fails the row, unsent, saying so; a signal stops it as it is', async () => {
    const down = new GatewayError('network', 'no answer', {status: 502, requestId: 'req-1'})
    for (const amount of [undefined, 5000]) {
      const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': () => Promise.reject(down)})
      const error = await refunds(fake.client).request({transactionId: 'order-1042', amount, reference: 'refund-1042-a'}, 1).catch((err: unknown) => err)
      expect(error).toBeInstanceOf(GatewayError)
      expect(error).toMatchObject({kind: 'network', status: 502, requestId: 'req-1', message: 'Reference refund-1042-a could not be looked up before it was sent (Page 1 of the list (records 1-50) could not be read: no answer): nothing was sent'})
    }
    const stop = new InterruptedError('SIGINT')
    const stopped = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': () => Promise.reject(stop)})
    await expect(refunds(stopped.client).request({transactionId: 'order-1042', amount: 5000, reference: 'refund-1042-a'}, 1)).rejects.toBe(stop)
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
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': listing(made)})
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

  it('is refused as the run would refuse it: a row of a purchase an earlier run refunded from a row set aside, once for each such refund', async () => {
    const setAside = [{intent: 'order-1042-R1', row: 1, line: 4, request: {transaction_id: '071-P-1VQZVNTX', amount: 5000, reference: 'order-1042-R1'}, sent_at: '2026-11-30T09:00:00.000Z'}]
    const client = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': notFound}).client
    const derive = await refundBatch.dryReferences!({deps: async () => ({client}) as never}, new Set(['order-1042-R1']), {...BATCH, setAside})
    const refused = await derive({transactionId: 'order-1042', amount: 5000}, 2)
    expect(refused).toEqual({refused: expect.any(UsageError)})
    expect((refused as {refused: Error}).refused.message).toBe('Purchase order-1042 is the one an earlier run of this batch sent refund order-1042-R1 of, from line 4, where it was named 071-P-1VQZVNTX: this row may be that one, so it was not sent')
    expect(await derive({transactionId: 'order-1042', amount: 5000}, 3)).toEqual({reference: 'order-1042-R2', made: false})
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
