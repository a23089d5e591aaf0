import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {BatchAtGateway} from '../../../src/batch/kinds.js'
import {refundBatch} from '../../../src/batch/refund-kind.js'
import {MOST_NAMED} from '../../../src/batch/purchase-pages.js'
import {GatewayError, NotFoundError, OutcomeUnknownError, RateLimitedError, ReferenceTakenError, RejectedError} from '../../../src/errors.js'
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
  // A purchase's look-ups to fail, one each, in order.
  const failNext: Error[] = []
  // Set: a purchase's look-up answers what the gateway held when it was asked, once this resolves.
  const paused: {until?: Promise<void>} = {}
  const refunded = (id: unknown) => made.filter((refund) => refund.transaction_id === id).reduce((sum, refund) => sum + (refund.amount as number), 0)
  const find = (name: string) => purchases.find((purchase) => purchase.id === name || purchase.reference === name)
  const fake = fakeClient({
    'purchases.get': async (name: string) => {
      const failure = failNext.shift()
      if (failure) throw failure
      const purchase = find(name)
      if (!purchase) throw new NotFoundError('Purchase not found', {status: 404})
      const held = figure ? {...purchase, refunded_amount: refunded(purchase.id)} : purchase
      await paused.until
      return held
    },
    'refunds.get': (name: string) => made.find((refund) => refund.id === name || refund.reference === name) ?? notFound(),
    'refunds.list': () => ({records: [...made], paging: {page: 1, pages: 1, total: made.length}}),
    'refunds.create': (body: Rec) => {
      const refund = {...liveRefund, id: `R-${made.length + 1}`, reference: body.reference, amount: body.amount, transaction_id: find(String(body.transaction_id))!.id, transaction_date: new Date(Date.UTC(2026, 10, 18, 0, made.length)).toISOString()}
      made.push(refund)
      return answer(refund)
    },
  })
  return {...fake, made, paused, failNext, sender: refundBatch.sender({client: fake.client}, new Set(), place(), BATCH)}
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
    // What the run's words call each row.
    expect(sender.noun).toBe('refund')
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

describe('a refund batch row’s hold on its purchase, let go as its refund is decided', () => {
  // The first row asks 60.00 of 100.00: a second asking 50.00 goes only once the first's claim is let go.
  const FIRST = {transactionId: 'P-1', amount: 6000, reference: 'refund-a'}
  const SECOND = {transactionId: 'P-1', amount: 5000, reference: 'refund-b'}
  const refused = (answer: unknown) => () => Promise.reject(answer)

  it.for<[string, unknown]>([
    ['refused by the gateway (400)', new RejectedError('Amount is not valid', {status: 400})],
    ['not processed for a rate limit', new RateLimitedError('Rate limited', {notMade: {noun: 'refund', reference: 'refund-a'}})],
  ])('%s: its claim is let go, and the next row may take what it asked', async ([, error]) => {
    const {sender} = gateway([onCard(1)], {answer: refused(error)})
    const first = await sender.request(FIRST, 1)
    await expect(sender.send(first)).rejects.toBe(error)
    expect(await sender.request(SECOND, 2)).toMatchObject({transaction_id: 'P-1', amount: 5000, reference: 'refund-b'})
  })

  it('a derived reference taken meanwhile: its claim is let go, and the next row may take what it asked', async () => {
    const {sender} = gateway([onCard(1)], {answer: refused(new RejectedError('Reference has already been taken', {status: 400}))})
    const first = await sender.request({transactionId: 'P-1', amount: 6000}, 1)
    expect(first.reference).toBe('order-1-R1')
    await expect(sender.send(first)).rejects.toBeInstanceOf(ReferenceTakenError)
    expect(await sender.request(SECOND, 2)).toMatchObject({transaction_id: 'P-1', amount: 5000, reference: 'refund-b'})
  })

  it('failed otherwise, so maybe made: the rows after it still count it', async () => {
    const {sender} = gateway([onCard(1)], {answer: refused(new GatewayError('gateway', 'Internal Server Error', {status: 500}))})
    const first = await sender.request(FIRST, 1)
    await expect(sender.send(first)).rejects.toBeInstanceOf(GatewayError)
    await expect(sender.request(SECOND, 2)).rejects.toThrow('rows of this batch before it, in flight or just made, refund 60.00 AUD of it')
  })

  it('made by an earlier run under the reference it gives: not counted as in flight, and not sent again', async () => {
    const earlier = {...liveRefund, id: 'R-earlier', reference: 'refund-a', amount: 6000, transaction_id: 'P-1', transaction_date: '2026-11-17T11:00:00+11:00'}
    const {sender, made, calls} = gateway([onCard(1)], {earlier: [earlier]})
    const first = await sender.request(FIRST, 1)
    // Asked before the first is sent, when the earlier refund is not known to be this purchase's: nothing of it is in flight.
    await sender.request(SECOND, 2)
    expect((await sender.send(first)).decided).toMatchObject({outcome: 'approved', source: 'earlier'})
    expect(made.map((refund) => refund.reference)).toEqual(['refund-a'])
    expect(count(calls, 'refunds.create')).toBe(0)
  })

  it('without the gateway’s own figure (the contract): a refund the batch made is counted once, as made, for a row of the same purchase after it', async () => {
    const {sender, made} = gateway([onCard(1)])
    expect((await sender.send(await sender.request(FIRST, 1))).decided.outcome).toBe('approved')
    // The purchase as looked up for the first row; what is left, 40.00, is all asked.
    expect((await sender.send(await sender.request({transactionId: 'P-1', amount: 4000, reference: 'refund-b'}, 2))).decided.outcome).toBe('approved')
    expect(made.map((refund) => refund.amount)).toEqual([6000, 4000])
  })

  it('of a purchase not found yet (a reference and an amount given): the rows after it are not held up', async () => {
    const {sender} = gateway([onCard(1)])
    const first = await sender.request({transactionId: 'P-9', amount: 6000, reference: 'refund-x'}, 1)
    expect(first).toMatchObject({transaction_id: 'P-9', amount: 6000, reference: 'refund-x'})
    expect(await sender.request(SECOND, 2)).toMatchObject({transaction_id: 'P-1', amount: 5000})
  })

  it('an earlier run’s row in doubt, looked up (findEarlier): the refund the gateway holds under its reference, decided against the row', async () => {
    const earlier = {...liveRefund, id: 'R-earlier', reference: 'refund-a', amount: 6000, transaction_id: 'P-1', transaction_date: '2026-11-17T11:00:00+11:00'}
    const {sender, calls} = gateway([onCard(1)], {earlier: [earlier]})
    const found = await sender.findEarlier!({transaction_id: 'P-1', amount: 6000, reference: 'refund-a'} as never)
    expect(found?.decided).toMatchObject({outcome: 'approved', source: 'earlier', record: {id: 'R-earlier'}})
    expect(count(calls, 'refunds.create')).toBe(0)
  })

  it('an earlier run’s row in doubt, looked up (findEarlier), that the gateway holds nothing under: none, to be sent', async () => {
    const {sender, calls} = gateway([onCard(1)])
    expect(await sender.findEarlier!({transaction_id: 'P-1', amount: 6000, reference: 'refund-a'} as never)).toBeUndefined()
    expect(calls.map((call) => call.method)).toEqual(['refunds.get'])
  })
})

describe('a refund batch row’s purchase, looked up', () => {
  it('given already (at a terminal): not looked up again, and held to what is left of it', async () => {
    const {sender, calls} = gateway([onCard(1)], {figure: true})
    await expect(sender.request({transactionId: 'P-1', amount: 6000, reference: 'refund-a', purchase: {...onCard(1), refunded_amount: 5000}}, 1)).rejects.toThrow('more than is left of it, 50.00 AUD')
    expect(count(calls, 'purchases.get')).toBe(0)
  })

  it('not found, the row giving a reference but no amount: fails with the miss', async () => {
    const {sender, calls} = gateway([])
    await expect(sender.request({transactionId: 'P-9', reference: 'refund-a'}, 1)).rejects.toThrow('No purchase has the id or reference P-9: Purchase not found')
    // Failed as looked up, with nothing more asked.
    expect(calls.map((call) => call.method)).toEqual(['purchases.get'])
  })

  it('not found, the row giving a reference and an amount: a refund the gateway holds under the reference is found, not sent again', async () => {
    const earlier = {...liveRefund, id: 'R-earlier', reference: 'refund-a', amount: 6000, transaction_id: 'P-9', transaction_date: '2026-11-17T11:00:00+11:00'}
    const {sender, calls} = gateway([], {earlier: [earlier]})
    const sent = await sender.send(await sender.request({transactionId: 'P-9', amount: 6000, reference: 'refund-a'}, 1))
    // Not sent again; whether it is this row's refund cannot be checked without its purchase.
    expect(sent.decided).toMatchObject({outcome: 'unknown', record: {id: 'R-earlier'}, reason: {why: 'unchecked', unchecked: ['purchase refunded']}})
    expect(count(calls, 'refunds.create')).toBe(0)
  })

  it('a look-up that failed fails its row alone: the next row of the purchase asks again', async () => {
    const {sender, calls, failNext} = gateway([onCard(1)])
    failNext.push(new GatewayError('gateway', 'Internal Server Error', {status: 500}))
    await expect(sender.request({transactionId: 'P-1', amount: 1000, reference: 'refund-a'}, 1)).rejects.toThrow('Internal Server Error')
    expect((await sender.send(await sender.request({transactionId: 'P-1', amount: 1000, reference: 'refund-b'}, 2))).decided.outcome).toBe('approved')
    expect(count(calls, 'purchases.get')).toBe(2)
  })
})

describe('the purchases a refund batch names, read ahead in the purchases list', () => {
  const rows = async function* (ids: string[]) {
    for (const [i, id] of ids.entries()) yield {input: {transactionId: id}, row: i + 1}
  }

  it('each purchase once, up to MOST_NAMED of them', async () => {
    expect([...(await refundBatch.named!(rows(['P-1', 'order-2', 'P-1']) as never))!]).toEqual(['P-1', 'order-2'])
    const many = Array.from({length: MOST_NAMED + 1}, (_, i) => `P-${i}`)
    const named = (await refundBatch.named!(rows(many) as never))!
    expect(named.size).toBe(MOST_NAMED)
    expect(named.has(`P-${MOST_NAMED - 1}`)).toBe(true)
    expect(named.has(`P-${MOST_NAMED}`)).toBe(false)
  })
})
