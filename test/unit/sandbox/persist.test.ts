import {mkdtempSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {loadState, saveState} from '../../../src/sandbox/persist.js'
import {Store} from '../../../src/sandbox/store.js'
import {aCard, aPurchase, aRefund} from './fixtures.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'gw-sandbox-'))

describe('state file', () => {
  it('round-trips every record, creating the directory, leaving no temporary file', () => {
    const store = new Store()
    store.save('cards', 'TEST', aCard('testtoken00000000000', 'jo'))
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    store.save('refunds', 'ACME', aRefund('512-R-AAAAAAAA', 'refund-1', '512-P-AAAAAAAA', 100))
    const dir = tempDir()
    const file = join(dir, 'nested', 'state.json')

    saveState(file, store.snapshot())

    expect(loadState(file)).toEqual(store.snapshot())
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json'])
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1)
    expect(readFileSync(file, 'utf8')).not.toMatch(/cvv/i)
  })

  it('replaces the previous content', () => {
    const file = join(tempDir(), 'state.json')
    const store = new Store()
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    saveState(file, store.snapshot())
    store.reset()
    saveState(file, store.snapshot())
    expect(loadState(file)).toEqual({merchants: {}})
  })

  it('starts empty when the file does not exist', () => {
    expect(loadState(join(tempDir(), 'missing.json'))).toEqual({merchants: {}})
  })

  it.each(['not json', '{"merchants":{}}', '{"version":1}', 'null', '[]'])('refuses a file that is not a state file: %s', (text) => {
    const file = join(tempDir(), 'state.json')
    writeFileSync(file, text)
    expect(() => loadState(file)).toThrow(`${file} is not a gw sandbox state file (version 1); move it away or pick another file`)
  })
})

describe('state file of the recurring area', () => {
  it('completes a file written before plans, customers, subscriptions and web hooks existed', () => {
    const file = join(tempDir(), 'state.json')
    const purchase = aPurchase('071-P-AAAAAAAA', 'order-1')
    writeFileSync(file, JSON.stringify({version: 1, merchants: {TEST: {cards: {}, purchases: {[purchase.id]: purchase}, refunds: {}}}}))
    const store = new Store(loadState(file))
    expect(store.list('plans', 'TEST')).toEqual([])
    expect(store.list('webhooks', 'TEST')).toEqual([])
    expect(store.find('purchases', 'TEST', 'order-1')).toEqual({found: 'own', record: purchase})
    expect(store.today).toBeUndefined()
  })

  it('keeps the virtual date, the card notices sent and the deliveries still queued', () => {
    const file = join(tempDir(), 'state.json')
    const store = new Store()
    const card = aCard('testtoken00000000000')
    store.today = '2027-01-05'
    store.recordCardNotice(card, 'card:expiring')
    store.deliveryQueue().push({
      id: 'd1',
      target: {hook_id: '071-WH-AAAAAAAA', address: 'http://127.0.0.1:9/hooks', username: null, password: null},
      event: 'card:expiring',
      payload: [{id: '071-C-AAAAAAAA'}],
      attempts: 2,
      last_error: 'ECONNREFUSED',
    })
    saveState(file, store.snapshot())

    const loaded = new Store(loadState(file))
    expect(loaded.today).toBe('2027-01-05')
    expect(loaded.cardNoticesSent(card)).toEqual(['card:expiring'])
    expect(loaded.deliveryQueue()).toEqual(store.deliveryQueue())
  })
})
