import {getEventListeners} from 'node:events'
import {describe, expect, it, vi} from 'vitest'
import {type Clock, LOOK_AGAIN_MS, lookThroughWindow, PROCESSING_WINDOW_MS, STOPPED_WAITING, systemClock, type Waiting, windowLeft, windowOf} from '../../../src/money/window.js'

const SENT = Date.parse('2026-11-17T10:00:00Z')

describe('the processing window (design.md §5)', () => {
  it('is 60 s, the most a library waits, looked at again every 5 s', () => {
    expect(PROCESSING_WINDOW_MS).toBe(60_000)
    expect(LOOK_AGAIN_MS).toBe(5_000)
  })

  it.each<[string, number, number, number | undefined, number]>([
    ['just sent: the whole window', SENT, SENT, undefined, 60_000],
    ['sent 15 s ago', SENT, SENT + 15_000, undefined, 45_000],
    ['sent 59.999 s ago', SENT, SENT + 59_999, undefined, 1],
    ['sent 60 s ago: over', SENT, SENT + 60_000, undefined, 0],
    ['sent an hour ago', SENT, SENT + 3_600_000, undefined, 0],
    ['a time that could not be read: the whole window', Number.NaN, SENT, undefined, 60_000],
    ['a time ahead of the clock (set back): one window, never more', SENT + 3_600_000, SENT, undefined, 60_000],
    ['a window of 2 s, sent 1.5 s ago', SENT, SENT + 1_500, 2_000, 500],
    ['a window of 0', SENT, SENT, 0, 0],
  ])('%s', (_, sentAt, now, windowMs, left) => {
    expect(windowLeft(sentAt, now, windowMs)).toBe(left)
  })
})

/** A clock that moves only when slept on, by what was asked; the pauses asked for are kept. */
function fakeClock(start: number): Clock & {slept: number[]; at: () => number} {
  let now = start
  const slept: number[] = []
  return {
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms)
      now += ms
    },
    slept,
    at: () => now,
  }
}

/** Look-ups answered in turn: a value found, or undefined for a 404; the times they were made. */
function answers<T>(clock: Clock, ...replies: (T | undefined)[]) {
  const times: number[] = []
  return {
    times,
    look: async () => {
      times.push(clock.now())
      return replies.length > 1 ? replies.shift() : replies[0]
    },
  }
}

describe('lookThroughWindow', () => {
  it('found at once: no wait, nothing told', async () => {
    const clock = fakeClock(SENT + 1_000)
    const told: (Waiting | undefined)[] = []
    const {look, times} = answers(clock, 'record')
    expect(await lookThroughWindow({look, sentAt: SENT, clock, onWait: (w) => told.push(w)})).toBe('record')
    expect(times).toEqual([SENT + 1_000])
    expect(clock.slept).toEqual([])
    expect(told).toEqual([])
  })

  it('a 404 inside the window: looked up again every 5 s until found, the wait told as it begins and ends', async () => {
    const clock = fakeClock(SENT + 2_000)
    const told: (Waiting | undefined)[] = []
    const {look, times} = answers(clock, undefined, undefined, undefined, 'record')
    expect(await lookThroughWindow({look, sentAt: SENT, clock, onWait: (w) => told.push(w)})).toBe('record')
    expect(clock.slept).toEqual([5_000, 5_000, 5_000])
    expect(times).toEqual([SENT + 2_000, SENT + 7_000, SENT + 12_000, SENT + 17_000])
    expect(told).toEqual([{since: SENT + 2_000, endsAt: SENT + 60_000}, undefined])
  })

  it('404s all through: the last look-up is made as the window ends, and only then is it not there (undefined)', async () => {
    const clock = fakeClock(SENT + 48_000)
    const {look, times} = answers<string>(clock, undefined)
    expect(await lookThroughWindow({look, sentAt: SENT, clock})).toBeUndefined()
    expect(clock.slept).toEqual([5_000, 5_000, 2_000])
    expect(times).toEqual([SENT + 48_000, SENT + 53_000, SENT + 58_000, SENT + 60_000])
  })

  it('a 404 after the window: not there, at once', async () => {
    const clock = fakeClock(SENT)
    const told: (Waiting | undefined)[] = []
    const {look, times} = answers<string>(clock, undefined)
    expect(await lookThroughWindow({look, sentAt: SENT - 60_000, clock, onWait: (w) => told.push(w)})).toBeUndefined()
    expect(times).toEqual([SENT])
    expect(clock.slept).toEqual([])
    expect(told).toEqual([])
  })

  it('a shorter window is waited as given', async () => {
    const clock = fakeClock(SENT)
    const {look, times} = answers<string>(clock, undefined)
    expect(await lookThroughWindow({look, sentAt: SENT, windowMs: 7_000, clock})).toBeUndefined()
    expect(times).toEqual([SENT, SENT + 5_000, SENT + 7_000])
  })

  it("the gateway's window, learnt only once a look-up found nothing and a wait may begin (design.md §5: the window is the gateway's)", async () => {
    const asked: number[] = []
    const learnt = (ms: number) => async () => (asked.push(ms), ms)
    const clock = fakeClock(SENT + 500)
    const {look, times} = answers<string>(clock, undefined)
    expect(await lookThroughWindow({look, sentAt: SENT, windowMs: learnt(2_000), clock})).toBeUndefined()
    expect(asked).toEqual([2_000])
    expect(times).toEqual([SENT + 500, SENT + 2_000])
    // Found at once: nothing to wait for, nothing asked.
    expect(await lookThroughWindow({look: answers(clock, 'record').look, sentAt: SENT, windowMs: learnt(1), clock})).toBe('record')
    expect(asked).toEqual([2_000])
    expect(await windowOf(7)).toBe(7)
    expect(await windowOf(async () => 8)).toBe(8)
  })

  it('a clock set back while waiting never stretches the wait past the window: it is counted in pauses', async () => {
    let now = SENT
    const slept: number[] = []
    const clock: Clock = {
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms)
        now -= 3_600_000
      },
    }
    const {look} = answers<string>(clock, undefined)
    expect(await lookThroughWindow({look, sentAt: SENT + 10_000, clock})).toBeUndefined()
    expect(slept).toEqual(Array(12).fill(5_000))
  })

  it('stopped while waiting: no look-up more, and neither found nor absent', async () => {
    const stop = new AbortController()
    const clock = fakeClock(SENT)
    clock.sleep = async () => stop.abort()
    const told: (Waiting | undefined)[] = []
    const {look, times} = answers<string>(clock, undefined)
    expect(await lookThroughWindow({look, sentAt: SENT, clock, stop: stop.signal, onWait: (w) => told.push(w)})).toBe(STOPPED_WAITING)
    expect(times).toEqual([SENT])
    expect(told).toEqual([{since: SENT, endsAt: SENT + 60_000}, undefined])
  })

  it('a look-up that throws ends the wait with its error, the wait told as ended', async () => {
    const clock = fakeClock(SENT)
    const told: (Waiting | undefined)[] = []
    let calls = 0
    const look = async () => {
      if (++calls === 2) throw new Error('gateway gone')
      return undefined
    }
    await expect(lookThroughWindow({look, sentAt: SENT, clock, onWait: (w) => told.push(w)})).rejects.toThrowError(new Error('gateway gone'))
    expect(told).toEqual([{since: SENT, endsAt: SENT + 60_000}, undefined])
  })
})

/** A pause longer than any test: only an abort ends it. */
const aMinute = 60 * 1000

describe('systemClock', () => {
  it('reads the wall clock, and a stop ends its pause at once', async () => {
    const before = Date.now()
    expect(systemClock.now()).toBeGreaterThanOrEqual(before)
    const stop = new AbortController()
    stop.abort()
    const started = performance.now()
    await systemClock.sleep(aMinute, stop.signal)
    expect(performance.now() - started).toBeLessThan(30_000)
  })

  it('pauses for the time asked', async () => {
    const started = Date.now()
    await systemClock.sleep(20)
    expect(Date.now() - started).toBeGreaterThanOrEqual(19)
  })

  it('a pause with a stop lasts its time when nothing stops it, and lets go of the stop once over', async () => {
    const stop = new AbortController()
    const started = Date.now()
    await systemClock.sleep(20, stop.signal)
    expect(Date.now() - started).toBeGreaterThanOrEqual(19)
    // Over, it no longer waits on the stop: aborting now wakes nothing twice and throws nothing.
    stop.abort()
  })

  it("many pauses on one stop (a batch's rows waiting in doubt) add one listener to it, not one each, and one abort ends them all", async () => {
    const stop = new AbortController()
    const warnings: Error[] = []
    const warned = (warning: Error) => warnings.push(warning)
    process.on('warning', warned)
    try {
      const pauses = Array.from({length: 50}, () => systemClock.sleep(aMinute, stop.signal))
      expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1)
      const started = performance.now()
      stop.abort()
      await Promise.all(pauses)
      expect(performance.now() - started).toBeLessThan(30_000)
      // Node tells of a possible leak on the next turn of the event loop, if at all.
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([])
      // Another stop has a listener of its own; pauses after an abort end at once.
      const other = new AbortController()
      void systemClock.sleep(aMinute, other.signal)
      expect(getEventListeners(other.signal, 'abort')).toHaveLength(1)
      other.abort()
      await systemClock.sleep(aMinute, stop.signal)
    } finally {
      process.off('warning', warned)
    }
  })

  it('a pause a stop ends leaves no timer behind: a stopped batch does not keep the process up for the rest of it', async () => {
    vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']})
    try {
      const stop = new AbortController()
      const paused = systemClock.sleep(aMinute, stop.signal)
      expect(vi.getTimerCount()).toBe(1)
      stop.abort()
      await paused
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('a pause over before the stop comes is not woken by it', async () => {
    const stop = new AbortController()
    await systemClock.sleep(5, stop.signal)
    const later = systemClock.sleep(40, stop.signal)
    const started = Date.now()
    await later
    expect(Date.now() - started).toBeGreaterThanOrEqual(39)
  })
})
