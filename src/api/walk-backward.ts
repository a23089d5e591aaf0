import type {PageReader, Read, Step} from './page-reader.js'
import {RECENT_PAGES} from './recent-keys.js'

/**
 * A list's records against the order the gateway pages in: from the end of the list back, each
 * page reversed, the first page (read already) last. The pages at the end are found as the claim
 * allows (endPages); then the walk reads back from below them, up to `ahead` pages at once, none
 * past the records wanted. `last`: the claimed last page, where it was read already to learn the order.
 */
export async function* walkBackward<T extends Record<string, unknown>>(reader: PageReader<T>, first: T[], {want, last}: {want?: number; last?: Read<T>}): AsyncGenerator<Step<T>> {
  if (first.length === 0) {
    yield {end: 0}
    return
  }
  const held = await endPages(reader, first, {want, last})
  const newest = held.at(-1)
  yield {end: newest === undefined ? first.length : newest.offset + newest.records.length}
  // The pages held were met on the way to the end: met again now, from the newest back.
  reader.startOver()
  let handed = 0
  for (let index = held.length - 1; index >= 0; index--) {
    const fresh = reader.fresh(held[index]!)
    handed += fresh.length
    yield {records: fresh.reverse()}
  }
  for await (const read of reader.readFrom((held[0]?.offset ?? 0) - reader.size, -1, {want, handed})) {
    // The end was seen past this page: one that comes empty means the list shrank under the walk, or the gateway misleads it.
    yield {records: reader.fresh(read, {emptyIsStale: true}).reverse()}
  }
  yield {records: [...first].reverse()}
}

/**
 * The list's last pages that held records, oldest first; none when the first page is the whole
 * list. While the claim stands, its last page, checked; where that page contradicts it (or there
 * is no claim), the end is found by reading forward (readToEnd).
 */
async function endPages<T extends Record<string, unknown>>(reader: PageReader<T>, first: T[], {want, last}: {want?: number; last?: Read<T>}): Promise<Read<T>[]> {
  const {claim, size} = reader
  if (claim.endsAt(0, first.length)) return []
  if (!claim.stands()) return readToEnd(reader, size, [], want)
  const lastOffset = claim.lastOffset()
  const read = last ?? (await reader.read(lastOffset))
  const held = read.records.length > 0 ? [read] : []
  if (claim.stands()) return held
  if (held.length === 0) return readToEnd(reader, size, held, want)
  reader.fresh(read)
  return readToEnd(reader, lastOffset + size, held, want)
}

/**
 * Reads forward from `offset` to the list's end, adding to `held` the pages that held records and
 * keeping the last of them: enough for the records wanted, or the last one.
 */
async function readToEnd<T extends Record<string, unknown>>(reader: PageReader<T>, offset: number, held: Read<T>[], want: number | undefined): Promise<Read<T>[]> {
  const keep = want === undefined ? 1 : Math.min(Math.ceil(want / reader.size) + 1, RECENT_PAGES)
  for await (const read of reader.readFrom(offset, 1)) {
    if (read.records.length === 0) break
    reader.fresh(read)
    held.push(read)
    if (held.length > keep) held.shift()
    if (reader.claim.endsAt(read.offset, read.records.length)) break
  }
  return held
}
