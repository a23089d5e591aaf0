/**
 * Every date the sandbox hands out comes from a Clock, so a virtual clock can later move
 * time forward (expiring cards, billing subscriptions) without touching the domain code.
 */
export interface Clock {
  now(): Date
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

export function addDays(date: Date, days: number): Date {
  const later = new Date(date)
  later.setDate(later.getDate() + days)
  return later
}
