import type {Deps} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {listRecords} from '../operations/lists.js'

/** Pages read ahead at once: the few a batch's purchases fill are read while its first rows wait. */
const AHEAD = 4

/** The most purchase names a batch's rows are read ahead for: past it, a row's purchase is looked up by itself. */
export const MOST_NAMED = 100_000

/**
 * The purchases a batch's rows name (by id or reference), read from the purchases list newest first,
 * 50 a request, instead of one look-up each (design.md §5: a batch learns in pages of lists): the
 * walk stops once every one is found, or after twice the pages they would fill, and a row whose
 * purchase it did not meet looks it up by itself (`lookUp`). So a batch of recent purchases costs a
 * page for 50 of them, and one of old purchases at most a few pages more than one look-up each.
 * A walk that fails leaves every row to its own look-up.
 */
export function purchasesFromPages(names: ReadonlySet<string>, deps: Pick<Deps, 'client'>): (name: string) => Promise<GwRecord | undefined> {
  const found = new Map<string, GwRecord>()
  const waiting = new Map<string, (purchase: GwRecord | undefined) => void>()
  let ended = false
  let walk: Promise<void> | undefined
  const end = () => {
    ended = true
    for (const [name, answer] of waiting) answer(found.get(name))
    waiting.clear()
  }
  const read = async () => {
    const pages = 2 * Math.ceil(names.size / 50) + 1
    const listing = listRecords({resource: 'purchases', window: {}, filters: {}, order: 'newest', concurrency: AHEAD}, deps)
    let read = 0
    for await (const page of listing.pages) {
      for (const purchase of page) {
        for (const name of [purchase.id, purchase.reference]) {
          if (typeof name !== 'string' || !names.has(name) || found.has(name)) continue
          found.set(name, purchase)
          waiting.get(name)?.(purchase)
          waiting.delete(name)
        }
      }
      if (++read >= pages || found.size >= names.size) break
    }
  }
  return async (name) => {
    if (!names.has(name)) return undefined
    // A walk that fails (stopped, another gateway, a page that cannot be read) is said by each row's own look-up.
    walk ??= read()
      .catch(() => undefined)
      .finally(end)
    if (found.has(name) || ended) return found.get(name)
    return new Promise((answer) => waiting.set(name, answer))
  }
}
