import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {BatchAtGateway} from '../../../src/batch/kinds.js'
import {refundBatch} from '../../../src/batch/refund-kind.js'
import {NotFoundError, OutcomeUnknownError, RejectedError} from '../../../src/errors.js'
import type {RefundInput} from '../../../src/operations/refunds.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'
import {fakeClient} from '../operations/fake-client.js'

// A refund batch keeps one walk of each card's refunds for all its rows, and keeps it right as its
// rows' refunds are made: a row is held to what is left after the rows before it, those
// done and those still in flight, so a purchase is never refunded twice over by one batch.

const BATCH: BatchAtGateway<RefundInput> = {name: 'abcdefghabcdefgh', alike: () => 1}
// No records of refunds gw made on disk, and no index of refunds yet (a folder of each batch's own): only what this batch sees makes a refund certain.
const place = () => ({dataDir: mkdtempSync(join(tmpdir(), 'gw-walks-')), target: async () => ({baseUrl: 'https://gateway.example', username: 'merchant'})})
const notFound = () => Promise.reject(new NotFoundError('Refund not found', {status: 404}))
type Rec = Record<string, unknown>

/** A gateway of purchases on one card whose refunds list holds every refund made so far (of any purchase on the card); `figure`: purchases say their refunded_amount, as the live gateway does. */
function gateway(purchases: Rec[], {figure = false, answer = (refund: Rec): unknown => refund, earlier = [] as Rec[]} = {}) {
  const made: Rec[] = [...earlier]
  // Set: a purchase's look-up answers what the gateway held when it was asked, once this resolves.
  const paused: {until?: Promise<void>} = {}
  const refunded = (id: unknown) => made.filter((refund) => refund.transaction_id === id).reduce((sum, refund) => sum + (refund.amount as number), 0)
  const find = (name: string) => purchases.find((purchase) => purchase.id === name || purchase.reference === name)!
  const fake = fakeClient({
    'purchases.get': async (name: string) => {
      const purchase = find(name)
      const held = figure ? {...purchase, refunded_amount: refunded(purchase.id)} : purchase
      await paused.until
      return held
    },
    'refunds.get': (name: string) => made.find((refund) => refund.id === name || refund.reference === name) ?? notFound(),
    'refunds.list': () => ({records: [...made], paging: {page: 1, pages: 1, total: made.length}}),
    'refunds.create': (body: Rec) => {
      const refund = {...liveRefund, id: `R-${made.length + 1}`, reference: body.reference, amount: body.amount, transaction_id: find(String(body.transaction_id)).id, transaction_date: new Date(Date.UTC(2026, 10, 18, 0, made.length)).toISOString()}
      made.push(refund)
      return answer(refund)
    },
  })
  return {...fake, made, paused, sender: refundBatch.sender({client: fake.client}, new Set(), place(), BATCH)}
}

const onCard = (n: number) => ({...livePurchase, id: `P-${n}`, reference: `order-${n}`, transaction_date: `2026-11-17T10:${String(n).padStart(2, '0')}:00+11:00`})
const count = (calls: {method: string}[], method: string) => calls.filter((call) => call.method === method).length

describe('a refund batch of many rows on one card', () => {
  it('walks the card’s refunds once for all of them, each row sent', async () => {
    const purchases = Array.from({length: 12}, (_, i) => onCard(i + 1))
    const {sender, calls, made} = gateway(purchases)
    for (const [i, purchase] of purchases.entries()) {
      const sent = await sender.send(await sender.request({transactionId: purchase.id, amount: 1000, reference: `refund-${i}`}, i + 1))
      expect(sent.decided.outcome).toBe('approved')
    }
    expect(made).toHaveLength(12)
    expect(count(calls, 'refunds.list')).toBe(1)
  })
})

describe('two rows of one batch refunding the same purchase', () => {
  it('the second, asking more than the first left, fails unsent (exit 7), the first counted as certain; one refund made', async () => {
    const {sender, calls, made} = gateway([onCard(1)])
    expect((await sender.send(await sender.request({transactionId: 'P-1', amount: 6000, reference: 'refund-a'}, 1))).decided.outcome).toBe('approved')
    const error = await sender.request({transactionId: 'P-1', amount: 5000, reference: 'refund-b'}, 2).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(RejectedError)
    expect((error as RejectedError).exitCode).toBe(7)
    expect((error as Error).message).toBe('A refund of purchase order-1: 50.00 AUD is more than is left of it, 40.00 AUD (60.00 AUD of 100.00 AUD refunded for certain: 1 refund gw made for it): nothing was sent')
    // What is left still goes.
    expect((await sender.send(await sender.request({transactionId: 'order-1', amount: 4000, reference: 'refund-c'}, 3))).decided.outcome).toBe('approved')
    expect(made.map((refund) => refund.amount)).toEqual([6000, 4000])
    expect(count(calls, 'refunds.list')).toBe(1)
  })

  it('a refund found made by an earlier run counts as the batch’s own: certain for its purchase, once, in the walk read before it was found', async () => {
    const earlier = {...liveRefund, id: 'R-earlier', reference: 'refund-a', amount: 6000, transaction_id: 'P-1', transaction_date: '2026-11-17T11:00:00+11:00'}
    const {sender, calls, made} = gateway([onCard(0), onCard(1)], {earlier: [earlier]})
    // The card's walk is read first, for a purchase on it made before: it holds the earlier run's refund already.
    await sender.send(await sender.request({transactionId: 'P-0', amount: 100, reference: 'refund-0'}, 1))
    const found = await sender.send(await sender.request({transactionId: 'P-1', amount: 6000, reference: 'refund-a'}, 2))
    expect(found.decided).toMatchObject({outcome: 'approved', source: 'earlier'})
    const error = await sender.request({transactionId: 'P-1', amount: 5000, reference: 'refund-b'}, 3).catch((err: unknown) => err)
    expect((error as Error).message).toBe('A refund of purchase order-1: 50.00 AUD is more than is left of it, 40.00 AUD (60.00 AUD of 100.00 AUD refunded for certain: 1 refund gw made for it): nothing was sent')
    expect(made.map((refund) => refund.reference)).toEqual(['refund-a', 'refund-0'])
    expect(count(calls, 'refunds.list')).toBe(1)
  })

  it('in flight together: the second counts the first as refunded until it is decided; declined or not sent, it counts no more', async () => {
    const {sender, made} = gateway([onCard(1)], {answer: (refund) => ({...refund, successful: false, refunded: 'Declined', message: 'Declined', response_code: '05'})})
    const first = await sender.request({transactionId: 'P-1', amount: 6000, reference: 'refund-a'}, 1)
    const error = await sender.request({transactionId: 'P-1', amount: 5000, reference: 'refund-b'}, 2).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(RejectedError)
    expect((error as RejectedError).exitCode).toBe(7)
    expect((error as Error).message).toBe('A refund of purchase order-1: rows of this batch before it, in flight or just made, refund 60.00 AUD of it, which leaves 40.00 AUD at most, less than 50.00 AUD: nothing was sent')
    expect((await sender.send(first)).decided.outcome).toBe('declined')
    await sender.request({transactionId: 'P-1', amount: 5000, reference: 'refund-c'}, 3)
    expect(made).toHaveLength(1)
  })

  it('in flight together on one purchase: it is looked up once for both, and the second counts the first', async () => {
    const {sender, paused, calls} = gateway([onCard(1)])
    let resume = () => {}
    paused.until = new Promise<void>((resolve) => (resume = resolve))
    const first = sender.request({transactionId: 'P-1', amount: 6000, reference: 'refund-a'}, 1)
    const second = sender.request({transactionId: 'P-1', amount: 5000, reference: 'refund-b'}, 2).catch((err: unknown) => err)
    await expect.poll(() => count(calls, 'purchases.get')).toBe(1)
    resume()
    expect(await second).toBeInstanceOf(RejectedError)
    expect((await sender.send(await first)).decided.outcome).toBe('approved')
    expect(count(calls, 'purchases.get')).toBe(1)
  })

  it('in flight with its outcome unknown: the rows after it still count it', async () => {
    const {sender} = gateway([onCard(1)], {answer: () => Promise.reject(new OutcomeUnknownError('no answer', {noun: 'refund', reference: 'refund-a'}))})
    const first = await sender.request({transactionId: 'P-1', amount: 6000, reference: 'refund-a'}, 1)
    expect((await sender.send(first)).decided.outcome).toBe('unknown')
    await expect(sender.request({transactionId: 'P-1', amount: 5000, reference: 'refund-b'}, 2)).rejects.toThrow('in flight')
  })

  it('with the gateway’s own figure (the live gateway): a refund made after its purchase was read counts for the rows after it', async () => {
    const {sender, made, calls} = gateway([onCard(1)], {figure: true})
    // The purchase is read once for every row (refunded_amount 0); the first row's refund is made after.
    const first = await sender.request({transactionId: 'P-1', amount: 6000, reference: 'refund-a'}, 1)
    expect((await sender.send(first)).decided.outcome).toBe('approved')
    await expect(sender.request({transactionId: 'P-1', amount: 5000, reference: 'refund-b'}, 2)).rejects.toThrow(
      'A refund of purchase order-1: rows of this batch before it, in flight or just made, refund 60.00 AUD of it, which leaves 40.00 AUD at most, less than 50.00 AUD: nothing was sent',
    )
    expect(made).toHaveLength(1)
    expect(count(calls, 'purchases.get')).toBe(1)
    // What is left then is sent.
    expect((await sender.send(await sender.request({transactionId: 'P-1', amount: 4000, reference: 'refund-c'}, 3))).decided.outcome).toBe('approved')
  })
})
