import {afterEach, describe, expect, it, vi} from 'vitest'
import type {RateLimitWait} from '../../../src/api/client.js'
import type {RateLimitsMet} from '../../../src/api/gate.js'
import {BatchView} from '../../../src/output/batch.js'
import {pagingProgress} from '../../../src/output/progress.js'
import {HeldByLimit, rateLimitNotice} from '../../../src/output/rate-limit-notice.js'
import {testIo} from '../../test-io.js'

afterEach(() => {
  vi.useRealTimers()
})

const wait = (endsAt: number, waitMs = 3000): RateLimitWait => ({method: 'GET', path: '/v1.0/purchases/order-1', status: 429, waitMs, endsAt})

/** A client as a batch's view knows it: the waits it tells, and what they cost. */
function limitedClient(met: RateLimitsMet) {
  const watchers: ((wait: RateLimitWait) => void)[] = []
  return {
    client: {watchRateLimits: (watcher: (wait: RateLimitWait) => void) => (watchers.push(watcher), () => true), rateLimits: met},
    tell: (told: RateLimitWait) => watchers.forEach((watcher) => watcher(told)),
  }
}

describe('rateLimitNotice: a command waiting out the gateway’s rate limit', () => {
  it('at a terminal: `Rate limited by the gateway: trying again in 3 s`, counted down, and gone when the wait is over', () => {
    vi.useFakeTimers({now: 0})
    const io = testIo({tty: true})
    const told = rateLimitNotice(io)
    told(wait(3000))
    expect(io.stderr()).toBe('\r\u001B[KRate limited by the gateway: trying again in 3 s')
    vi.advanceTimersByTime(1000)
    expect(io.stderr()).toBe('\r\u001B[KRate limited by the gateway: trying again in 3 s\r\u001B[KRate limited by the gateway: trying again in 2 s')
    // A wait inside the one shown changes nothing.
    told(wait(2500))
    vi.advanceTimersByTime(2000)
    expect(io.stderr().endsWith('trying again in 1 s\r\u001B[K')).toBe(true)
    const after = io.stderr()
    vi.advanceTimersByTime(5000)
    expect(io.stderr()).toBe(after)
  })

  it('a longer wait told meanwhile is shown in its place', () => {
    vi.useFakeTimers({now: 0})
    const io = testIo({tty: true})
    const told = rateLimitNotice(io)
    told(wait(1000))
    told(wait(12_000))
    expect(io.stderr().endsWith('\r\u001B[KRate limited by the gateway: trying again in 12 s')).toBe(true)
  })

  it('at a terminal whose stdout is a pipe (`| less`): a line of its own, once a wait, no foot line for the reader to draw over', () => {
    vi.useFakeTimers({now: 0})
    const io = testIo({tty: true, progress: false})
    const told = rateLimitNotice(io)
    told(wait(3000))
    vi.advanceTimersByTime(1000)
    // A wait inside the one said changes nothing; a longer one is said too.
    told(wait(2500))
    told(wait(12_000))
    vi.advanceTimersByTime(15_000)
    expect(io.stderr()).toBe('Rate limited by the gateway: trying again in 3 s\nRate limited by the gateway: trying again in 11 s\n')
  })

  it('where stderr is no terminal: nothing (a script hears of it only if gw gives up, exit 9)', () => {
    vi.useFakeTimers({now: 0})
    const io = testIo()
    rateLimitNotice(io)(wait(3000))
    vi.advanceTimersByTime(4000)
    expect(io.stderr()).toBe('')
  })
})

describe('a list’s progress line says the wait', () => {
  it('at once, counted down in the line, then the line as it was', () => {
    vi.useFakeTimers({now: 10_000, toFake: ['setInterval', 'clearInterval', 'performance', 'Date']})
    const io = testIo({tty: true, columns: 160})
    const progress = pagingProgress(io, {shown: true})
    progress.state('purchases', {pages: 2, records: 100, size: 50})
    progress.rateLimited(wait(12_000))
    expect(io.stderr()).toBe('\r\u001B[KReading purchases: page 2, 100 records; rate limited by the gateway: trying again in 2 s')
    vi.advanceTimersByTime(2500)
    expect(io.stderr().endsWith('\r\u001B[KReading purchases: page 2, 100 records')).toBe(true)
    progress.done()
  })
})

describe('a batch under the gateway’s rate limit', () => {
  it('its progress line counts the wait down; its summary says how often, how long, the rate it ran at and its pace', () => {
    vi.useFakeTimers({now: 0, toFake: ['setInterval', 'clearInterval', 'performance', 'Date']})
    const io = testIo({tty: true, columns: 160})
    const {client, tell} = limitedClient({limited: 3, waitedMs: 2100, pacedPerSecond: 91.7})
    const view = new BatchView(io, 2, 'purchase', {json: false, client})
    tell(wait(4000))
    expect(io.stderr()).toBe('\r\u001B[K0/2  0.0/s  ETA --:--  0 approved, 0 declined, 0 failed  Rate limited by the gateway: trying again in 4 s')
    vi.advanceTimersByTime(1000)
    expect(io.stderr().endsWith('Rate limited by the gateway: trying again in 3 s')).toBe(true)
    vi.advanceTimersByTime(3000)
    expect(io.stderr().endsWith('0 failed')).toBe(true)
    for (const row of [1, 2]) view.row({row, line: row + 1, reference: `order-${row}`, status: 'approved', exitCode: 0, resumed: false, record: {id: `071-P-0000000${row}`, message: 'Approved'}, amount: 1000, currency: 'AUD'})
    vi.advanceTimersByTime(1000)
    view.summary({notStarted: 0})
    expect(io.stderr().split('\n').slice(-4)).toEqual([
      expect.stringMatching(/2 purchases: 2 approved in 5\.0 s$/),
      'Rate limited by the gateway: 3 answers asked gw to wait, 2.1 s in all; ran at 0.4 purchases a second, paced to 91 requests a second.',
      '  approved 20.00 AUD',
      '',
    ])
  })

  it('says nothing of rate limits when the gateway set none', () => {
    const io = testIo()
    const view = new BatchView(io, 0, 'purchase', {json: false, client: limitedClient({limited: 0, waitedMs: 0}).client})
    view.summary({notStarted: 0})
    expect(io.stderr()).toMatch(/^0 purchases: nothing done in \d+\.\d s\n$/)
  })

  it('a pace never set (the gateway limited the first request alone) is left out', () => {
    expect(new HeldByLimit(limitedClient({limited: 1, waitedMs: 1000}).client, () => {}).summary(10, 2, 'refund')).toBe('Rate limited by the gateway: 1 answer asked gw to wait, 1.0 s in all; ran at 5.0 refunds a second.\n')
  })
})
