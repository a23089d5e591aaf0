import {describe, expect, it} from 'vitest'
import {BatchRefunds} from '../../../src/lists/batch-refunds.js'
import type {MadeFor} from '../../../src/lists/refund-match.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'

// What a refund batch keeps of its purchases' refunds (issue 62): gw's records on disk read once a
// refund for the whole batch, and the refunds the batch saw made added to them and to its walks.

const journaled: MadeFor = {transactionId: 'order-7', by: 'journal'}

describe('what a refund batch says gw made', () => {
  it('asks the disk once a refund, whichever rows ask; never of a refund the batch saw made', async () => {
    const asked: string[][] = []
    const batch = new BatchRefunds()
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
    const made = new BatchRefunds().made(async (ids) => {
      asked.push([...ids])
      if (fail) throw new Error('disk gone')
      return new Map()
    })
    await expect(made(new Set(['R-1']))).rejects.toThrow('disk gone')
    fail = false
    expect((await made(new Set(['R-1']))).size).toBe(0)
    expect(asked).toEqual([['R-1'], ['R-1']])
  })

  it('adds a refund it saw to the walks of its card only, once', async () => {
    const batch = new BatchRefunds()
    const refund = {...liveRefund, id: 'R-9'}
    batch.walks.push({card: `${livePurchase.card_number}\njane citizen`, since: 0, refunds: Promise.resolve([refund])}, {card: 'other', since: 0, refunds: Promise.resolve([])})
    batch.saw(refund, 'order-1042', livePurchase)
    batch.saw({...liveRefund, id: 'R-10'}, 'order-1042', livePurchase)
    expect((await batch.walks[0]!.refunds).map((one) => one.id)).toEqual(['R-9', 'R-10'])
    expect(await batch.walks[1]!.refunds).toEqual([])
  })
})
