import {describe, expect, it} from 'vitest'
import {Store, type StoreState} from '../../../src/sandbox/domain/store.js'
import {storableJson, storableSnapshot} from '../../../src/sandbox/domain/storable.js'
import {aCard, aPurchase} from './fixtures.js'

// The state file's snapshot is keyed by names and ids: a merchant's username, a record's id, a
// card's token. The local gateway's ids are random, and about one in 4,000 holds `CVV` or `CVC`
// (a token, `cvv` or `cvc`, one in 1,300): judged as a field's name, that is a CVV's key, and the
// record it keys was left out of the file, gone after a restart though it had been answered 200.
const CVV_ID = '071-P-CVV76MMD'
const CVC_TOKEN = 'ab9cvc2defghij012345'
const MERCHANT = 'SHOPCVV'

function storeWithDataKeys(): Store {
  const store = new Store()
  const card = aCard(CVC_TOKEN)
  store.save('cards', MERCHANT, card)
  store.save('purchases', MERCHANT, {...aPurchase(CVV_ID, 'order-1'), card_token: CVC_TOKEN, metadata: {cvv: '123', Card_CVC: '4567', note: 'kept'}})
  // A reference holding a card number: found by a keyed hash, kept under the record's id.
  store.save('purchases', 'TEST', aPurchase('071-P-XCVCXXXX', 'ref-4111111111111111'))
  store.recordCardNotice(card, 'card:expiring')
  return store
}

const restarted = (file: string) => new Store(JSON.parse(file) as StoreState)

describe("the state file's snapshot: its keys are names and ids, not fields", () => {
  it('keeps the records whose id, token or merchant holds cvv or cvc, and every CVV of their fields left out', () => {
    const store = storeWithDataKeys()
    const file = storableSnapshot(store.snapshot())
    const again = restarted(file)
    expect(again.find('purchases', MERCHANT, CVV_ID)).toMatchObject({found: 'own', record: {id: CVV_ID, reference: 'order-1', metadata: {note: 'kept'}}})
    expect(again.find('purchases', MERCHANT, 'order-1')).toMatchObject({found: 'own', record: {id: CVV_ID}})
    expect(again.find('cards', MERCHANT, CVC_TOKEN)).toMatchObject({found: 'own', record: {token: CVC_TOKEN}})
    expect(again.find('purchases', 'TEST', 'ref-4111111111111111')).toMatchObject({found: 'own', record: {id: '071-P-XCVCXXXX'}})
    expect(again.cardNoticesSent(aCard(CVC_TOKEN))).toStrictEqual(['card:expiring'])
    // What a field holds is judged as before: the metadata's CVVs are left out, the card number masked.
    expect(file).not.toMatch(/"cvv"|Card_CVC|"123"|"4567"|4111111111111111/)
    expect(again.snapshot()).toStrictEqual(JSON.parse(file))
  })

  it('as every field of it was judged before: the records keyed by such ids were left out', () => {
    const before = JSON.parse(storableJson(storeWithDataKeys().snapshot())) as StoreState
    expect(before.merchants[MERCHANT]).toBeUndefined()
    expect(before.merchants.TEST?.purchases).toStrictEqual({})
    expect(before.cardNotices).toStrictEqual({})
  })

  it('is the JSON of a snapshot without such keys, field for field', () => {
    const store = new Store()
    store.save('purchases', 'TEST', {...aPurchase('071-P-AAAAAAAA', 'ref-4111111111111111'), metadata: {cvv: '123'}})
    expect(storableSnapshot(store.snapshot())).toBe(storableJson(store.snapshot()))
  })
})

describe("the state file's snapshot: a field with nothing in it", () => {
  it('is left out, as JSON leaves it out, at the top and among the keys that are ids', () => {
    const snapshot = {today: undefined, merchants: {TEST: {purchases: {'071-P-AAAAAAAA': undefined}}}, changes: 3}
    expect(storableSnapshot(snapshot)).toBe(JSON.stringify(snapshot))
    expect(JSON.parse(storableSnapshot(snapshot))).toStrictEqual({merchants: {TEST: {purchases: {}}}, changes: 3})
  })
})
