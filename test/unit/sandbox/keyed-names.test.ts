import {describe, expect, it} from 'vitest'
import type {Change} from '../../../src/sandbox/domain/change-log.js'
import {Store, type StoreState} from '../../../src/sandbox/domain/store.js'
import {storableJson, storableSnapshot} from '../../../src/sandbox/domain/storable.js'
import {aCard, aPurchase, aRefund} from './fixtures.js'

// Two Luhn-valid 16-digit numbers the state file masks alike: ref-411111XXXXXX1111.
const FIRST = 'ref-4111111000071111'
const SECOND = 'ref-4111111111111111'
const WHOLE = /4111111000071111|4111111111111111/

/** The state as the state file holds it: card numbers inside text masked (storable.ts). */
const asInFile = (state: StoreState): StoreState => JSON.parse(storableSnapshot(state)) as StoreState
const restarted = (store: Store) => new Store(asInFile(store.snapshot()))

function twoPurchases(): Store {
  const store = new Store()
  store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', FIRST, 1000))
  store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', SECOND, 2000))
  return store
}

function expectApart(store: Store): void {
  expect(store.find('purchases', 'TEST', FIRST)).toMatchObject({found: 'own', record: {id: '071-P-AAAAAAAA', amount: 1000}})
  expect(store.find('purchases', 'TEST', SECOND)).toMatchObject({found: 'own', record: {id: '071-P-BBBBBBBB', amount: 2000}})
  for (const other of ['ref-411111XXXXXX1111', 'ref-4111111111111129', 'ref-4111111000071111 ']) expect(store.find('purchases', 'TEST', other).found, other).toBe('none')
}

describe('names that hold a card number, which the state file masks alike', () => {
  it('are two names: neither finds nor takes the other, and the first to hold one is the only holder', () => {
    const store = new Store()
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', FIRST, 1000))
    expect(store.isTaken('purchases', 'TEST', SECOND)).toBe(false)
    expect(store.find('purchases', 'TEST', SECOND).found).toBe('none')
    store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', SECOND, 2000))
    expectApart(store)
  })

  it('stay two after a restart, from the snapshot, which holds neither whole', () => {
    const store = twoPurchases()
    const file = storableSnapshot(store.snapshot())
    expect(file).not.toMatch(WHOLE)
    expect(file.match(/"reference":"ref-411111XXXXXX1111"/g)).toHaveLength(2)
    expectApart(restarted(store))
    expectApart(restarted(restarted(store)))
  })

  it('stay two replayed from the journal, whose lines hold neither whole, the key written before the first name hashed with it', () => {
    const store = twoPurchases()
    const lines = store.takeBatch().changes.map((change) => storableJson(change))
    expect(lines.join('\n')).not.toMatch(WHOLE)
    expect(lines.map((line) => (JSON.parse(line) as Change).op)).toStrictEqual(['nameSecret', 'put', 'put'])
    const replayed = new Store()
    replayed.replay(lines.map((line) => JSON.parse(line) as Change))
    expectApart(replayed)
    expect(replayed.snapshot()).toStrictEqual(asInFile(store.snapshot()))
  })

  it('keep their hash when saved again as read from the file, dated, or removed and taken back', () => {
    const store = restarted(twoPurchases())
    const first = store.find('purchases', 'TEST', FIRST)
    if (first.found !== 'own') throw new Error('not found')
    store.save('purchases', 'TEST', {...first.record, captured: true})
    store.saveDated('purchases', 'TEST', {...first.record, transaction_date: '2024-03-12T12:00:00+00:00'})
    expectApart(store)
    expectApart(restarted(store))
    store.takeBatch()
    store.remove('purchases', 'TEST', first.record)
    expect(store.find('purchases', 'TEST', FIRST).found).toBe('none')
    store.revert(store.takeBatch())
    expectApart(store)
  })

  it("are hashed with a key of the gateway's own, random, made once, kept in its state as letters only, and gone with a reset", () => {
    const plain = new Store()
    plain.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    expect(plain.snapshot()).not.toHaveProperty('nameSecret')
    const [one, other] = [twoPurchases().snapshot(), twoPurchases().snapshot()]
    expect(one.nameSecret).toMatch(/^[a-p]{64}$/)
    expect(one.nameSecret).not.toBe(other.nameSecret)
    expect(one.nameHashes?.TEST?.purchases?.['071-P-AAAAAAAA']).toMatch(/^[a-p]{64}$/)
    expect(one.nameHashes?.TEST?.purchases?.['071-P-AAAAAAAA']).not.toBe(other.nameHashes?.TEST?.purchases?.['071-P-AAAAAAAA'])
    const store = twoPurchases()
    store.reset('instance-2')
    expect(store.snapshot()).toStrictEqual({merchants: {}, runs: [{id: 'instance-2', from: 0}], changes: 1})
  })

  it('are taken back with the batch that made them: the key too', () => {
    const store = new Store()
    store.save('purchases', 'TEST', aPurchase('071-P-CCCCCCCC', 'order-1'))
    store.takeBatch()
    const before = store.snapshot()
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', FIRST))
    store.revert(store.takeBatch())
    expect(store.snapshot()).toStrictEqual(before)
    expect(store.find('purchases', 'TEST', FIRST).found).toBe('none')
  })

  it('hold for an alias as for a reference', () => {
    const store = new Store()
    store.save('cards', 'TEST', aCard('aaaaaaaaaaaaaaaaaaaa', 'jo 4111 1111 1111 1111'))
    expect(store.isTaken('cards', 'TEST', 'jo 4111-1111-1111-1111')).toBe(false)
    expect(restarted(store).find('cards', 'TEST', 'jo 4111 1111 1111 1111')).toMatchObject({found: 'own', record: {token: 'aaaaaaaaaaaaaaaaaaaa'}})
  })
})

describe('a state file from before names had a keyed hash', () => {
  it('finds its records by their names masked, as before, and new records apart from them', () => {
    const old: StoreState = asInFile({merchants: {TEST: {purchases: {'071-P-AAAAAAAA': aPurchase('071-P-AAAAAAAA', FIRST, 1000)}}}})
    const store = new Store(old)
    for (const name of [FIRST, SECOND, 'ref-411111XXXXXX1111']) expect(store.find('purchases', 'TEST', name)).toMatchObject({found: 'own', record: {id: '071-P-AAAAAAAA'}})
    store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', 'ref-5555555555554444', 2000))
    const again = restarted(store)
    expect(again.find('purchases', 'TEST', FIRST)).toMatchObject({found: 'own', record: {id: '071-P-AAAAAAAA'}})
    expect(again.find('purchases', 'TEST', 'ref-5555555555554444')).toMatchObject({found: 'own', record: {id: '071-P-BBBBBBBB'}})
    expect(again.find('purchases', 'TEST', 'ref-5555555555555557').found).toBe('none')
  })
})

describe('a dating taken back', () => {
  it('leaves the record indexed once: what its purchase has had refunded is as before', () => {
    const store = new Store()
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1', 1000))
    const refund = aRefund('071-R-AAAAAAAA', 'back-1', '071-P-AAAAAAAA', -400)
    store.save('refunds', 'TEST', refund)
    store.takeBatch()
    store.saveDated('refunds', 'TEST', {...refund, transaction_date: '2024-03-12T12:00:00+00:00'})
    store.revert(store.takeBatch())
    expect(store.refundedOf('TEST', '071-P-AAAAAAAA')).toBe(400)
    expect(store.related('refunds', 'TEST', 'purchase_id', '071-P-AAAAAAAA')).toHaveLength(1)
    store.remove('refunds', 'TEST', refund)
    expect(store.refundedOf('TEST', '071-P-AAAAAAAA')).toBe(0)
    expect(store.find('refunds', 'TEST', 'back-1').found).toBe('none')
  })
})
