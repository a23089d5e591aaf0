import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import type {WalkState} from '../../../src/api/paging.js'
import {testIo} from '../../test-io.js'
import {pagingProgress, progressText, retryText, showingProgress} from '../../../src/output/progress.js'

const state = (changes: Partial<WalkState>): WalkState => ({pages: 1, records: 0, size: 50, ...changes})

describe('progressText', () => {
  it.each<[string, [string, WalkState][], {waitedMs: number; retry?: string}, string]>([
    ['pages and records of how many', [['purchases', state({pages: 12, records: 600, total: 20_000})]], {waitedMs: 0}, 'Reading purchases: page 12 of 400, 600 of 20,000 records'],
    ['no count known', [['purchases', state({pages: 3, records: 150})]], {waitedMs: 0}, 'Reading purchases: page 3, 150 records'],
    ['more pages read than the count has (newest first read forward, then back)', [['purchases', state({pages: 5, records: 50, total: 120})]], {waitedMs: 0}, 'Reading purchases: page 5, 50 of 120 records'],
    ['a page waited for over 2 s', [['purchases', state({pages: 3, records: 100, total: 200, waitingFor: 3})]], {waitedMs: 3400}, 'Reading purchases: page 3 of 4, 100 of 200 records; waiting 3 s for page 3'],
    ['a page waited for, not yet long', [['purchases', state({pages: 3, records: 100, total: 200, waitingFor: 3})]], {waitedMs: 1900}, 'Reading purchases: page 3 of 4, 100 of 200 records'],
    [
      'two lists at once (gw report), and a retry',
      [
        ['purchases', state({pages: 2, records: 100, total: 120})],
        ['refunds', state({pages: 1, records: 10, total: 10})],
      ],
      {waitedMs: 0, retry: 'page 3: HTTP 503, trying again (2 of 4)'},
      'Reading purchases: page 2 of 3, 100 of 120 records · refunds: page 1 of 1, 10 of 10 records; page 3: HTTP 503, trying again (2 of 4)',
    ],
  ])('%s', (_, walks, options, expected) => {
    expect(progressText(walks, options)).toBe(expected)
  })
})

describe('retryText', () => {
  it('names the page by its offset, else the request', () => {
    const retry = {method: 'GET', path: '/v1.0/purchases?offset=650&limit=50', why: 'HTTP 503', next: 2, tries: 4, waitMs: 100}
    expect(retryText(retry, 50)).toBe('page 14: HTTP 503, trying again (2 of 4)')
    expect(retryText({...retry, path: '/v1.0/purchases?limit=50', why: 'no answer within 60 s', next: 4}, 50)).toBe('GET /v1.0/purchases: no answer within 60 s, trying again (4 of 4)')
  })

  it('shows the why with its control characters made visible', () => {
    expect(retryText({method: 'GET', path: '/x', why: 'bad\u001B[2Jthing', next: 2, tries: 4, waitMs: 1}, undefined)).not.toContain('\u001B')
  })
})

describe('pagingProgress', () => {
  beforeEach(() => void vi.useFakeTimers({toFake: ['setInterval', 'clearInterval', 'performance']}))
  afterEach(() => void vi.useRealTimers())

  it('says nothing in the first second, then a line at the foot; done takes it away', () => {
    const io = testIo({tty: true, columns: 120})
    const progress = pagingProgress(io, {shown: true})
    progress.state('purchases', state({pages: 2, records: 50, total: 200}))
    expect(io.stderr()).toBe('')
    vi.advanceTimersByTime(1000)
    expect(io.stderr()).toBe('\r\u001B[KReading purchases: page 2 of 4, 50 of 200 records')
    progress.done()
    expect(io.stderr().endsWith('\r\u001B[K')).toBe(true)
    vi.advanceTimersByTime(5000)
    expect(io.stderr().endsWith('\r\u001B[K')).toBe(true)
  })

  it('names a retry at once, until a page comes', () => {
    const io = testIo({tty: true, columns: 120})
    const progress = pagingProgress(io, {shown: true})
    progress.state('purchases', state({pages: 2, records: 50, total: 200}))
    progress.retried({method: 'GET', path: '/v1.0/purchases?offset=100&limit=50', why: 'HTTP 503', next: 2, tries: 4, waitMs: 200})
    expect(io.stderr()).toBe('\r\u001B[KReading purchases: page 2 of 4, 50 of 200 records; page 3: HTTP 503, trying again (2 of 4)')
    vi.advanceTimersByTime(1000)
    progress.state('purchases', state({pages: 3, records: 100, total: 200}))
    vi.advanceTimersByTime(500)
    expect(io.stderr().split('\r\u001B[K').at(-1)).toBe('Reading purchases: page 3 of 4, 100 of 200 records')
    progress.done()
  })

  it('is cut to the width of the terminal: a line that wrapped could not be cleared', () => {
    const io = testIo({tty: true, columns: 30})
    const progress = pagingProgress(io, {shown: true})
    progress.state('purchases', state({pages: 2, records: 50, total: 200}))
    vi.advanceTimersByTime(1000)
    expect(io.stderr().split('\r\u001B[K').at(-1)).toBe('Reading purchases: page 2 of…')
    progress.done()
  })

  it('nothing at all where it is not to be shown (stderr not a terminal, CI, --json)', () => {
    const io = testIo({tty: true})
    const progress = pagingProgress(io, {shown: false})
    progress.state('purchases', state({pages: 2}))
    progress.retried({method: 'GET', path: '/x', why: 'HTTP 503', next: 2, tries: 4, waitMs: 1})
    vi.advanceTimersByTime(5000)
    progress.done()
    expect(io.stderr()).toBe('')
  })
})

describe('showingProgress', () => {
  beforeEach(() => void vi.useFakeTimers({toFake: ['setInterval', 'clearInterval', 'performance']}))
  afterEach(() => void vi.useRealTimers())
  const client = {watchRetries: () => () => {}, watchRateLimits: () => () => {}}
  const slowWalk = (json: boolean, io: ReturnType<typeof testIo>) =>
    showingProgress({io, render: {json}}, client, async (progress) => {
      progress.state('purchases', state({pages: 2, records: 50, total: 200}))
      vi.advanceTimersByTime(1000)
      return io.stderr()
    })

  it.each([
    ['stdout a terminal or a file (Io.progress)', {tty: true}, false, '\r\u001B[KReading purchases: page 2 of 4, 50 of 200 records'],
    ['stderr a terminal, stdout a pipe whose reader draws there too', {tty: true, progress: false}, false, ''],
    ['--json', {tty: true}, true, ''],
  ])('%s', async (_, options, json, during) => {
    const io = testIo({...options, columns: 120})
    expect(await slowWalk(json, io)).toBe(during)
    expect(io.stderr()).toBe(during && `${during}\r\u001B[K`)
  })
})
