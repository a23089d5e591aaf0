import {describe, expect, it} from 'vitest'
import {BatchRefunds} from '../../../src/lists/batch-refunds.js'
import type {MadeFor} from '../../../src/lists/refund-match.js'
import {livePurchase, liveRefund, otherCard} from '../../fixtures/live-records.js'
import {fakeClient} from '../operations/fake-client.js'
import {testBook} from './test-book.js'

// What a refund batch keeps of its purchases' refunds: gw's records on disk read once a
// refund for the whole batch, and the refunds the batch saw made added to them and to its walks.

const journaled: MadeFor = {transactionId: 'order-7', by: 'journal'}

describe('what a refund batch says gw made', () => {
  it('asks the disk once a refund, whichever rows ask; never of a refund the batch saw made', async () => {
    const asked: string[][] = []
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    const made = batch.made(async (ids) => (asked.push([...ids]), new Map(ids.has('R-1') ? [['R-1', journaled]] : [])))
    expect([...(await made(new Set(['R-1', 'R-2'])))]).toEqual([['R-1', journaled]])
    batch.saw({...liveRefund, id: 'R-3'}, 'order-1042', livePurchase)
    const again = await made(new Set(['R-1', 'R-2', 'R-3', 'R-4']))
    expect(again.get('R-1')).toEqual(journaled)
    expect(again.get('R-3')).toEqual({transactionId: 'order-1042', purchaseId: livePurchase.id, purchaseReference: 'order-1042', by: 'journal'})
    expect(again.has('R-2')).toBe(false)
    expect(asked).toEqual([['R-1', 'R-2'], ['R-4']])
  })

  it('a read that fails fails the row that asked, and is asked again by the next', async () => {
    let fail = true
    const asked: string[][] = []
    const made = new BatchRefunds(testBook(fakeClient({}).client)).made(async (ids) => {
      asked.push([...ids])
      if (fail) throw new Error('disk gone')
      return new Map()
    })
    await expect(made(new Set(['R-1']))).rejects.toThrow('disk gone')
    fail = false
    expect((await made(new Set(['R-1']))).size).toBe(0)
    expect(asked).toEqual([['R-1'], ['R-1']])
  })

  it('adds a refund it saw to the book, found on its card only, once', async () => {
    const {client} = fakeClient({'refunds.list': () => ({records: [], paging: {page: 0, pages: 1, total: 0}})})
    const batch = new BatchRefunds(testBook(client))
    batch.saw({...liveRefund, id: 'R-9'}, 'order-1042', livePurchase)
    batch.saw({...liveRefund, id: 'R-9'}, 'order-1042', livePurchase)
    batch.saw({...liveRefund, id: 'R-10', ...otherCard}, 'order-7', livePurchase)
    const onCard = await batch.book.onCard(livePurchase, 0, {concurrency: 1})
    expect(onCard.map((one) => one.id)).toEqual(['R-9'])
  })
})

// Purchases on one card, each known by its id and reference; `byReference`: by its reference only.
const purchase = (n: number) => ({...livePurchase, id: `P-${n}`, reference: `order-${n}`})
const byReference = (n: number) => ({...livePurchase, id: undefined, reference: `order-${n}`})
const refund = (id: string, amount: unknown) => ({...liveRefund, id, amount})

describe('a row’s hold: what the rows asked before it may refund of its purchase', () => {
  it('counts the earlier rows in flight on the same purchase only, not other purchases’, nor later rows', async () => {
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    const [first, other, mine, later] = [batch.row(), batch.row(), batch.row(), batch.row()]
    first.on(purchase(1), 6000)
    other.on(purchase(2), 2500)
    mine.on(purchase(1), 1000)
    later.on(purchase(1), 700)
    expect(await mine.before()).toBe(6000)
    expect(await other.before()).toBe(0)
    expect(await later.before()).toBe(7000)
  })

  it('purchases known by reference only are told apart by it', async () => {
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    const [first, second, third] = [batch.row(), batch.row(), batch.row()]
    first.on(byReference(1), 6000)
    second.on(byReference(2), 3000)
    third.on(byReference(1), 500)
    expect(await second.before()).toBe(0)
    expect(await third.before()).toBe(6000)
  })

  it('waits for the rows asked before it to know their purchase, and counts none let go unknown', async () => {
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    const [first, second, mine] = [batch.row(), batch.row(), batch.row()]
    mine.on(purchase(1), 1000)
    const before = mine.before()
    first.on(purchase(1), 6000)
    second.release()
    expect(await before).toBe(6000)
  })

  it('with seenAfter, counts the refunds of its purchase seen since it was asked: not those seen before, nor other purchases’', async () => {
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    batch.saw(refund('R-1', 4000), 'order-1', purchase(1))
    const mine = batch.row()
    mine.on(purchase(1), 1000, {seenAfter: true})
    batch.saw(refund('R-2', 2000), 'order-1', purchase(1))
    batch.saw(refund('R-3', 3000), 'order-2', purchase(2))
    expect(await mine.before()).toBe(2000)
  })

  it('without seenAfter (its purchase’s refunds walked, which hold them), counts no refund seen', async () => {
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    const mine = batch.row()
    mine.on(purchase(1), 1000)
    batch.saw(refund('R-1', 2000), 'order-1', purchase(1))
    expect(await mine.before()).toBe(0)
  })

  it('a row let go before its purchase was known counts no refund seen', async () => {
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    const mine = batch.row()
    mine.release()
    batch.saw(refund('R-1', 2000), 'order-1', undefined)
    batch.saw(refund('R-2', 3000), 'order-2', purchase(2), {now: false})
    expect(await mine.before()).toBe(0)
  })

  it('a refund seen is made now unless said otherwise; one found made by an earlier run is not counted', async () => {
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    const mine = batch.row()
    mine.on(purchase(1), 1000, {seenAfter: true})
    batch.saw(refund('R-1', 2000), 'order-1', purchase(1))
    batch.saw(refund('R-2', 3000), 'order-1', purchase(1), {now: false})
    expect(await mine.before()).toBe(2000)
  })

  it('a refund seen twice counts once, as it was first seen', async () => {
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    batch.saw(refund('R-1', 2000), 'order-1', purchase(1), {now: false})
    const mine = batch.row()
    mine.on(purchase(1), 1000, {seenAfter: true})
    batch.saw(refund('R-1', 2000), 'P-1', purchase(1))
    batch.saw(refund('R-2', 500), 'order-1', purchase(1))
    batch.saw(refund('R-2', 500), 'order-1', purchase(1))
    expect(await mine.before()).toBe(500)
    expect((await batch.made(async () => new Map())(new Set(['R-1']))).get('R-1')?.transactionId).toBe('order-1')
  })

  it('a refund with no id is not kept; one with no numeric amount counts nothing; a negative amount counts as refunded', async () => {
    const {client} = fakeClient({'refunds.list': () => ({records: [], paging: {page: 0, pages: 1, total: 0}})})
    const batch = new BatchRefunds(testBook(client))
    const mine = batch.row()
    mine.on(purchase(1), 1000, {seenAfter: true})
    batch.saw(refund(undefined as unknown as string, 2000), 'order-1', purchase(1))
    batch.saw(refund('R-1', undefined), 'order-1', purchase(1))
    batch.saw(refund('R-2', -300), 'order-1', purchase(1))
    expect(await mine.before()).toBe(300)
    expect((await batch.book.onCard(livePurchase, 0, {concurrency: 1})).map((one) => one.id)).toEqual(['R-1', 'R-2'])
  })
})

describe('what a refund batch says gw made, by purchase', () => {
  it('names the purchase by what it has: its id only, its reference only, or none', async () => {
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    batch.saw(refund('R-1', 100), 'P-1', {...purchase(1), reference: undefined})
    batch.saw(refund('R-2', 100), 'order-2', byReference(2))
    batch.saw(refund('R-3', 100), 'order-3', undefined)
    const made = await batch.made(async () => new Map())(new Set(['R-1', 'R-2', 'R-3']))
    expect(made.get('R-1')).toStrictEqual({transactionId: 'P-1', purchaseId: 'P-1', by: 'journal'})
    expect(made.get('R-2')).toStrictEqual({transactionId: 'order-2', purchaseReference: 'order-2', by: 'journal'})
    expect(made.get('R-3')).toStrictEqual({transactionId: 'order-3', by: 'journal'})
  })

  it('asks the disk of nothing when every refund asked was asked before or seen', async () => {
    const asked: string[][] = []
    const batch = new BatchRefunds(testBook(fakeClient({}).client))
    const made = batch.made(async (ids) => (asked.push([...ids]), new Map()))
    await made(new Set(['R-1']))
    batch.saw(refund('R-2', 100), 'order-1', purchase(1))
    await made(new Set(['R-1', 'R-2']))
    expect(asked).toEqual([['R-1']])
  })
})
