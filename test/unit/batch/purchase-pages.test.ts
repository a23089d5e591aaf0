import {describe, expect, it} from 'vitest'
import {purchasesFromPages} from '../../../src/batch/purchase-pages.js'
import {GatewayError} from '../../../src/errors.js'
import {livePurchase} from '../../fixtures/live-records.js'
import {fakeClient} from '../operations/fake-client.js'

// A batch's purchases read from the purchases list, 50 a request, rather than one look-up each
// (design.md §5): as far as the list pays, the rest left to their own look-ups.

const T0 = Date.parse('2026-11-01T00:00:00Z')
/** Purchases 1..count, newest last (a minute apart), each known by its id and reference. */
const purchases = (count: number) => Array.from({length: count}, (_, i) => ({...livePurchase, id: `071-P-${String(i + 1).padStart(8, '0')}`, reference: `order-${i + 1}`, transaction_date: new Date(T0 + i * 60_000).toISOString()}))

function gateway(all: Record<string, unknown>[], fail?: () => never) {
  const offsets: number[] = []
  const fake = fakeClient({
    'purchases.list': ({offset, limit}: {offset: number; limit: number}) => {
      fail?.()
      offsets.push(offset)
      const newest = [...all].reverse()
      return {records: newest.slice(offset, offset + limit), paging: {page: offset / limit, pages: Math.ceil(newest.length / limit), total: newest.length}}
    },
  })
  return {...fake, offsets}
}

describe('purchasesFromPages', () => {
  it('finds recent purchases, by id or reference, in the pages they fill', async () => {
    const all = purchases(1000)
    const {client, offsets} = gateway(all)
    const wanted = ['order-1000', all[990]!.id, 'order-951']
    const find = purchasesFromPages(new Set(wanted), {client})
    const found = await Promise.all(wanted.map(find))
    expect(found.map((purchase) => purchase?.reference)).toEqual(['order-1000', 'order-991', 'order-951'])
    expect(offsets).toEqual(expect.arrayContaining([0]))
    expect(offsets.length).toBeLessThanOrEqual(4)
  })

  it('stops after twice the pages its purchases would fill: an older one is left to its own look-up', async () => {
    const all = purchases(1000)
    const {client, offsets} = gateway(all)
    const find = purchasesFromPages(new Set(['order-1000', 'order-3']), {client})
    expect((await find('order-1000'))?.id).toBe(all[999]!.id)
    expect(await find('order-3')).toBeUndefined()
    // Two names fill one page: twice that, and one more, with the pages asked for ahead.
    expect(new Set(offsets).size).toBeLessThanOrEqual(3 + 4)
  })

  it('asks nothing for a name it was not given, and leaves every row to its own look-up when a page cannot be read', async () => {
    const quiet = gateway(purchases(10))
    expect(await purchasesFromPages(new Set(['order-1']), {client: quiet.client})('order-2')).toBeUndefined()
    expect(quiet.offsets).toEqual([])
    const down = gateway(purchases(10), () => {
      throw new GatewayError('network', 'no answer')
    })
    const find = purchasesFromPages(new Set(['order-1', 'order-2']), {client: down.client})
    expect(await Promise.all([find('order-1'), find('order-2')])).toEqual([undefined, undefined])
  })
})
