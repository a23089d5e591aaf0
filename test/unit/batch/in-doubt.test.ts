import {describe, expect, it} from 'vitest'
import {lookUpInDoubt} from '../../../src/batch/in-doubt.js'
import type {Intent} from '../../../src/batch/journal-entries.js'
import type {Clock, Waiting} from '../../../src/money/window.js'

// A row in doubt since an earlier run (design.md §5): a 404 inside the processing window is "not yet".
const row = {row: 3, line: 4, reference: 'evt-3'}
const money = {amount: 500, currency: 'AUD'}
const START = Date.parse('2026-11-23T10:00:00Z')

/** A clock whose pauses pass at once, moving its time on; `onSleep` runs at each pause (to stop the batch, say). */
function fakeClock(onSleep: () => void = () => {}): Clock & {slept: number[]} {
  let now = START
  const slept: number[] = []
  return {
    slept,
    now: () => now,
    async sleep(ms) {
      slept.push(ms)
      now += ms
      onSleep()
    },
  }
}

const intentAt = (sentAt: number | string): Intent => ({intent: row.reference, row: row.row, line: row.line, request: {reference: row.reference}, sent_at: typeof sentAt === 'string' ? sentAt : new Date(sentAt).toISOString()})

/** A gateway that answers 404 `misses` times, then has the row's record. */
function gateway(misses: number): {look: () => Promise<{id: string} | undefined>; looks: () => number} {
  let looks = 0
  return {look: async () => (++looks > misses ? {id: '071-R-FOUND001'} : undefined), looks: () => looks}
}

describe('lookUpInDoubt', () => {
  it('found at the first look: reported, no wait', async () => {
    const waits: (Waiting | undefined)[] = []
    const clock = fakeClock()
    const result = await lookUpInDoubt(row, intentAt(START), gateway(0).look, money, {clock, stop: new AbortController().signal, onWait: (w) => waits.push(w)})
    expect(result).toEqual({found: {id: '071-R-FOUND001'}})
    expect(waits).toEqual([])
    expect(clock.slept).toEqual([])
  })

  it('a 404 inside the window: looked up again until found, the wait said as it begins and ends', async () => {
    const waits: (Waiting | undefined)[] = []
    const clock = fakeClock()
    const g = gateway(2)
    const result = await lookUpInDoubt(row, intentAt(START - 10_000), g.look, money, {windowMs: 60_000, clock, stop: new AbortController().signal, onWait: (w) => waits.push(w)})
    expect(result).toEqual({found: {id: '071-R-FOUND001'}})
    expect(g.looks()).toBe(3)
    expect(waits).toEqual([{since: START, endsAt: START + 50_000}, undefined])
  })

  it('waits with no one told (onWait left out) all the same', async () => {
    const clock = fakeClock()
    const result = await lookUpInDoubt(row, intentAt(START), gateway(1).look, money, {windowMs: 60_000, clock, stop: new AbortController().signal})
    expect(result).toEqual({found: {id: '071-R-FOUND001'}})
    expect(clock.slept).toEqual([5_000])
  })

  it('a 404 once the window is over: undefined, the row is sent', async () => {
    const clock = fakeClock()
    const g = gateway(99)
    expect(await lookUpInDoubt(row, intentAt(START - 61_000), g.look, money, {windowMs: 60_000, clock, stop: new AbortController().signal})).toBeUndefined()
    expect(g.looks()).toBe(1)
  })

  it('an intent whose time cannot be read counts as just sent: the whole window is waited', async () => {
    const clock = fakeClock()
    const g = gateway(99)
    expect(await lookUpInDoubt(row, intentAt(''), g.look, money, {windowMs: 60_000, clock, stop: new AbortController().signal})).toBeUndefined()
    expect(clock.slept.reduce((sum, ms) => sum + ms, 0)).toBe(60_000)
  })

  it('the batch stopped while it waited: still in doubt, saying the gateway did not have it yet', async () => {
    const stop = new AbortController()
    const clock = fakeClock(() => stop.abort())
    const result = await lookUpInDoubt(row, intentAt(START), gateway(99).look, money, {windowMs: 60_000, clock, stop: stop.signal})
    expect(result).toEqual({
      stillInDoubt: {
        row: 3,
        line: 4,
        reference: 'evt-3',
        status: 'unknown',
        exitCode: 8,
        resumed: false,
        error: {kind: 'outcome_unknown', status: null, messages: ['In doubt since an earlier run, and the gateway did not have it yet when the batch stopped, inside its processing window'], request_id: null},
        amount: 500,
        currency: 'AUD',
      },
    })
  })

  it('the batch stopped before the look-up was made (no request slot): still in doubt, saying so', async () => {
    const stopped = Symbol('stopped')
    const result = await lookUpInDoubt(row, intentAt(START), async () => stopped, money, {clock: fakeClock(), stop: new AbortController().signal})
    expect(result).toEqual({stillInDoubt: expect.objectContaining({status: 'unknown', exitCode: 8, error: expect.objectContaining({messages: ['In doubt since an earlier run, and the batch stopped before it was looked up']})})})
  })
})
