import {describe, expect, it} from 'vitest'
import {isLoopbackHost} from '../../src/loopback.js'
import {environmentOf} from '../../src/auth/resolve.js'

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
