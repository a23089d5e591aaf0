import {describe, expect, it} from 'vitest'
import {gatewayRoot} from '../../../src/api/base-url.js'

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
