import {describe, expect, it} from 'vitest'
import {instantOf, isCalendarDate, sentDay} from '../../../src/lib/days.js'

describe('isCalendarDate', () => {
  it.each([
    ['2026-11-22', true],
    ['2028-02-29', true],
    ['2000-02-29', true],
    ['2026-02-29', false],
    ['1900-02-29', false],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['22/11/2026', false],
    ['0999-01-01', false],
    ['', false],
  ])('%s → %s', (text, expected) => {
    expect(isCalendarDate(text)).toBe(expected)
  })
})

describe('sentDay', () => {
  it.each([
    ['2026/11/01', '2026-11-01'],
    ['2026-11-01', '2026-11-01'],
    ['2026/02/29', undefined],
    ['2026/11-01', undefined],
    ['2026-11-01T10:00', undefined],
    ['01/11/2026', undefined],
  ])('%s → %s', (text, expected) => {
    expect(sentDay(text)).toBe(expected)
  })
})

describe('instantOf', () => {
  it.each([
    ['2026-11-23T10:00:00+11:00', '2026-11-22T23:00:00.000Z'],
    ['2026-11-23T10:00Z', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23T10:00:00.250-05:30', '2026-11-23T15:30:00.250Z'],
    ['2026-11-23T10:00:00', undefined],
    ['2026-11-23', undefined],
    ['2026-11-32T10:00:00Z', undefined],
    ['2026-11-23 10:00:00Z', undefined],
  ])('%s → %s', (text, expected) => {
    expect(instantOf(text)?.toISOString()).toBe(expected)
  })
})
