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
