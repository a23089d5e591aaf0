import {describe, expect, it} from 'vitest'
import {jittered, longestLatencyMs, RateLimit, retryAfterSeconds, retryAfterValue} from '../../../src/sandbox/server/manners.js'

/** A rate limit on a clock the test moves. */
function limitAt(perSecond: number): {limit: RateLimit; at(ms: number): void} {
  let now = 0
  return {limit: new RateLimit(perSecond, () => now), at: (ms) => (now = ms)}
}

describe('RateLimit: at most N requests of a merchant in any one second', () => {
  it('lets N in at once and refuses the next, saying how long until the first leaves the window', () => {
    const {limit, at} = limitAt(3)
    at(1000)
    expect([limit.admit('TEST'), limit.admit('TEST'), limit.admit('TEST')]).toEqual([undefined, undefined, undefined])
    at(1250)
    expect(limit.admit('TEST')).toBe(750)
  })

  it('slides: a request is let in once the one N before it is a second old, and not a millisecond sooner', () => {
    const {limit, at} = limitAt(2)
    at(0)
    limit.admit('TEST')
    at(400)
    limit.admit('TEST')
    at(999)
    expect(limit.admit('TEST')).toBe(1)
    // Exactly a second on, the first still counts: no second, both ends included, holds three.
    at(1000)
    expect(limit.admit('TEST')).toBe(0)
    at(1001)
    expect(limit.admit('TEST')).toBeUndefined()
    at(1399)
    expect(limit.admit('TEST')).toBe(1)
    at(1401)
    expect(limit.admit('TEST')).toBeUndefined()
  })

  it('counts only the requests it lets in: a client that keeps asking while refused gets in as soon as one that waited would', () => {
    const {limit, at} = limitAt(1)
    at(0)
    limit.admit('TEST')
    for (let ms = 100; ms < 1000; ms += 100) {
      at(ms)
      expect(limit.admit('TEST')).toBe(1000 - ms)
    }
    at(1001)
    expect(limit.admit('TEST')).toBeUndefined()
  })

  it('counts each merchant apart', () => {
    const {limit, at} = limitAt(1)
    at(0)
    expect(limit.admit('TEST')).toBeUndefined()
    expect(limit.admit('ACME')).toBeUndefined()
    expect(limit.admit('TEST')).toBe(1000)
  })

  it('never lets more than N into any second of a long run of requests at random times', () => {
    const {limit, at} = limitAt(5)
    const admitted: number[] = []
    let now = 0
    for (let i = 0; i < 5000; i++) {
      now += Math.floor(Math.random() * 120)
      at(now)
      if (limit.admit('TEST') === undefined) admitted.push(now)
    }
    for (const [index, time] of admitted.entries()) expect(admitted[index + 5] === undefined || admitted[index + 5]! > time + 1000, `at ${time}`).toBe(true)
    expect(admitted.length).toBeGreaterThan(1000)
  })
})

describe('Retry-After', () => {
  it.each([
    [0, 1],
    [1, 1],
    [999, 1],
    [1000, 1],
    [1001, 2],
    [2500, 3],
  ])('%d ms to wait is %d s: whole seconds, rounded up, at least 1', (waitMs, seconds) => {
    expect(retryAfterSeconds(waitMs)).toBe(seconds)
  })

  it('is the seconds, or the HTTP date that many seconds on, rounded up to a whole second', () => {
    const now = Date.parse('2026-11-28T01:02:03.400Z')
    expect(retryAfterValue(2, false, now)).toBe('2')
    expect(retryAfterValue(2, true, now)).toBe('Sat, 28 Nov 2026 01:02:06 GMT')
    expect(retryAfterValue(0, true, Date.parse('2026-11-28T01:02:03.000Z'))).toBe('Sat, 28 Nov 2026 01:02:03 GMT')
  })
})

describe('latency', () => {
  it('is uniform within a quarter either way, and the longest is what it adds to the processing window', () => {
    expect(jittered(200, () => 0)).toBe(150)
    expect(jittered(200, () => 0.5)).toBe(200)
    expect(jittered(200, () => 0.999_999)).toBeCloseTo(250, 3)
    expect(longestLatencyMs(200)).toBe(250)
    expect(longestLatencyMs(150)).toBe(188)
    expect(longestLatencyMs(0)).toBe(0)
  })
})
