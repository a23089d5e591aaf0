import {describe, expect, it} from 'vitest'
import type {ListOrder} from '../../../src/api/list-order.js'
import {chargeKey, DuplicateFinder} from '../../../src/lists/duplicates.js'

type Charge = Record<string, unknown> & {id: string}

const MINUTE = 60_000
/** A purchase on the test Visa (as the live gateway masks it) of 42.00 AUD, `minutes` after 10:00. */
const charge = (id: string, minutes: number, more: Record<string, unknown> = {}): Charge => ({
  id,
  transaction_date: new Date(Date.parse('2026-11-17T10:00:00+11:00') + minutes * MINUTE).toISOString(),
  card_number: '424242XXXXXX4242',
  amount: 4200,
  currency: 'AUD',
  ...more,
})

/** The groups found in records read in this order, a page at a time, as ids. */
function groupsOf(pages: Charge[][], {within = 10 * MINUTE, order = 'newest'}: {within?: number; order?: ListOrder} = {}): string[][] {
  const finder = new DuplicateFinder(within, order)
  const groups = [...pages.flatMap((page) => finder.add(page)), ...finder.end()]
  return groups.map((group) => group.records.map((record) => String(record.id)))
}

describe('chargeKey: what a charge made twice shares', () => {
  it('is the card, the amount and the currency, however the mask and the case are written', () => {
    expect(chargeKey(charge('a', 0))).toBe(chargeKey({card_number: '424242******4242', amount: 4200, currency: 'aud'}))
    expect(chargeKey(charge('a', 0))).toBe(chargeKey({card_number: '4242 42•• •••• 4242', amount: -4200, currency: ' AUD '}))
    expect(chargeKey(charge('a', 0))).not.toBe(chargeKey(charge('b', 0, {card_number: '512345XXXXXX4242'})))
    expect(chargeKey(charge('a', 0))).not.toBe(chargeKey(charge('b', 0, {amount: 4201})))
    expect(chargeKey(charge('a', 0))).not.toBe(chargeKey(charge('b', 0, {currency: 'NZD'})))
  })

  it('is none without a card number ending in four digits or without an amount', () => {
    expect(chargeKey(charge('a', 0, {card_number: undefined}))).toBeUndefined()
    expect(chargeKey(charge('a', 0, {card_number: 'XXXX'}))).toBeUndefined()
    expect(chargeKey(charge('a', 0, {amount: '4200'}))).toBeUndefined()
  })
})

describe('DuplicateFinder: likely duplicate charges, in groups', () => {
  it('groups charges each within the window of the one before, newest first as read; not one further on, another currency or card', () => {
    const pages = [
      [charge('later', 90), charge('again', 4), charge('other-card', 3, {card_number: '555555XXXXXX4444'})],
      [charge('dollars', 2, {currency: 'USD'}), charge('first', 0)],
    ]
    expect(groupsOf(pages)).toEqual([['again', 'first']])
    expect(groupsOf(pages, {within: 2 * 60 * MINUTE})).toEqual([['later', 'again', 'first']])
    expect(groupsOf(pages, {within: 3 * MINUTE})).toEqual([])
  })

  it('chains: three charges 8 minutes apart are one group within 10m, though the first and last are 16 apart', () => {
    expect(groupsOf([[charge('c', 16), charge('b', 8), charge('a', 0)]])).toEqual([['c', 'b', 'a']])
    expect(groupsOf([[charge('a', 0), charge('b', 8), charge('c', 16)]], {order: 'oldest'})).toEqual([['a', 'b', 'c']])
  })

  it('counts the window to the second, both ends included', () => {
    expect(groupsOf([[charge('b', 10), charge('a', 0)]])).toEqual([['b', 'a']])
    expect(groupsOf([[charge('b', 10 + 1 / 60), charge('a', 0)]])).toEqual([])
  })

  it('hands a group over in the order its first charge was read, once no charge still to come can join it', () => {
    const finder = new DuplicateFinder(10 * MINUTE, 'newest')
    // Two groups open at once, of two amounts.
    expect(finder.add([charge('x2', 60), charge('y2', 58, {amount: 100}), charge('x1', 55), charge('y1', 50, {amount: 100})])).toEqual([])
    // 20 minutes on, both are closed: the one read first comes first.
    expect(finder.add([charge('z', 30)]).map((group) => group.records.map((record) => record.id))).toEqual([['x2', 'x1'], ['y2', 'y1']])
    expect(finder.end()).toEqual([])
  })

  it('holds back a closed group while one read before it may still grow, so the order stays the order read', () => {
    const finder = new DuplicateFinder(10 * MINUTE, 'newest')
    expect(finder.add([charge('long3', 60), charge('short2', 59, {amount: 100}), charge('short1', 57, {amount: 100}), charge('long2', 52)])).toEqual([])
    // short's pair is over (nothing within 10m of 57 is left to come after 45), long is still growing.
    expect(finder.add([charge('long1', 45)])).toEqual([])
    expect(finder.add([charge('far', 20)]).map((group) => group.records.map((record) => record.id))).toEqual([['long3', 'long2', 'long1'], ['short2', 'short1']])
  })

  it('lets a lone charge go as soon as the reading is past it: only the last window of charges is held', () => {
    const finder = new DuplicateFinder(MINUTE, 'newest')
    const day = Array.from({length: 1000}, (_, i) => charge(`p${i}`, -i * 2, {amount: 1000 + i}))
    for (let page = 0; page < 10; page++) expect(finder.add(day.slice(page * 100, page * 100 + 100))).toEqual([])
    expect((finder as unknown as {queue: unknown[]}).queue.length).toBeLessThanOrEqual(2)
    expect(finder.end()).toEqual([])
  })

  it('leaves out a record without a date or a card, which no charge can be matched to', () => {
    expect(groupsOf([[charge('b', 2, {transaction_date: undefined}), charge('a', 0)]])).toEqual([])
    expect(groupsOf([[charge('b', 2, {card_number: null}), charge('a', 0, {card_number: null})]])).toEqual([])
  })
})
