import type {Frequency} from '../../api/schemas/recurring-rules.js'

/**
 * Calendar dates as `YYYY-MM-DD` strings and the billing frequencies. The maths runs in UTC, so
 * no time zone or daylight-saving change ever moves a date by a day.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DAY_MS = 86_400_000


type Step = {days: number} | {months: number}

const STEPS: Record<Frequency, Step> = {
  Daily: {days: 1},
  Weekly: {days: 7},
  Fortnightly: {days: 14},
  Monthly: {months: 1},
  Quarterly: {months: 3},
  'Bi-Annually': {months: 6},
  Annually: {months: 12},
}

function parts(date: string): [number, number, number] {
  const match = DATE.exec(date)
  if (!match) throw new Error(`not a YYYY-MM-DD date: ${date}`)
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

const fromUtc = (time: Date) => time.toISOString().slice(0, 10)

export function shiftDays(date: string, days: number): string {
  const [year, month, day] = parts(date)
  return fromUtc(new Date(Date.UTC(year, month - 1, day + days)))
}

export function daysBetween(from: string, to: string): number {
  const [fromYear, fromMonth, fromDay] = parts(from)
  const [toYear, toMonth, toDay] = parts(to)
  return Math.round((Date.UTC(toYear, toMonth - 1, toDay) - Date.UTC(fromYear, fromMonth - 1, fromDay)) / DAY_MS)
}

/** A day past the end of the target month becomes its last day: 31 Jan + 1 month = 28 (or 29) Feb. */
export function shiftMonths(date: string, months: number): string {
  const [year, month, day] = parts(date)
  const lastDay = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate()
  return fromUtc(new Date(Date.UTC(year, month - 1 + months, Math.min(day, lastDay))))
}

/**
 * The `index`-th billing date counted from the start date. Counting from the start rather than
 * from the previous date keeps a 31st-of-the-month plan on the 31st after a short month.
 */
export function occurrence(start: string, frequency: Frequency, index: number): string {
  const step = STEPS[frequency]
  return 'days' in step ? shiftDays(start, step.days * index) : shiftMonths(start, step.months * index)
}

/** The first billing date strictly after `after`. */
export function billingDateAfter(start: string, frequency: Frequency, after: string): string {
  if (after < start) return start
  const step = STEPS[frequency]
  if ('days' in step) return occurrence(start, frequency, Math.floor(daysBetween(start, after) / step.days) + 1)
  let index = Math.max(0, Math.floor(daysBetween(start, after) / 31 / step.months))
  while (occurrence(start, frequency, index) <= after) index++
  return occurrence(start, frequency, index)
}

/** The first billing date on or after `date`. */
export const billingDateFrom = (start: string, frequency: Frequency, date: string) =>
  billingDateAfter(start, frequency, shiftDays(date, -1))
