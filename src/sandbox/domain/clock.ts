import {daysBetween} from './schedule.js'

/**
 * Every date the sandbox hands out comes from a Clock, so the virtual clock can move time
 * forward (expiring cards, billing subscriptions) without touching the domain code.
 */
export interface Clock {
  now(): Date
}

/** Where the virtual date is kept; undefined until it was first set. */
export interface TodaySource {
  today: string | undefined
}

/**
 * The sandbox's "today": the real date until it is moved forward, and never back. Only the date
 * is virtual; the time of day stays the real one, so transaction times still read naturally.
 * The date lives in `dates` (the store), so it survives a restart with a state file.
 */
export class VirtualClock implements Clock {
  constructor(
    private readonly real: Clock,
    private readonly dates: TodaySource,
  ) {}

  realToday(): string {
    return formatDate(this.real.now())
  }

  today(): string {
    return this.dates.today ?? this.realToday()
  }

  now(): Date {
    return addDays(this.real.now(), daysBetween(this.realToday(), this.today()))
  }

  /** Only the billing engine moves the date, after it has run the day before. */
  moveTo(date: string): void {
    this.dates.today = date
  }
}

export const systemClock: Clock = {now: () => new Date()}

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0')

/** `2026-11-22`, in the process's local time zone: the gateway reports merchant-local dates. */
export function formatDate(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** `2026-11-22T19:31:05+11:00`: local time with its offset, as the gateway's transaction_date. */
export function formatDateTime(date: Date): string {
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  const offsetMinutes = -date.getTimezoneOffset()
  const sign = offsetMinutes < 0 ? '-' : '+'
  const offset = `${sign}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`
  return `${formatDate(date)}T${time}${offset}`
}

/** The process's time zone by its IANA name (`Australia/Sydney`, `Etc/GMT+12`), in which it dates records. */
export function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone
}

export function addDays(date: Date, days: number): Date {
  const later = new Date(date)
  later.setDate(later.getDate() + days)
  return later
}
