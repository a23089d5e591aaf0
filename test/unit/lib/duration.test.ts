import {describe, expect, it} from 'vitest'
import {durationText, parseDuration} from '../../../src/lib/duration.js'

describe('parseDuration: a span of time as people type one', () => {
  it.each([
    ['90s', 90_000],
    ['10m', 600_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
    ['1m30s', 90_000],
    [' 10M ', 600_000],
    ['0s', 0],
  ])('%s is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })

  it.each(['', '10', 'ten minutes', '10 m', '-5m', '1.5h', '30m1h', '10d', 'm', '5mm'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined()
  })
})

describe('durationText: a duration in its largest whole units', () => {
  it.each([
    [600_000, '10m'],
    [90_000, '1m30s'],
    [5_400_000, '1h30m'],
    [7_200_000, '2h'],
    [240_000, '4m'],
    [0, '0s'],
  ])('%i ms is %s', (ms, text) => {
    expect(durationText(ms)).toBe(text)
    expect(parseDuration(text)).toBe(ms)
  })
})
