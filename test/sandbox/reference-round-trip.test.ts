import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {GatewayClient} from '../../src/api/client.js'
import {sandbox} from './helpers.js'

// Any reference round-trips through the client's path building and the local gateway's routing
// (design.md §2, paths), over real HTTP: created under it, found again by it, never another record.
describe('references round-trip between the client and the local gateway', () => {
  it('property: a purchase created under any reference is found by that reference', async () => {
    const gateway = await sandbox()
    const client = new GatewayClient({baseUrl: gateway.url, username: 'TEST', token: 'TEST', userAgent: 'test', environment: 'sandbox'})
    const seen = new Set<string>()
    const tricky = fc.array(fc.constantFrom('.json', '.', '/', '%', '%2F', '?', '#', 'ü', '+', ' ', 'a', '..'), {minLength: 1, maxLength: 6}).map((parts) => 'r' + parts.join(''))
    const key = fc.oneof(tricky, fc.string({unit: 'grapheme', minLength: 1, maxLength: 16})).filter((value) => value.trim() === value && value !== '' && !seen.has(value))
    try {
      await fc.assert(
        fc.asyncProperty(key, async (reference) => {
          seen.add(reference)
          const {record: created} = await client.purchases.create({amount: 1000, reference, currency: 'AUD', card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
          expect(created.reference).toBe(reference)
          const found = await client.purchases.get(reference)
          expect(found).toMatchObject({id: created.id, reference})
        }),
        {numRuns: 150},
      )
    } finally {
      await client.close()
    }
  })
})
