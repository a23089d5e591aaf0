import {madeAt} from '../api/list-order.js'
import type {DuplicateGroup} from '../lists/duplicates.js'
import {durationText} from '../lib/duration.js'
import {formatMoney} from './money.js'
import {sanitizeLine} from '../safety/sanitize.js'
import type {GwRecord} from '../api/schemas/record.js'

/** What gw adds to each purchase of a group, after the gateway's fields: the group, by its first charge's id, how many, and over how long. */
export interface DuplicateMark {
  group: string
  charges: number
  span_seconds: number
}

/** A group's mark (DuplicateMark), and its purchases each with it as gw_duplicates: piped, the lines of one group share its id. */
export function markedGroup({records}: DuplicateGroup): {mark: DuplicateMark; marked: GwRecord[]} {
  const times = records.map((record) => madeAt(record)!)
  const first = records[times.indexOf(Math.min(...times))]!
  const mark: DuplicateMark = {group: String(first.id ?? first.reference), charges: records.length, span_seconds: Math.round((Math.max(...times) - Math.min(...times)) / 1000)}
  return {mark, marked: records.map((record) => ({...record, gw_duplicates: mark}))}
}

/** The line above a group's table at a terminal: what its charges share, and over how long. */
export function groupHeading(number: number, {records}: DuplicateGroup, mark: DuplicateMark): string {
  const sample = records[0]!
  const currency = typeof sample.currency === 'string' ? sanitizeLine(sample.currency) : undefined
  const amount = typeof sample.amount === 'number' ? formatMoney(Math.abs(sample.amount), currency) : 'one amount'
  const card = String(sample.card_number ?? '').slice(-4)
  return `Group ${number}: ${mark.charges} charges of ${amount} on card …${sanitizeLine(card)}, ${durationText(mark.span_seconds * 1000)} apart from first to last\n`
}

/** Under the groups at a terminal: how many, by what rule, and how to see more. */
export function duplicatesSummary({groups, purchases, more, withinMs, statusGiven}: {groups: number; purchases: number; more: boolean; withinMs: number; statusGiven: boolean}): string {
  const which = statusGiven ? 'purchases' : 'approved purchases'
  const rule = `on one card, of one amount and currency, each within ${durationText(withinMs)} of the one before`
  if (groups === 0) return `No likely duplicates: no two ${which} ${rule}.\n`
  const found = `${groups} group${groups === 1 ? '' : 's'} of likely duplicates (${purchases} ${which}) ${rule}`
  return more ? `${found}; --limit N or --all shows more groups.\n` : `${found}.\n`
}
