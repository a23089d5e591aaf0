/**
 * The order a gateway lists records in, read from the records' own dates: the live gateway lists
 * newest first, the contract says nothing, and a local or older gateway may page oldest first
 * (gateway-notes.md: Lists). gw never takes an order on trust.
 */

/** Newest first or oldest first: the order a list is handed over in, when its records' dates tell. */
export type ListOrder = 'newest' | 'oldest'

/** What a run of records shows of their order: one of the two, dates all equal (either is true), or no dates to go by. */
export type SeenOrder = ListOrder | 'tied' | 'undated'

/** Where each kind of record keeps the time it was made. */
export const DATE_FIELDS = ['transaction_date', 'created_at'] as const

/** The time a record was made, in ms, or undefined where it carries no date gw can read. */
export function madeAt(record: Record<string, unknown>): number | undefined {
  for (const field of DATE_FIELDS) {
    const value = record[field]
    if (typeof value !== 'string') continue
    const time = Date.parse(value)
    if (Number.isFinite(time)) return time
  }
  return undefined
}

/**
 * The order of `records` as their dates show it: every step one way (ties aside) is that order;
 * steps both ways (a gateway that sorts by something else) are read from the first and the last
 * dated record.
 */
export function orderOf(records: readonly Record<string, unknown>[]): SeenOrder {
  const times = records.map(madeAt).filter((time): time is number => time !== undefined)
  if (times.length === 0) return 'undated'
  let newer = 0
  let older = 0
  for (let i = 1; i < times.length; i++) {
    if (times[i]! > times[i - 1]!) newer++
    else if (times[i]! < times[i - 1]!) older++
  }
  if (newer > 0 && older === 0) return 'oldest'
  if (older > 0 && newer === 0) return 'newest'
  return compare(times[0]!, times.at(-1)!)
}

/** The order across a list's first and last pages, where the first alone could not tell: its first dated record against the last page's last. */
export function orderAcross(first: readonly Record<string, unknown>[], last: readonly Record<string, unknown>[]): SeenOrder {
  const head = first.map(madeAt).find((time) => time !== undefined)
  const tail = last.map(madeAt).findLast((time) => time !== undefined)
  if (head === undefined || tail === undefined) return head === tail ? 'undated' : 'tied'
  return compare(head, tail)
}

function compare(first: number, last: number): SeenOrder {
  return first > last ? 'newest' : first < last ? 'oldest' : 'tied'
}

/**
 * The order a walk takes the gateway to page in: what the dates showed; where they are all equal,
 * the order the live gateway pages in (newest first), which those dates bear out as well as the
 * other; undefined where the records carry no dates, so no order can be claimed for them.
 */
export function pagedOrder(seen: SeenOrder): ListOrder | undefined {
  return seen === 'tied' ? 'newest' : seen === 'undated' ? undefined : seen
}
