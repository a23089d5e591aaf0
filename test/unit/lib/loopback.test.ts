import {describe, expect, it} from 'vitest'
import {gatewayAddress, isLoopbackHost, reachableUrl} from '../../../src/lib/loopback.js'
import {environmentOf} from '../../../src/auth/resolve.js'

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.0.0.2', '127.255.255.255', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])('%s is this machine', (host) => {
    expect(isLoopbackHost(host)).toBe(true)
  })
  it.each(['0.0.0.0', '128.0.0.1', '10.0.0.1', '127.0.0.256', '127.0.0', '127.0.0.1.example.com', 'localhost.example.com', 'example.com', '::', '::2', ''])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false)
  })
})

describe('environmentOf, for credentials given only in the environment', () => {
  it.each([
    ['http://127.0.0.2:4010', 'sandbox'],
    ['http://127.1:4010', 'sandbox'],
    ['http://[0:0:0:0:0:0:0:1]:4010', 'sandbox'],
    ['http://localhost:4010', 'sandbox'],
    ['https://gateway.example.com', 'live'],
    ['http://10.0.0.5:4010', 'live'],
  ])('%s counts as %s', (url, environment) => {
    expect(environmentOf(url, undefined)).toBe(environment)
  })
})

describe('gatewayAddress: one gateway, one spelling (design.md §5)', () => {
  it.each([
    ['http://localhost:4010', 'http://localhost:4010'],
    ['http://127.0.0.1:4010/', 'http://localhost:4010'],
    ['http://LOCALHOST:4010', 'http://localhost:4010'],
    ['http://[::1]:4010', 'http://localhost:4010'],
    ['http://[0:0:0:0:0:0:0:1]:4010//', 'http://localhost:4010'],
    ['http://127.1:4010', 'http://localhost:4010'],
    ['http://[::ffff:127.0.0.1]:4010', 'http://localhost:4010'],
    ['http://localhost.:4010', 'http://localhost:4010'],
    ['  http://localhost:4010  ', 'http://localhost:4010'],
    ['HTTP://LocalHost:80/', 'http://localhost'],
    ['http://localhost', 'http://localhost'],
    ['https://Gateway.Example.COM:443/', 'https://gateway.example.com'],
    ['https://gateway.example.com:8443', 'https://gateway.example.com:8443'],
    ['https://user:secret@gateway.example.com/api/v2/?page=2#top', 'https://gateway.example.com/api/v2'],
    ['https://gateway.example.com/API', 'https://gateway.example.com/API'],
  ])('%s is %s', (url, address) => {
    expect(gatewayAddress(url)).toBe(address)
  })

  it.each([
    ['another port', 'http://localhost:4011'],
    ['another scheme', 'https://localhost:4010'],
    ['another loopback address, which another server may hold', 'http://127.0.0.2:4010'],
    ['another host', 'http://10.0.0.1:4010'],
    ['a path', 'http://localhost:4010/gw'],
  ])('%s is another gateway', (_, url) => {
    expect(gatewayAddress(url)).not.toBe('http://localhost:4010')
  })

  it('throws for what is no URL', () => {
    expect(() => gatewayAddress('gateway.example.com')).toThrow(TypeError)
  })
})

describe('reachableUrl', () => {
  it('reaches a server on every address on loopback of its family, and leaves any other address as it is', () => {
    expect(reachableUrl('http://0.0.0.0:8787')).toBe('http://127.0.0.1:8787')
    expect(reachableUrl('http://[::]:8787')).toBe('http://[::1]:8787')
    expect(reachableUrl('http://192.0.2.10:8787')).toBe('http://192.0.2.10:8787')
    expect(reachableUrl('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787')
  })
})
