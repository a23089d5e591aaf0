import {describe, expect, it} from 'vitest'
import {SandboxError} from '../../../src/sandbox/domain/errors.js'
import {Store} from '../../../src/sandbox/domain/store.js'
import {aCard, aPurchase, aRefund} from './fixtures.js'

const refundsOf = (store: Store, merchant: string, purchaseId: string) => store.related('refunds', merchant, 'purchase_id', purchaseId)

function twoMerchants(): Store {
  const store = new Store()
  store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
  store.save('purchases', 'ACME', aPurchase('512-P-BBBBBBBB', 'order-1'))
  store.save('cards', 'TEST', aCard('testtoken00000000000', 'jo'))
  return store
}

describe('Store.find', () => {
  it.each([
    ['TEST', 'purchases', '071-P-AAAAAAAA', 'own'],
    ['TEST', 'purchases', 'order-1', 'own'],
    ['ACME', 'purchases', '071-P-AAAAAAAA', 'foreign'],
    ['TEST', 'purchases', '512-P-BBBBBBBB', 'foreign'],
    ['TEST', 'purchases', 'order-2', 'none'],
    ['TEST', 'purchases', 'constructor', 'none'],
    ['TEST', 'purchases', '__proto__', 'none'],
    ['TEST', 'cards', 'testtoken00000000000', 'own'],
    ['TEST', 'cards', 'jo', 'own'],
    ['ACME', 'cards', 'testtoken00000000000', 'foreign'],
    ['ACME', 'cards', 'jo', 'none'],
    ['NEWCOMER', 'purchases', 'order-1', 'none'],
  ] as const)('%s looking %s up by %s: %s', (merchant, collection, key, found) => {
    expect(twoMerchants().find(collection, merchant, key).found).toBe(found)
  })

  it('finds by reference only the caller’s record', () => {
    const lookup = twoMerchants().find('purchases', 'ACME', 'order-1')
    expect(lookup).toEqual({found: 'own', record: aPurchase('512-P-BBBBBBBB', 'order-1')})
  })
})

describe('Store.get', () => {
  it('answers 403 for another merchant’s record and 404 with the given text for none', () => {
    const store = twoMerchants()
    expect(store.get('purchases', 'TEST', 'order-1', 'Purchase not found').id).toBe('071-P-AAAAAAAA')
    expect(() => store.get('purchases', 'ACME', '071-P-AAAAAAAA', 'Purchase not found')).toThrow(
      expect.objectContaining({status: 403, errors: ['You do not have permissions to access this record']}),
    )
    const missing = (() => {
      try {
        store.get('refunds', 'TEST', 'nothing', 'Purchase not found')
      } catch (error) {
        return error
      }
    })()
    expect(missing).toBeInstanceOf(SandboxError)
    expect(missing).toMatchObject({status: 404, errors: ['Purchase not found'], response: null})
  })
})

describe('Store changes', () => {
  it('records every change for the journal', () => {
    const store = new Store()
    expect(store.takeBatch().changes).toEqual([])
    store.save('cards', 'TEST', aCard('t1'))
    store.save('cards', 'TEST', {...aCard('t1'), transaction_count: 1})
    expect(store.takeBatch().changes).toEqual([
      {op: 'put', collection: 'cards', merchant: 'TEST', record: aCard('t1')},
      {op: 'put', collection: 'cards', merchant: 'TEST', record: {...aCard('t1'), transaction_count: 1}},
    ])
    expect(store.find('cards', 'TEST', 't1')).toEqual({found: 'own', record: {...aCard('t1'), transaction_count: 1}})
    store.reset('instance-2')
    expect(store.takeBatch().changes).toEqual([{op: 'reset', instance: 'instance-2'}])
    expect(store.snapshot()).toEqual({merchants: {}, runs: [{id: 'instance-2', from: 0}], changes: 1})
  })

  it('lists the refunds of one purchase', () => {
    const store = twoMerchants()
    store.save('refunds', 'TEST', aRefund('071-R-11111111', 'refund-1', '071-P-AAAAAAAA', 100))
    store.save('refunds', 'TEST', aRefund('071-R-22222222', 'refund-2', '071-P-CCCCCCCC', 200))
    store.save('refunds', 'TEST', aRefund('071-R-33333333', 'refund-3', '071-P-AAAAAAAA', 300))
    expect(refundsOf(store, 'TEST', '071-P-AAAAAAAA').map((refund) => refund.id)).toEqual(['071-R-11111111', '071-R-33333333'])
    expect(refundsOf(store, 'ACME', '071-P-AAAAAAAA')).toEqual([])
    expect(store.countRelated('refunds', 'TEST', 'purchase_id', '071-P-AAAAAAAA')).toBe(2)
    // Saved again with its name and purchase unchanged, a record keeps its place; moved to another purchase, it leaves this one.
    store.save('refunds', 'TEST', {...aRefund('071-R-11111111', 'refund-1', '071-P-AAAAAAAA', 100), message: 'Again'})
    expect(refundsOf(store, 'TEST', '071-P-AAAAAAAA').map((refund) => refund.id)).toEqual(['071-R-11111111', '071-R-33333333'])
    store.save('refunds', 'TEST', aRefund('071-R-11111111', 'refund-1', '071-P-CCCCCCCC', 100))
    expect(refundsOf(store, 'TEST', '071-P-AAAAAAAA').map((refund) => refund.id)).toEqual(['071-R-33333333'])
    expect(refundsOf(store, 'TEST', '071-P-CCCCCCCC').map((refund) => refund.id)).toEqual(['071-R-22222222', '071-R-11111111'])
    expect(store.find('refunds', 'TEST', 'refund-1')).toMatchObject({found: 'own', record: {purchase_id: '071-P-CCCCCCCC'}})
  })

  it("keeps what each purchase has had refunded as refunds come and go, approved ones only, whatever their sign", () => {
    const store = twoMerchants()
    store.takeBatch()
    store.save('refunds', 'TEST', aRefund('071-R-11111111', 'refund-1', '071-P-AAAAAAAA', 100))
    store.save('refunds', 'TEST', {...aRefund('071-R-22222222', 'refund-2', '071-P-AAAAAAAA', 200), amount: 200})
    store.save('refunds', 'TEST', {...aRefund('071-R-33333333', 'refund-3', '071-P-AAAAAAAA', 400), successful: false})
    expect(store.refundedOf('TEST', '071-P-AAAAAAAA')).toBe(300)
    expect(store.refundedOf('ACME', '071-P-AAAAAAAA')).toBe(0)
    // Taken back (a write that failed), the totals go back too.
    store.revert(store.takeBatch())
    expect(store.refundedOf('TEST', '071-P-AAAAAAAA')).toBe(0)
  })

  it('knows which names a merchant has taken', () => {
    const store = twoMerchants()
    expect(store.isTaken('purchases', 'TEST', 'order-1')).toBe(true)
    expect(store.isTaken('purchases', 'TEST', 'order-2')).toBe(false)
    expect(store.isTaken('purchases', 'TEST', '512-P-BBBBBBBB')).toBe(false)
  })
})

describe('Store for the recurring area', () => {
  it('lists a merchant records in the order they were made, and removes one', () => {
    const store = twoMerchants()
    store.save('purchases', 'TEST', aPurchase('071-P-CCCCCCCC', 'order-2'))
    expect(store.list('purchases', 'TEST').map((purchase) => purchase.id)).toEqual(['071-P-AAAAAAAA', '071-P-CCCCCCCC'])
    expect(store.list('purchases', 'NEWCOMER')).toEqual([])
    store.takeBatch()
    store.remove('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    expect(store.list('purchases', 'TEST').map((purchase) => purchase.id)).toEqual(['071-P-CCCCCCCC'])
    expect(store.takeBatch().changes).toEqual([{op: 'remove', collection: 'purchases', merchant: 'TEST', key: '071-P-AAAAAAAA'}])
  })

  it('records a change of the virtual date, and only a change', () => {
    const store = new Store()
    store.today = '2026-11-22'
    store.takeBatch()
    store.today = '2026-11-22'
    expect(store.takeBatch().changes).toEqual([])
    store.today = '2026-11-23'
    expect(store.takeBatch().changes).toEqual([{op: 'today', date: '2026-11-23'}])
  })

  it('keeps card notices per token and expiry, so a new expiry date starts afresh', () => {
    const store = new Store()
    const card = aCard('testtoken00000000000')
    store.recordCardNotice(card, 'card:expiring')
    store.recordCardNotice(card, 'card:expired')
    expect(store.cardNoticesSent(card)).toEqual(['card:expiring', 'card:expired'])
    expect(store.cardNoticesSent({...card, card_expiry: '2032-02-29'})).toEqual([])
    expect(store.cardNoticesSent(aCard('othertoken0000000000'))).toEqual([])
  })
})

describe('Store indexes', () => {
  it('follows a renamed record: the old alias no longer finds it, the new one does', () => {
    const store = twoMerchants()
    store.save('cards', 'TEST', aCard('testtoken00000000000', 'joanne'))
    expect(store.find('cards', 'TEST', 'jo').found).toBe('none')
    expect(store.find('cards', 'TEST', 'joanne')).toEqual({found: 'own', record: aCard('testtoken00000000000', 'joanne')})
  })

  it('keeps the first holder of a repeated reference, and the next once the first is gone', () => {
    const store = new Store()
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'dup'))
    store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', 'dup'))
    expect(store.get('purchases', 'TEST', 'dup', 'x').id).toBe('071-P-AAAAAAAA')
    store.remove('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'dup'))
    expect(store.get('purchases', 'TEST', 'dup', 'x').id).toBe('071-P-BBBBBBBB')
    expect(store.find('purchases', 'ACME', '071-P-AAAAAAAA').found).toBe('none')
  })

  it('groups subscriptions by customer and plan, following changes', () => {
    const store = new Store()
    const subscription = {id: '071-S-1', customer: '071-C-1', plan: '071-PL-1', reference: 's1'} as never
    store.save('subscriptions', 'TEST', subscription)
    expect(store.related('subscriptions', 'TEST', 'plan', '071-PL-1')).toEqual([subscription])
    store.save('subscriptions', 'TEST', {...(subscription as object), plan: '071-PL-2'} as never)
    expect(store.related('subscriptions', 'TEST', 'plan', '071-PL-1')).toEqual([])
    expect(store.related('subscriptions', 'TEST', 'plan', '071-PL-2')).toHaveLength(1)
    expect(store.related('subscriptions', 'TEST', 'customer', '071-C-1')).toHaveLength(1)
  })

  it('reads records by position in the order they were made, after a replace, a removal and its undoing', () => {
    const store = twoMerchants()
    const ids = () => {
      const ordered = store.ordered('purchases', 'TEST')
      return Array.from({length: ordered.length}, (_, index) => ordered.at(index)?.id)
    }
    store.save('purchases', 'TEST', aPurchase('071-P-CCCCCCCC', 'order-2'))
    expect(ids()).toEqual(['071-P-AAAAAAAA', '071-P-CCCCCCCC'])
    store.save('purchases', 'TEST', {...aPurchase('071-P-AAAAAAAA', 'order-1'), amount: 5})
    expect(ids()).toEqual(['071-P-AAAAAAAA', '071-P-CCCCCCCC'])
    store.takeBatch()
    store.remove('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    expect(ids()).toEqual(['071-P-CCCCCCCC'])
    store.revert(store.takeBatch())
    expect(ids()).toEqual(['071-P-AAAAAAAA', '071-P-CCCCCCCC'])
    store.save('purchases', 'TEST', aPurchase('071-P-DDDDDDDD', 'order-3'))
    expect(ids()).toEqual(['071-P-AAAAAAAA', '071-P-CCCCCCCC', '071-P-DDDDDDDD'])
    expect(store.ordered('purchases', 'NEWCOMER').length).toBe(0)
  })

  it('costs no more to look up by reference among 100,000 records than among ten', () => {
    const store = new Store()
    for (let index = 0; index < 100_000; index++) store.save('purchases', 'TEST', aPurchase(`071-P-${index}`, `order-${index}`))
    store.takeBatch()
    expect(store.find('purchases', 'TEST', 'order-99999')).toMatchObject({found: 'own', record: {id: '071-P-99999'}})
    expect(store.find('purchases', 'ACME', '071-P-5').found).toBe('foreign')
  })

  it('takes a batch back latest first: records, names, order, date and queue as they were', () => {
    const store = twoMerchants()
    store.today = '2026-11-22'
    store.takeBatch()
    const before = store.snapshot()
    store.save('purchases', 'TEST', aPurchase('071-P-CCCCCCCC', 'order-2'))
    store.save('cards', 'TEST', aCard('testtoken00000000000', 'jim'))
    store.remove('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    store.today = '2026-11-23'
    store.reset('instance-2')
    store.save('purchases', 'TEST', aPurchase('071-P-DDDDDDDD', 'order-1'))
    store.revert(store.takeBatch())
    expect(store.snapshot()).toEqual(before)
    expect(store.list('purchases', 'TEST').map((purchase) => purchase.id)).toEqual(['071-P-AAAAAAAA'])
    expect(store.find('cards', 'TEST', 'jo').found).toBe('own')
    expect(store.find('cards', 'TEST', 'jim').found).toBe('none')
    expect(store.takeBatch().changes).toEqual([])
  })
})
