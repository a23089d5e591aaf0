import type {Frequency} from '../../api/schemas/recurring-rules.js'
import {shiftDays} from './schedule.js'

/**
 * When a payment plan's payments fall, from its frequency and anniversary. Recorded: Weekly with
 * anniversary 5 is every Friday. Chosen for the rest (gateway-beyond.md §15): the anniversary of a
 * Weekly or Fortnightly plan is the day of the week, 1 Monday to 6 Saturday and Sunday 0 or 7 (so
 * both common numberings mean the same day, as they do for 5); of a Monthly, Quarterly,
 * Bi-Annually or Annually plan the day of the month, 1 to 31, a shorter month's last day standing
 * in; a Daily plan has none that matters. The first payment falls on the first such day on or
 * after the day the schedule starts from.
 */
const DAYS: Partial<Record<Frequency, number>> = {Daily: 1, Weekly: 7, Fortnightly: 14}
const MONTHS: Partial<Record<Frequency, number>> = {Monthly: 1, Quarterly: 3, 'Bi-Annually': 6, Annually: 12}

const utc = (date: string) => new Date(`${date}T00:00:00Z`)
const isoDate = (time: Date) => time.toISOString().slice(0, 10)

/** What is wrong with an anniversary for this frequency, in the gateway's words; undefined when nothing is. */
export function anniversaryProblem(frequency: Frequency, anniversary: number): string | undefined {
  if (frequency === 'Weekly' || frequency === 'Fortnightly') {
    return anniversary >= 0 && anniversary <= 7 ? undefined : `Anniversary must be from 0 to 7 for a ${frequency} plan: the day of the week, 1 Monday to 7 Sunday (0 is Sunday too)`
  }
  if (MONTHS[frequency] !== undefined) {
    return anniversary >= 1 && anniversary <= 31 ? undefined : `Anniversary must be from 1 to 31 for a ${frequency} plan: the day of the month`
  }
  return undefined
}

/** The anniversary day of the month `months` after the month of `date`: the month's last day when it is shorter. */
function dayOfMonth(date: string, months: number, anniversary: number): string {
  const start = utc(date)
  const year = start.getUTCFullYear()
  const month = start.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  return isoDate(new Date(Date.UTC(year, month, Math.min(anniversary, lastDay))))
}

/** The first payment day on or after `from`. */
export function firstPaymentDate(frequency: Frequency, anniversary: number, from: string): string {
  if (frequency === 'Daily') return from
  if (MONTHS[frequency] !== undefined) {
    const inMonth = dayOfMonth(from, 0, anniversary)
    return inMonth >= from ? inMonth : dayOfMonth(from, 1, anniversary)
  }
  const ahead = (anniversary % 7) - utc(from).getUTCDay()
  return shiftDays(from, (ahead + 7) % 7)
}

/** The payment day after `date`, a payment day of this schedule. */
export function nextPaymentDate(frequency: Frequency, anniversary: number, date: string): string {
  const months = MONTHS[frequency]
  return months === undefined ? shiftDays(date, DAYS[frequency] ?? 1) : dayOfMonth(date, months, anniversary)
}

/** Up to `count` payment days, the first on or after `from`, none after `endDate`. */
export function paymentDates(frequency: Frequency, anniversary: number, from: string, count: number, endDate: string | null): string[] {
  const dates: string[] = []
  for (let date = firstPaymentDate(frequency, anniversary, from); dates.length < count && (endDate === null || date <= endDate); date = nextPaymentDate(frequency, anniversary, date)) {
    dates.push(date)
  }
  return dates
}
