import {afterEach, describe, expect, it, vi} from 'vitest'
import {countdown, secondsLeft} from '../../../src/output/countdown.js'
import {testIo} from '../../test-io.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('secondsLeft', () => {
  it.each([
    [10_000, 0, 10],
    [10_000, 9_001, 1],
    [10_000, 9_999, 1],
    [10_000, 10_000, 0],
    [10_000, 12_000, 0],
  ])('to %i at %i: %i', (endsAt, now, seconds) => {
    expect(secondsLeft(endsAt, now)).toBe(seconds)
  })
})

describe('countdown', () => {
  it('at a terminal: a foot line redrawn each second, taken away when stopped', () => {
    vi.useFakeTimers()
    const io = testIo({tty: true})
    let now = 0
    const stop = countdown(io, (seconds) => `${seconds} s left`, 3_000, () => now)
    expect(io.stderr()).toBe('\r\u001B[K3 s left')
    now = 1_000
    vi.advanceTimersByTime(1_000)
    expect(io.stderr()).toBe('\r\u001B[K3 s left\r\u001B[K2 s left')
    stop()
    expect(io.stderr()).toBe('\r\u001B[K3 s left\r\u001B[K2 s left\r\u001B[K')
    vi.advanceTimersByTime(5_000)
    expect(io.stderr()).toBe('\r\u001B[K3 s left\r\u001B[K2 s left\r\u001B[K')
  })

  it('at a terminal whose stdout is a pipe, whose reader draws there too: nothing at all', () => {
    vi.useFakeTimers()
    const io = testIo({tty: true, progress: false})
    const stop = countdown(io, (seconds) => `${seconds} s left`, 3_000, () => 0)
    vi.advanceTimersByTime(2_000)
    stop()
    expect(io.stderr()).toBe('')
  })

  it('where stderr is no terminal: nothing at all', () => {
    vi.useFakeTimers()
    const io = testIo()
    const stop = countdown(io, (seconds) => `${seconds} s left`, 3_000, () => 0)
    vi.advanceTimersByTime(2_000)
    stop()
    expect(io.stderr()).toBe('')
  })
})
