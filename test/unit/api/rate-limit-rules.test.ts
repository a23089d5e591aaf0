import {afterEach, describe, expect, it, vi} from 'vitest'
import {type LimitedRequest, RateLimiting, type RateLimitWait} from '../../../src/api/rate-limiting.js'
import {parseRetryAfter, RATE_LIMIT_BOUND_MS, RATE_LIMIT_FLOOR_MS, rateLimitOf, rateLimitWait, resendsWhenLimited, spanOf} from '../../../src/api/retry.js'
import {InterruptedError, type MoneyInFlight, RateLimitedError} from '../../../src/errors.js'

const NOW = Date.parse('2026-11-28T10:00:00Z')

describe('parseRetryAfter', () => {
  it.each([
    ['12', 12_000],
    [' 3 ', 3000],
    ['0', 0],
    ['1.5', 1500],
    ['1.25', 1250],
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
    // A date in figures alone is no HTTP date (Date.parse would take it).
    ['2026-11-28 10:00:12', undefined],
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
    // Strictly: no retryAfterMs at all where none was said, not one that is undefined.
    expect(rateLimitOf(status, headers, NOW)).toStrictEqual(limit)
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

/** Rate limiting on a clock that moves only when it pauses, by the pause's length; what its listeners heard, kept. */
function limitingOf({listening = true, onPause}: {listening?: boolean; onPause?: () => void} = {}) {
  let now = NOW
  const logged: string[] = []
  const waits: RateLimitWait[] = []
  const resent: MoneyInFlight[] = []
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      onPause?.()
      now += ms
    },
  }
  const listeners = {log: (line: string) => logged.push(line), onRateLimit: (wait: RateLimitWait) => waits.push(wait), beforeResend: async (inFlight: MoneyInFlight) => void resent.push(inFlight)}
  return {limits: new RateLimiting(clock, listening ? listeners : {}, 70_000), logged, waits, resent}
}

const ORDER: MoneyInFlight = {noun: 'purchase', reference: 'order-1'}
const purchaseOf = (): LimitedRequest => ({method: 'POST', path: '/v1.0/purchases', inFlight: ORDER, tries: 0})
const lookUpOf = (): LimitedRequest => ({method: 'GET', path: '/v1.0/purchases/order-1', inFlight: ORDER, tries: 0})

describe('RateLimiting: what becomes of a request the gateway asks to wait', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('a purchase answered 429 and a read answered 503 go again after the wait asked: --verbose says how long, a listener until when', async () => {
    const {limits, logged, waits} = limitingOf()
    const purchase = purchaseOf()
    expect(limits.limited(purchase, await limits.pass(purchase), {status: 429, retryAfterMs: 1500})).toBe('again')
    const lookUp = lookUpOf()
    expect(limits.limited(lookUp, await limits.pass(lookUp), {status: 503, retryAfterMs: 7000})).toBe('again')
    expect(logged).toEqual(['* rate limited by the gateway (HTTP 429): trying again in 1.5 s', '* rate limited by the gateway (HTTP 503): trying again in 7.0 s'])
    expect(waits).toEqual([
      {method: 'POST', path: '/v1.0/purchases', status: 429, waitMs: 1500, endsAt: NOW + 1500},
      {method: 'GET', path: '/v1.0/purchases/order-1', status: 503, waitMs: 7000, endsAt: NOW + 1500 + 7000},
    ])
  })

  it('a purchase answered 503 is the answer, never sent again nor told as a wait; its wait still holds the next request', async () => {
    const {limits, logged, waits} = limitingOf()
    const purchase = purchaseOf()
    expect(limits.limited(purchase, await limits.pass(purchase), {status: 503, retryAfterMs: 3000})).toBe('answer')
    expect([logged, waits]).toEqual([[], []])
    const lookUp = lookUpOf()
    const pass = await limits.pass(lookUp)
    expect(pass).toEqual({sentAt: NOW + 3000})
    expect(limits.answered(pass)).toBe('answer')
    expect(limits.met).toEqual({limited: 1, waitedMs: 3000})
  })

  it('with no one listening, the wait is still waited out and the purchase sent again', async () => {
    const {limits} = limitingOf({listening: false})
    const purchase = purchaseOf()
    expect(limits.limited(purchase, await limits.pass(purchase), {status: 429, retryAfterMs: 2000})).toBe('again')
    expect(await limits.pass(purchase)).toEqual({sentAt: NOW + 2000})
  })

  it('tells the journal only when the purchase itself goes again: not at its first send, not when a look-up of it goes again', async () => {
    const {limits, resent} = limitingOf()
    const purchase = purchaseOf()
    limits.limited(purchase, await limits.pass(purchase), {status: 429, retryAfterMs: 1000})
    expect(resent).toEqual([])
    limits.answered(await limits.pass(purchase))
    expect(resent).toEqual([ORDER])
    // A look-up by its reference sends no money: the journal's time the purchase left stays as it was.
    const lookUp = lookUpOf()
    limits.limited(lookUp, await limits.pass(lookUp), {status: 429, retryAfterMs: 1000})
    limits.answered(await limits.pass(lookUp))
    expect(resent).toEqual([ORDER])
  })

  it('a signal during the wait stops the purchase unsent (exit 143 for SIGTERM), naming it, and the journal is not told it left', async () => {
    const stop = new AbortController()
    const {limits, resent} = limitingOf({onPause: () => stop.abort('SIGTERM')})
    const purchase = purchaseOf()
    limits.limited(purchase, await limits.pass(purchase), {status: 429, retryAfterMs: 5000})
    const error: unknown = await limits.pass(purchase, stop.signal).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(InterruptedError)
    expect(error).toMatchObject({kind: 'interrupted', exitCode: 143, signal: 'SIGTERM', inFlight: ORDER})
    expect(resent).toEqual([])
  })

  it('without Retry-After, --verbose says so, and gw gives up when its own backoff would pass 60 s, saying how long it waited', async () => {
    // The backoff's jitter at its top: 1, 2, 4, 8, 16, 16 s waited, and 16 s more would make 63.
    vi.spyOn(Math, 'random').mockReturnValue(1)
    const {limits, logged} = limitingOf()
    const read: LimitedRequest = {method: 'GET', path: '/v1.0/purchases/order-1', tries: 0}
    let outcome: ReturnType<RateLimiting['limited']>
    do outcome = limits.limited(read, await limits.pass(read), {status: 429})
    while (outcome === 'again')
    expect(logged).toEqual(['1.0', '2.0', '4.0', '8.0', '16.0', '16.0'].map((s) => `* rate limited by the gateway (HTTP 429, no Retry-After): trying again in ${s} s`))
    expect(outcome).toBeInstanceOf(RateLimitedError)
    expect(outcome).toMatchObject({message: 'Rate limited by the gateway for 47 s, past the 60 s gw waits', exitCode: 9, status: 429, retryAfterMs: undefined})
  })

  it('asked to wait past the bound, names what was not made: a follow-up by what it does to which record, and a request the wait held', async () => {
    const {limits} = limitingOf()
    const capture: LimitedRequest = {method: 'POST', path: '/v1.0/purchases/txn-7/capture', inFlight: {noun: 'purchase', reference: 'txn-7', action: 'capture'}, tries: 0}
    expect(limits.limited(capture, await limits.pass(capture), {status: 429, retryAfterMs: 90_000, requestId: 'req-3'})).toMatchObject({
      message: 'Rate limited by the gateway: it asks gw to wait 90 s, longer than the 60 s gw waits; the capture of purchase txn-7 was not made',
      exitCode: 9,
      status: 429,
      requestId: 'req-3',
      retryAfterMs: 90_000,
      notMade: {noun: 'purchase', reference: 'txn-7', action: 'capture'},
    })
    // Never answered itself, a refund is held by that wait unsent: it has waited nothing.
    const refund: LimitedRequest = {method: 'POST', path: '/v1.0/refunds', inFlight: {noun: 'refund', reference: 'refund-1'}, tries: 0}
    await expect(limits.pass(refund)).rejects.toMatchObject({
      message: 'Rate limited by the gateway: it asks gw to wait 90 s, longer than the 60 s gw waits; the refund with reference refund-1 was not made',
      exitCode: 9,
      retryAfterMs: 90_000,
    })
  })
})
