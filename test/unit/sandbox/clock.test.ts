import {describe, expect, it} from 'vitest'
import {addDays, formatDate, formatDateTime} from '../../../src/sandbox/domain/clock.js'

describe('formatDateTime', () => {
  it.each(['2026-11-22T08:31:05Z', '2026-01-01T00:00:00Z', '2026-06-30T23:59:59Z', '1999-12-31T12:00:00Z'])(
    '%s is local time with its offset',
    (iso) => {
      const date = new Date(iso)
      const text = formatDateTime(date)
      expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
      expect(new Date(text).getTime()).toBe(date.getTime())
      expect(text.slice(0, 10)).toBe(formatDate(date))
      expect(Number(text.slice(11, 13))).toBe(date.getHours())
    },
  )

  it('drops milliseconds', () => {
    const date = new Date('2026-11-22T08:31:05.987Z')
    expect(new Date(formatDateTime(date)).getTime()).toBe(date.getTime() - 987)
  })
})

describe('formatDate and addDays', () => {
  it.each([
    [new Date(2026, 10, 22, 12), 1, '2026-11-23'],
    [new Date(2026, 10, 30, 23, 59), 1, '2026-12-01'],
    [new Date(2026, 11, 31, 0, 0), 1, '2027-01-01'],
    [new Date(2028, 1, 28, 12), 1, '2028-02-29'],
    [new Date(2026, 0, 5, 12), 0, '2026-01-05'],
  ])('%s plus %i day(s) is %s', (date, days, expected) => {
    expect(formatDate(addDays(date, days))).toBe(expected)
  })

  it('does not change the date it is given', () => {
    const date = new Date(2026, 10, 22)
    addDays(date, 3)
    expect(formatDate(date)).toBe('2026-11-22')
  })
})
