import {describe, expect, it} from 'vitest'
import {merchantPrefixes, newAuthorization, newRecordId, newUuid} from '../../../src/sandbox/domain/ids.js'
import {maskCardNumbersIn} from '../../../src/safety/redact.js'

describe('newRecordId', () => {
  it.each([
    ['P', /^071-P-[A-Z0-9]{8}$/],
    ['R', /^071-R-[A-Z0-9]{8}$/],
    ['PL', /^071-PL-[A-Z0-9]{8}$/],
    ['WH', /^071-WH-[A-Z0-9]{8}$/],
  ] as const)('%s ids look like the gateway’s', (type, shape) => {
    expect(newRecordId('071', type)).toMatch(shape)
  })

  it('differs each time', () => {
    expect(new Set(Array.from({length: 100}, () => newRecordId('071', 'P'))).size).toBe(100)
  })
})

describe('newAuthorization', () => {
  it('is a six-digit string', () => {
    for (let i = 0; i < 50; i++) expect(newAuthorization()).toMatch(/^\d{6}$/)
  })
})

describe('merchantPrefixes', () => {
  const many = Array.from({length: 120}, (_, i) => `merchant-${i}`)

  it('gives TEST 071 and others three digits from 100 to 999', () => {
    const prefixes = merchantPrefixes(['TEST', 'ACME'])
    expect(prefixes.get('TEST')).toBe('071')
    expect(prefixes.get('ACME')).toMatch(/^[1-9]\d\d$/)
  })

  it('is stable whatever the order the merchants come in', () => {
    expect(merchantPrefixes([...many].reverse())).toEqual(merchantPrefixes(many))
    expect(merchantPrefixes(['ACME', 'TEST']).get('ACME')).toBe(merchantPrefixes(['TEST', 'ACME']).get('ACME'))
  })

  it('gives every merchant its own prefix, even when their hashes clash', () => {
    const prefixes = merchantPrefixes(['TEST', ...many])
    expect(new Set(prefixes.values()).size).toBe(many.length + 1)
    for (const name of many) expect(prefixes.get(name)).toMatch(/^[1-9]\d\d$/)
  })
})

describe('newUuid', () => {
  it('is a UUID’s shape whose every group begins and ends with a letter, so no run of 13 digits (a card number to gw’s masking) can form', () => {
    const ids = Array.from({length: 2000}, () => newUuid())
    for (const id of ids) {
      expect(id).toMatch(/^[a-f][0-9a-f]{6}[a-f]-[a-f][0-9a-f]{2}[a-f]-[a-f][0-9a-f]{2}[a-f]-[a-f][0-9a-f]{2}[a-f]-[a-f][0-9a-f]{10}[a-f]$/)
      expect(maskCardNumbersIn(id)).toBe(id)
    }
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('with a count written after it, as a run of the data is named (<run>.<changes>), still reads as no card number', () => {
    // A run ending in digits made a card number with its count now and then, and a journal kept the name masked: seen as "instance ...bf660560XXX5424".
    for (let round = 0; round < 2000; round++) {
      const instance = `${newUuid()}.${100_000 + round * 449}`
      expect(maskCardNumbersIn(instance)).toBe(instance)
    }
  })
})
