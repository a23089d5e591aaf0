import {describe, expect, it} from 'vitest'
import {gatewayKey, gatewayRoot} from '../../../src/api/base-url.js'

// A base URL ending in /v1.0, as the vendor's documentation writes it, sent every request to /v1.0/v1.0/...
describe('gatewayRoot', () => {
  it.each([
    ['https://gateway.example.com', 'https://gateway.example.com'],
    ['https://gateway.example.com/', 'https://gateway.example.com'],
    ['https://gateway.example.com/v1.0', 'https://gateway.example.com'],
    ['https://gateway.example.com/v1.0/', 'https://gateway.example.com'],
    ['  https://gateway.example.com/V1.0//  ', 'https://gateway.example.com'],
    ['https://proxy.example.com/gateway/v1.0', 'https://proxy.example.com/gateway'],
    ['https://gateway.example.com/v1.01', 'https://gateway.example.com/v1.01'],
    ['https://gateway.example.com/v2.0', 'https://gateway.example.com/v2.0'],
  ])('%s is kept as %s', (given, root) => {
    expect(gatewayRoot(given)).toBe(root)
  })
})

// One gateway, one name: a journal, the refunds-made record and a batch's identity key the gateway
// by the address that reaches its paths, so that the same batch sent with and without /v1.0 is one batch.
describe('gatewayKey', () => {
  it.each([
    ['http://127.0.0.1:4010/v1.0', 'http://localhost:4010'],
    ['http://localhost:4010/v1.0/', 'http://localhost:4010'],
    ['http://[::1]:4010/V1.0//', 'http://localhost:4010'],
    ['HTTPS://Gateway.Example.COM:443/v1.0', 'https://gateway.example.com'],
    ['https://proxy.example.com/gateway/v1.0?x=1#top', 'https://proxy.example.com/gateway'],
    ['https://gateway.example.com/v1.01', 'https://gateway.example.com/v1.01'],
    ['https://gateway.example.com/v2.0/', 'https://gateway.example.com/v2.0'],
  ])('%s is %s', (given, key) => {
    expect(gatewayKey(given)).toBe(key)
  })

  it('keys a gateway the same as the client reaches it', () => {
    for (const given of ['http://localhost:4010', 'http://localhost:4010/', 'http://localhost:4010/v1.0', 'http://127.0.0.1:4010/v1.0/']) {
      expect(gatewayKey(given)).toBe(gatewayKey(gatewayRoot(given)))
    }
  })

  it('throws for what is no URL', () => {
    expect(() => gatewayKey('gateway.example.com/v1.0')).toThrow(TypeError)
  })
})
