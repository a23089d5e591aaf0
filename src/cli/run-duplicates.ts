import {UsageError} from '../errors.js'
import {DuplicateFinder, type DuplicateGroup} from '../lists/duplicates.js'
import type {RecordFilters} from '../lists/filters.js'
import {parseWindow, type Window, withinWindow} from '../lists/window.js'
import {DEFAULT_CONCURRENCY, type Deps} from '../operations/deps.js'
import {listRecords} from '../operations/lists.js'
import {paint} from '../output/colors.js'
import {duplicatesSummary, groupHeading, markedGroup} from '../output/duplicates-text.js'
import {printsTable, renderList} from '../output/render.js'
import type {Factory} from './factory.js'
import {DEFAULT_WITHIN_MS} from './duplicate-flags.js'
import {DEFAULT_LIST_LIMIT} from './flags.js'
import type {ListFlags} from './list-flags.js'

/**
 * `gw purchase list --duplicates`: likely duplicate charges, in groups (lists/duplicates.ts), from
 * the purchases of the window (today without one) that the other filters keep: approved ones
 * unless --status says otherwise, as a declined purchase took nothing. The window is read a
 * --within wider each side, so a pair across its edge is found, and a group is shown when one of
 * its charges is in the window. Only the window's pages are asked for; --limit counts groups.
 */
export async function runDuplicates(flags: ListFlags, f: Factory, filtersOf: (deps: Deps) => Promise<RecordFilters>): Promise<undefined> {
  if (!flags.duplicates) throw new UsageError('--within is how close together --duplicates groups charges: give --duplicates too', 'For example gw purchase list --duplicates --within 30m.')
  if (flags.to !== undefined && flags.from === undefined && flags.on === undefined) {
    throw new UsageError("--duplicates needs the window's first day: without one it would read every purchase ever made", `Give --from or --on too, e.g. --duplicates --on ${flags.to}.`)
  }
  const withinMs = flags.within ?? DEFAULT_WITHIN_MS
  const {now, calendar} = await f.gatewayTime()
  const window = parseWindow(flags.from === undefined && flags.on === undefined ? {on: 'today'} : flags, now, calendar)
  const read: Window = {...window, from: new Date(window.from!.getTime() - withinMs), ...(window.to ? {to: new Date(window.to.getTime() + withinMs)} : {})}
  const {io, columns, render} = f
  const deps = await f.deps()
  const filters = await filtersOf(deps)
  const statusGiven = filters.status !== undefined
  const order = flags['oldest-first'] ? 'oldest' : 'newest'
  const limit = flags.all ? undefined : (flags.limit ?? DEFAULT_LIST_LIMIT)
  const finder = new DuplicateFinder(withinMs, order)
  const table = printsTable(io, render)
  const shown = {groups: 0, purchases: 0, more: false}
  /** Prints the groups with a charge in the window; false once the limit is reached and another would follow. */
  const print = async (groups: DuplicateGroup[]): Promise<boolean> => {
    for (const group of groups) {
      if (!group.records.some((record) => withinWindow(window, record.transaction_date))) continue
      if (limit !== undefined && shown.groups === limit) {
        shown.more = true
        return false
      }
      shown.groups++
      shown.purchases += group.records.length
      const {mark, marked} = markedGroup(group)
      if (!table) {
        await renderList(io, marked, columns, render)
        continue
      }
      // A table needs no group field: the line above it says what its charges share.
      io.out(`${shown.groups > 1 ? '\n' : ''}${paint(io.color, 'bold', groupHeading(shown.groups, group, mark))}`)
      await renderList(io, render.fields?.includes('gw_duplicates') ? marked : group.records, columns, render)
    }
    return true
  }
  const {showingProgress} = await import('../output/progress.js')
  await showingProgress(f, deps.client, async (progress) => {
    const listing = listRecords({resource: 'purchases', window: read, filters: statusGiven ? filters : {...filters, status: 'approved'}, order, concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY, maxPages: flags['max-pages'], onState: (state) => progress.state('purchases', state)}, deps)
    for await (const page of listing.pages) {
      // Printed as they close, above the progress line (Io.status), each page's once it is read.
      if (!(await print(finder.add(page))) || io.outFailure()) return
      await io.outReady()
    }
    progress.done()
    await print(finder.end())
  })
  if (io.chatty && !render.json && !io.outFailure()) io.err(duplicatesSummary({...shown, withinMs, statusGiven}))
  return undefined
}
