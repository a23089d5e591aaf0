import type {PageReader, Step} from './page-reader.js'

/**
 * A list's records in the order the gateway pages in: the first page (read already), then the
 * pages after it, up to `ahead` at once, until one ends the list (an empty one; the claimed last,
 * while the claim stands; a short one, where the gateway claimed nothing) or the pages asked for
 * hold the records wanted.
 */
export async function* walkForward<T extends Record<string, unknown>>(reader: PageReader<T>, first: T[], want: number | undefined): AsyncGenerator<Step<T>> {
  const {claim, size} = reader
  yield {records: first}
  // Where the list ends, as far as the pages read show: past the last one that held records.
  let end = first.length
  if (claim.endsAt(0, first.length)) {
    yield {end}
    return
  }
  for await (const read of reader.readFrom(size, 1, {want, handed: first.length})) {
    if (read.records.length === 0) {
      yield {end}
      return
    }
    end = read.offset + read.records.length
    yield {records: reader.fresh(read)}
    if (claim.endsAt(read.offset, read.records.length)) {
      yield {end}
      return
    }
  }
}
