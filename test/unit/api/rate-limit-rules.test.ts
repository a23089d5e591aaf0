import {describe, expect, it} from 'vitest'
import {parseRetryAfter, RATE_LIMIT_BOUND_MS, RATE_LIMIT_FLOOR_MS, rateLimitOf, rateLimitWait, resendsWhenLimited, spanOf} from '../../../src/api/retry.js'

const NOW = Date.parse('2026-11-28T10:00:00Z')

describe('parseRetryAfter', () => {
  it.each([
    ['12', 12_000],
    [' 3 ', 3000],
    ['0', 0],
    ['1.5', 1500],
    ['+2', 2000],
    // Negative or past: no wait asked (the floor holds it off a busy loop).
    ['-5', 0],
    ['Sat, 28 Nov 2026 10:00:12 GMT', 12_000],
    // RFC 850's and asctime's forms of the same date.
    ['Saturday, 28-Nov-26 10:00:12 GMT', 12_000],
    ['Sat Nov 28 10:00:12 2026', 12_000 + new Date(NOW).getTimezoneOffset() * 60_000],
    ['Sat, 28 Nov 2026 09:59:00 GMT', 0],
    // Huge is read as said: the bound (rateLimitWait) decides what gw does with it.
    ['99999999999', 99_999_999_999_000],
    ['Fri, 01 Jan 2100 00:00:00 GMT', Date.parse('2100-01-01T00:00:00Z') - NOW],
    // Unreadable: gw's own backoff instead.
    ['soon', undefined],
    ['', undefined],
    ['12s', undefined],
    ['1e3', undefined],
    [undefined, undefined],
  ])('%j → %s', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms)
  })
})

describe('rateLimitOf: which answers are the gateway asking to wait', () => {
  it.each([
    [429, {}, {status: 429}],
    [429, {retryAfter: '2'}, {status: 429, retryAfterMs: 2000}],
    [429, {retryAfter: 'later'}, {status: 429}],
    [503, {retryAfter: '7'}, {status: 503, retryAfterMs: 7000}],
    // A 503 that says no wait is a front end's failure, retried (a read) as one: no rate limit.
    [503, {}, undefined],
    [502, {retryAfter: '2'}, undefined],
    [500, {retryAfter: '2'}, undefined],
    [200, {retryAfter: '2'}, undefined],
    [400, {}, undefined],
  ] as const)('%s %j → %j', (status, headers, limit) => {
    expect(rateLimitOf(status, headers, NOW)).toEqual(limit)
  })

  it("reads a date against the answer's own Date, so a gateway whose clock is 5 minutes ahead still means 10 s", () => {
    const gatewayNow = NOW + 5 * 60_000
    const retryAfter = new Date(gatewayNow + 10_000).toUTCString()
    expect(rateLimitOf(429, {retryAfter, date: new Date(gatewayNow).toUTCString()}, NOW)).toEqual({status: 429, retryAfterMs: 10_000})
    // Without a Date (or an unreadable one), against this machine's clock.
    expect(rateLimitOf(429, {retryAfter, date: 'yesterday-ish'}, NOW)).toEqual({status: 429, retryAfterMs: 310_000})
  })
})

describe('resendsWhenLimited', () => {
  it.each([
    ['GET', 429, true],
    ['GET', 503, true],
    // A 429 says the gateway did not process it: a purchase goes again under its reference.
    ['POST', 429, true],
    ['PUT', 429, true],
    ['DELETE', 429, true],
    // A 503 says nothing of whether it was processed: a write is not repeated.
    ['POST', 503, false],
    ['PUT', 503, false],
  ] as const)('%s %s → %s', (method, status, expected) => {
    expect(resendsWhenLimited(method, status)).toBe(expected)
  })
})

describe('rateLimitWait: the wait, and the bound', () => {
  it('waits what Retry-After says, at least the floor', () => {
    expect(rateLimitWait({retryAfterMs: 12_000, tries: 0, limitedForMs: 0})).toBe(12_000)
    expect(rateLimitWait({retryAfterMs: 0, tries: 3, limitedForMs: 0})).toBe(RATE_LIMIT_FLOOR_MS)
    expect(RATE_LIMIT_FLOOR_MS).toBe(100)
  })

  it('without Retry-After, backs off on its own: 1 s doubling to 16 s, jittered within half and all of it', () => {
    const low = (tries: number) => rateLimitWait({tries, limitedForMs: 0}, () => 0)
    const high = (tries: number) => rateLimitWait({tries, limitedForMs: 0}, () => 1)
    expect([0, 1, 2, 3, 4, 5].map(low)).toEqual([500, 1000, 2000, 4000, 8000, 8000])
    expect([0, 1, 2, 3, 4, 5].map(high)).toEqual([1000, 2000, 4000, 8000, 16_000, 16_000])
  })

  it('gives up (undefined) when the wait would take the request past 60 s from its first 429, never waiting out part of it', () => {
    expect(RATE_LIMIT_BOUND_MS).toBe(60_000)
    expect(rateLimitWait({retryAfterMs: 10_000, tries: 5, limitedForMs: 50_000})).toBe(10_000)
    expect(rateLimitWait({retryAfterMs: 10_001, tries: 5, limitedForMs: 50_000})).toBeUndefined()
    // A wait asked longer than the bound, or absurd: at once.
    expect(rateLimitWait({retryAfterMs: 60_001, tries: 0, limitedForMs: 0})).toBeUndefined()
    expect(rateLimitWait({retryAfterMs: 99_999_999_999_000, tries: 0, limitedForMs: 0})).toBeUndefined()
    expect(rateLimitWait({tries: 4, limitedForMs: 44_001}, () => 1)).toBeUndefined()
  })

  it('a gateway that keeps asking for 1 s is tried about 60 times before gw gives up', () => {
    let limitedForMs = 0
    let tries = 0
    for (let wait = rateLimitWait({retryAfterMs: 1000, tries, limitedForMs}); wait !== undefined; wait = rateLimitWait({retryAfterMs: 1000, tries, limitedForMs})) {
      limitedForMs += wait
      tries++
    }
    expect([tries, limitedForMs]).toEqual([60, 60_000])
  })
})

describe('spanOf', () => {
  it.each([
    [0, '0 s'],
    [400, '1 s'],
    [12_000, '12 s'],
    [119_000, '119 s'],
    [150_000, '3 min'],
    [3_600_000, '60 min'],
    [7_200_000, '2 h'],
    [86_400_000, 'more than a day'],
  ])('%s ms → %s', (ms, text) => {
    expect(spanOf(ms)).toBe(text)
  })
})
