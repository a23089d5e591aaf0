import {describe, expect, it, vi} from 'vitest'
import {dayText, fixedCalendar, fromWallTime, MACHINE_CALENDAR, readOffset, wallTime, zoneCalendar} from '../../../src/lib/calendar.js'
import {parseWindow, recordDay, withinWindow} from '../../../src/lists/window.js'

// A gateway's days in its own time zone: the calendar gw reads named days and a
// report's days in, whatever this machine's TZ is.
describe('calendars', () => {
  const sydney = zoneCalendar('Australia/Sydney')!

  it("a zone by its name follows its summer time; one this Node does not know is none", () => {
    expect(sydney.offsetMinutes(Date.parse('2026-07-01T00:00:00Z'))).toBe(600)
    expect(sydney.offsetMinutes(Date.parse('2026-12-01T00:00:00Z'))).toBe(660)
    // Summer time starts at 2:00 on 2026-10-04, which is 16:00 UTC the day before.
    expect(sydney.offsetMinutes(Date.parse('2026-10-03T15:59:59Z'))).toBe(600)
    expect(sydney.offsetMinutes(Date.parse('2026-10-03T16:00:00Z'))).toBe(660)
    expect(zoneCalendar('Etc/GMT+12')!.offsetMinutes(Date.now())).toBe(-720)
    expect(zoneCalendar('Mars/Olympus_Mons')).toBeUndefined()
  })

  it('UTC by any name IANA gives it, in any case, is 0 all year without asking ICU; Europe/London is not UTC', () => {
    const asked = vi.spyOn(Intl, 'DateTimeFormat')
    try {
      for (const name of ['UTC', 'Etc/UTC', 'utc', 'UCT', 'Etc/GMT', 'GMT0', 'Etc/GMT-0', 'Greenwich', 'Etc/Universal', 'Zulu']) {
        const calendar = zoneCalendar(name)!
        expect([calendar.offsetMinutes(Date.parse('2026-07-01T00:00:00Z')), calendar.offsetMinutes(Date.parse('2026-12-01T00:00:00Z'))], name).toEqual([0, 0])
      }
      expect(asked).not.toHaveBeenCalled()
      expect(zoneCalendar('Europe/London')!.offsetMinutes(Date.parse('2026-07-01T00:00:00Z'))).toBe(60)
      expect(asked).toHaveBeenCalled()
    } finally {
      asked.mockRestore()
    }
  })

  it('reads and makes wall times, fields past their range carried over as Date does', () => {
    expect(wallTime(sydney, new Date('2026-11-17T13:30:00Z'))).toEqual({year: 2026, month: 10, day: 18, weekday: 3, hour: 0, minute: 30, second: 0, millisecond: 0})
    expect(fromWallTime(sydney, 2026, 10, 18).toISOString()).toBe('2026-11-17T13:00:00.000Z')
    expect(fromWallTime(sydney, 2026, 11, 32).toISOString()).toBe('2026-12-31T13:00:00.000Z')
    expect(fromWallTime(fixedCalendar(330), 2026, 0, 1, 5, 30).toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(dayText(fixedCalendar(-720), new Date('2026-11-27T08:00:00Z'))).toBe('2026-11-26')
    expect(fromWallTime(MACHINE_CALENDAR, 2026, 10, 17, 9).getTime()).toBe(new Date(2026, 10, 17, 9).getTime())
  })

  it('reads an offset as a date-time writes it', () => {
    expect([readOffset('+11:00'), readOffset('-12:00'), readOffset('+0530'), readOffset('Z'), readOffset('11:00'), readOffset('')]).toEqual([660, -720, 330, 0, undefined, undefined])
  })

  it("a window in a gateway's calendar: its today, its weeks and months across summer time, its bare dates; a record's day on it", () => {
    const now = new Date('2026-11-27T08:00:00Z') // Friday 19:00 in Sydney
    expect(parseWindow({on: 'today'}, now, sydney)).toEqual({from: new Date('2026-11-26T13:00:00Z'), to: new Date('2026-11-27T12:59:59.999Z'), calendar: sydney})
    expect(parseWindow({on: 'monday'}, now, sydney).from).toEqual(new Date('2026-11-22T13:00:00Z'))
    // October: summer time began on the 4th, so the month starts at +10:00 and ends at +11:00.
    expect(parseWindow({on: 'last-month'}, new Date('2026-11-05T00:00:00Z'), sydney)).toMatchObject({from: new Date('2026-09-30T14:00:00Z'), to: new Date('2026-10-31T12:59:59.999Z')})
    expect(parseWindow({from: '2026-11-17', to: '2026-11-17T09:30'}, now, sydney)).toMatchObject({from: new Date('2026-11-16T13:00:00Z'), to: new Date('2026-11-16T22:30:00Z')})
    const behind = fixedCalendar(-720)
    const today = parseWindow({on: 'today'}, now, behind)
    expect(withinWindow(today, '2026-11-26')).toBe(true)
    expect(withinWindow(today, '2026-11-27')).toBe(false)
    expect(recordDay('2026-11-27T07:59:00Z', behind)).toBe('2026-11-26')
    expect(recordDay('2026-11-26', behind)).toBe('2026-11-26')
  })
})
