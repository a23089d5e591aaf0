// Days and instants as gw, its local gateway and their files write them: one reading of each.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
/** `2026/11/01` as the gateway's recordings send a day, or `2026-11-01`. */
const SENT_DAY = /^(\d{4})([-/])(\d{2})\2(\d{2})$/
/** A date-time names an instant only with its offset (or Z). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

/** A real day of the calendar written as YYYY-MM-DD, from the year 1000: `2026-02-29` is not one. */
export function isCalendarDate(text: string): boolean {
  const match = DAY.exec(text)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  return year >= 1000 && new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10) === text
}

/** A day as the gateway sends one (`2026/11/01` or `2026-11-01`), as YYYY-MM-DD; undefined when it is no such day. */
export function sentDay(text: string): string | undefined {
  const parts = SENT_DAY.exec(text)
  const day = parts && `${parts[1]}-${parts[3]}-${parts[4]}`
  return day && isCalendarDate(day) ? day : undefined
}

/** A date-time with its offset (`2026-11-23T10:00:00+11:00`, or Z) as its instant; undefined for anything else, a time with no offset among them. */
export function instantOf(text: string): Date | undefined {
  if (!INSTANT.test(text)) return undefined
  const when = new Date(text)
  return Number.isNaN(when.getTime()) ? undefined : when
}
