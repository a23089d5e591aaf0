/**
 * Days as a place reads them: this machine's time zone, or a gateway's. A calendar is what its
 * clocks are ahead of UTC at each instant (minutes); days, midnights and weekdays follow from it,
 * summer time included where the zone has one.
 */
export interface Calendar {
  offsetMinutes(instant: number): number
}

/** This machine's time zone (TZ), as Date's local methods read it. */
export const MACHINE_CALENDAR: Calendar = {offsetMinutes: (instant) => -new Date(instant).getTimezoneOffset()}

/** A zone that is always the same distance from UTC (`-12:00`, `+05:30`). */
export function fixedCalendar(offsetMinutes: number): Calendar {
  return {offsetMinutes: () => offsetMinutes}
}

/**
 * The names IANA gives UTC itself, as ICU reads them (any case): a local gateway in a container or
 * CI says one. Its calendar needs no ICU, whose first time zone loads its date data (~12 ms).
 */
const UTC_NAMES = new Set(['UTC', 'UCT', 'GMT', 'GMT0', 'GMT+0', 'GMT-0', 'GREENWICH', 'UNIVERSAL', 'ZULU'].flatMap((name) => [name, `ETC/${name}`]))

/**
 * A time zone by its IANA name (`Australia/Sydney`, `Etc/GMT+12`), as this Node's ICU knows it;
 * undefined for a name it does not. Offsets are asked of ICU once an hour of time each.
 */
export function zoneCalendar(timeZone: string): Calendar | undefined {
  if (UTC_NAMES.has(timeZone.toUpperCase())) return fixedCalendar(0)
  let format: Intl.DateTimeFormat
  try {
    format = new Intl.DateTimeFormat('en-US', {timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric'})
  } catch {
    return undefined
  }
  const known = new Map<number, number>()
  return {
    offsetMinutes(instant) {
      const hour = Math.floor(instant / 3_600_000)
      let offset = known.get(hour)
      if (offset === undefined) {
        const at = hour * 3_600_000
        const parts = Object.fromEntries(format.formatToParts(at).map(({type, value}) => [type, Number(value)]))
        offset = (Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - at) / 60_000
        if (known.size > 10_000) known.clear()
        known.set(hour, offset)
      }
      return offset
    },
  }
}

/** What a calendar's clocks show at an instant: month from 0 and weekday from Sunday, as Date's. */
export interface WallTime {
  year: number
  month: number
  day: number
  weekday: number
  hour: number
  minute: number
  second: number
  millisecond: number
}

export function wallTime(calendar: Calendar, date: Date): WallTime {
  const shifted = new Date(date.getTime() + calendar.offsetMinutes(date.getTime()) * 60_000)
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth(),
    day: shifted.getUTCDate(),
    weekday: shifted.getUTCDay(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond: shifted.getUTCMilliseconds(),
  }
}

/**
 * The instant a calendar's clocks show a time, as Date's local constructor takes one (a field past
 * its range carries over: day 0 is the last of the month before). Across a change of offset the
 * offset found at the instant is the one used.
 */
export function fromWallTime(calendar: Calendar, year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millisecond = 0): Date {
  const wall = Date.UTC(year, month, day, hour, minute, second, millisecond)
  const guess = wall - calendar.offsetMinutes(wall) * 60_000
  return new Date(wall - calendar.offsetMinutes(guess) * 60_000)
}

/** The day an instant falls on in a calendar, `2026-11-17`. */
export function dayText(calendar: Calendar, date: Date): string {
  const {year, month, day} = wallTime(calendar, date)
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** An offset as a date-time writes it: `+11:00`, `-12:00`, `+05:30`; undefined for any other text. */
export function readOffset(text: string): number | undefined {
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(text)
  if (!match) return text === 'Z' || text === 'z' ? 0 : undefined
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]))
}
