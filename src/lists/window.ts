import {UsageError} from '../errors.js'
import {type Calendar, dayText, fromWallTime, MACHINE_CALENDAR, readOffset, wallTime} from '../lib/calendar.js'

/** A span of time, both ends included; either may be open. */
export interface Window {
  from?: Date
  to?: Date
  /** The calendar its days were read in, and a record's bare date is (this machine's when left out). */
  calendar?: Calendar
}

const HELP =
  'a date (2026-11-17), a date-time (2026-11-17T09:30, or with an offset, +11:00 or Z), today, yesterday, a weekday (monday: the latest, today if it is one), this-week, last-week, this-month, last-month, or an age such as 7d, 24h or 2w'

/** Day names as Date.getDay() numbers them. */
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

/**
 * The days a name stands for, as the first day and the day after the last, both local midnights:
 * `today`, `yesterday`; a weekday, the latest one, today when it is that day (a list looks back:
 * on a Monday `--from monday` means since this morning); the week (ISO: Monday to Sunday) or the
 * month, this one or the one before. Undefined for any other text.
 */
function namedDays(name: string, now: Date, calendar: Calendar): {first: Date; next: Date} | undefined {
  const today = wallTime(calendar, now)
  const days = (shift: number, count: number) => ({first: fromWallTime(calendar, today.year, today.month, today.day + shift), next: fromWallTime(calendar, today.year, today.month, today.day + shift + count)})
  if (name === 'today') return days(0, 1)
  if (name === 'yesterday') return days(-1, 1)
  const weekday = WEEKDAYS.indexOf(name)
  if (weekday >= 0) return days(-((today.weekday - weekday + 7) % 7), 1)
  const monday = -((today.weekday + 6) % 7)
  if (name === 'this-week') return days(monday, 7)
  if (name === 'last-week') return days(monday - 7, 7)
  const month = (shift: number) => ({first: fromWallTime(calendar, today.year, today.month + shift, 1), next: fromWallTime(calendar, today.year, today.month + shift + 1, 1)})
  if (name === 'this-month') return month(0)
  if (name === 'last-month') return month(-1)
  return undefined
}

/**
 * `--from`/`--to` as an instant. A bare date is a whole day in the calendar (this machine's time
 * zone, TZ, as `date` shows it, unless a gateway's is given): its start for --from, its end for
 * --to; so are the named days and spans (namedDays: `--from last-week --to last-week` is last week,
 * `--from this-month` this month so far). A date-time without an offset is the calendar's time too.
 * An age (`7d`, `24h`, `2w`) counts back from now. A date that is not on the calendar (2026-02-30)
 * is refused here: the gateway answers one with an HTML 500.
 */
export function parseWhen(text: string, edge: 'from' | 'to', now: Date, calendar: Calendar = MACHINE_CALENDAR): Date {
  const input = text.trim().toLowerCase()
  const refused = () => new UsageError(`--${edge} must be ${HELP}; got "${text}"`, `For example --${edge} ${edge === 'from' ? '7d' : 'today'}.`)
  const dayEdge = (year: number, month: number, day: number): Date => {
    const start = new Date(Date.UTC(year, month, day))
    if (start.getUTCFullYear() !== year || start.getUTCMonth() !== month || start.getUTCDate() !== day) throw refused()
    return edge === 'from' ? fromWallTime(calendar, year, month, day) : new Date(fromWallTime(calendar, year, month, day + 1).getTime() - 1)
  }
  if (input === 'now') return now
  const named = namedDays(input.replace(/\s+/g, '-'), now, calendar)
  if (named) return edge === 'from' ? named.first : new Date(named.next.getTime() - 1)
  const age = /^(\d+)\s*([hdw])$/.exec(input)
  if (age) {
    const hours = Number(age[1]) * {h: 1, d: 24, w: 24 * 7}[age[2] as 'h' | 'd' | 'w']
    return new Date(now.getTime() - hours * 3_600_000)
  }
  const date = /^(\d{4})[-/](\d{2})[-/](\d{2})$/.exec(input)
  if (date) return dayEdge(Number(date[1]), Number(date[2]) - 1, Number(date[3]))
  const dateTime = /^(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(z|[+-]\d{2}:?\d{2})?$/.exec(input)
  if (!dateTime) throw refused()
  const [year, month, day, hour, minute, second = '0', fraction = '0', zone] = dateTime.slice(1) as string[]
  dayEdge(Number(year), Number(month) - 1, Number(day))
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) throw refused()
  const fields = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number(fraction.padEnd(3, '0'))] as const
  if (zone === undefined) return fromWallTime(calendar, ...fields)
  return new Date(Date.UTC(...fields) - readOffset(zone)! * 60_000)
}

/**
 * `--on`: one day, from its start to its end, as `--from DAY --to DAY`; or one named span (last-week).
 * An age or a time is no day: refused, pointing to --from.
 */
export function parseOn(text: string, now: Date, calendar: Calendar = MACHINE_CALENDAR): Window {
  const input = text.trim().toLowerCase()
  const refused = (hint: string) => new UsageError(`--on must be a day: a date (2026-11-17), today, yesterday or a weekday; or this-week, last-week, this-month or last-month; got "${text}"`, hint)
  if (namedDays(input.replace(/\s+/g, '-'), now, calendar) === undefined && !/^\d{4}[-/]\d{2}[-/]\d{2}$/.test(input)) {
    // Only a value --from takes is pointed to it (7d, a date-time): a typo (tomorow) is no window at all.
    throw refused(readsAsFrom(text, now, calendar) ? `For a window from a time or an age until now, give --from ${text.trim()}.` : 'For example --on yesterday, --on monday or --on 2026-11-17.')
  }
  try {
    return {from: parseWhen(text, 'from', now, calendar), to: parseWhen(text, 'to', now, calendar), ...calendarOf(calendar)}
  } catch (err) {
    // A date of the right shape that is not on the calendar (2026-02-30).
    if (err instanceof UsageError) throw refused('For example --on 2026-11-17.')
    throw err
  }
}

function readsAsFrom(text: string, now: Date, calendar: Calendar): boolean {
  try {
    parseWhen(text, 'from', now, calendar)
    return true
  } catch {
    return false
  }
}

/** The window's calendar, left out where it is this machine's. */
const calendarOf = (calendar: Calendar) => (calendar === MACHINE_CALENDAR ? {} : {calendar})

/**
 * Both ends of `--from`/`--to`, or the day `--on` names, in the calendar (a gateway's, whose named
 * days they are: Factory.gatewayTime); refused when --from comes after --to.
 */
export function parseWindow(flags: {from?: string; to?: string; on?: string}, now: Date, calendar: Calendar = MACHINE_CALENDAR): Window {
  if (flags.on !== undefined) {
    // Declared apart, not as oclif's exclusive flags, whose usage line would show --from and --to as exclusive too.
    const besides = (['from', 'to'] as const).filter((edge) => flags[edge] !== undefined)
    if (besides.length > 0) throw new UsageError(`--on names both ends of the window: leave out ${besides.map((edge) => `--${edge}`).join(' and ')}`, `Or give --from and --to alone: --on ${flags.on} is --from ${flags.on} --to ${flags.on}.`)
    return parseOn(flags.on, now, calendar)
  }
  const window: Window = {
    ...(flags.from === undefined ? {} : {from: parseWhen(flags.from, 'from', now, calendar)}),
    ...(flags.to === undefined ? {} : {to: parseWhen(flags.to, 'to', now, calendar)}),
    ...calendarOf(calendar),
  }
  if (window.from && window.to && window.from > window.to) {
    // `--from monday --to friday` on a Wednesday: the latest Friday was last week's.
    const weekday = [flags.from, flags.to].some((text) => WEEKDAYS.includes(String(text).trim().toLowerCase()))
    const hint = weekday ? 'A weekday is the latest one, today included: for this week give --from this-week (or --from monday alone).' : 'Swap them, or leave one out.'
    throw new UsageError(`--from (${window.from.toISOString()}) comes after --to (${window.to.toISOString()}): no record can be in between`, hint)
  }
  return window
}

/**
 * The window as the gateway takes it: whole days, written as its recordings write them
 * (`2017/07/03`). Its days are its own time zone's, which may be any within a day of UTC, so the
 * days sent run from the UTC day before the window to the UTC day after it, and the records are
 * held to the exact window here (withinWindow).
 */
export function gatewayDays(window: Window): {from?: string; to?: string} {
  const day = (date: Date, shift: number) => {
    const shifted = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + shift))
    return `${shifted.getUTCFullYear()}/${String(shifted.getUTCMonth() + 1).padStart(2, '0')}/${String(shifted.getUTCDate()).padStart(2, '0')}`
  }
  return {...(window.from ? {from: day(window.from, -1)} : {}), ...(window.to ? {to: day(window.to, 1)} : {})}
}

/** A record's time (an ISO date, the start of that day in the calendar, or a date-time, as records carry them) as an instant; none for anything else. */
export function recordInstant(time: unknown, calendar: Calendar = MACHINE_CALENDAR): number | undefined {
  if (typeof time !== 'string') return undefined
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(time)
  const instant = day ? fromWallTime(calendar, Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime() : Date.parse(time)
  return Number.isNaN(instant) ? undefined : instant
}

/** A record's time as a day of the calendar (`2026-11-17`): gw report's days. */
export function recordDay(time: unknown, calendar: Calendar = MACHINE_CALENDAR): string | undefined {
  const instant = recordInstant(time, calendar)
  return instant === undefined ? undefined : dayText(calendar, new Date(instant))
}

/** Whether a record's time falls within the window; one without a time does not. */
export function withinWindow(window: Window, time: unknown): boolean {
  if (!window.from && !window.to) return true
  const instant = recordInstant(time, window.calendar)
  if (instant === undefined) return false
  return (!window.from || instant >= window.from.getTime()) && (!window.to || instant <= window.to.getTime())
}

/**
 * Every calendar day from `first` to `last` (`2026-11-17`), both included, in order: a report's
 * days, empty ones too. Plain dates, so no time zone or change of offset can skip or repeat one.
 */
export function daysFrom(first: string, last: string): string[] {
  const parse = (day: string) => {
    const [year, month, date] = day.split('-').map(Number) as [number, number, number]
    return Date.UTC(year, month - 1, date)
  }
  const days: string[] = []
  for (let at = parse(first), end = parse(last); at <= end; at += 86_400_000) days.push(new Date(at).toISOString().slice(0, 10))
  return days
}
