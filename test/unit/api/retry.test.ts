import {describe, expect, it} from 'vitest'
import {backoffMs, classifyFailure, shouldRetry} from '../../../src/api/retry.js'

const coded = (code: string) => Object.assign(new Error(code), {code})

describe('shouldRetry', () => {
  it.each([
    [{method: 'GET', attempt: 0, status: 503}, true],
    [{method: 'GET', attempt: 0, status: 502}, true],
    [{method: 'GET', attempt: 2, status: 504}, true],
    [{method: 'GET', attempt: 3, status: 503}, false],
    [{method: 'GET', attempt: 0, status: 500}, false],
    [{method: 'GET', attempt: 0, status: 404}, false],
    [{method: 'GET', attempt: 0, failure: 'maybe_processed'}, true],
    [{method: 'GET', attempt: 0, failure: 'not_sent'}, true],
    [{method: 'POST', attempt: 0, status: 503}, false],
    [{method: 'POST', attempt: 0, failure: 'not_sent'}, false],
    [{method: 'PUT', attempt: 0, status: 502}, false],
    [{method: 'DELETE', attempt: 0, failure: 'maybe_processed'}, false],
  ] as const)('%j → %s', (input, expected) => {
    expect(shouldRetry(input)).toBe(expected)
  })
})

describe('classifyFailure', () => {
  it.each([
    ['ECONNREFUSED', 'not_sent'],
    ['UND_ERR_CONNECT_TIMEOUT', 'not_sent'],
    ['ENOTFOUND', 'not_sent'],
    ['UND_ERR_HEADERS_TIMEOUT', 'maybe_processed'],
    ['UND_ERR_BODY_TIMEOUT', 'maybe_processed'],
    ['UND_ERR_SOCKET', 'maybe_processed'],
    ['ECONNRESET', 'maybe_processed'],
  ])('%s → %s', (code, expected) => {
    expect(classifyFailure(coded(code))).toBe(expected)
  })

  it('follows the cause chain and treats an unknown failure as possibly processed', () => {
    expect(classifyFailure(new TypeError('fetch failed', {cause: coded('ECONNREFUSED')}))).toBe('not_sent')
    expect(classifyFailure(new Error('mystery'))).toBe('maybe_processed')
  })
})

describe('backoffMs', () => {
  it('grows exponentially within half and all of the ceiling, and is capped', () => {
    expect(backoffMs(0, 200, 2000, () => 0)).toBe(100)
    expect(backoffMs(0, 200, 2000, () => 1)).toBe(200)
    expect(backoffMs(2, 200, 2000, () => 1)).toBe(800)
    expect(backoffMs(10, 200, 2000, () => 1)).toBe(2000)
  })
})
