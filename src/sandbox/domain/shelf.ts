/** One merchant's records of one collection, with its indexes. */
export class Shelf<T> {
  /** By global key, in the order the records were created. */
  readonly records = new Map<string, T>()
  /** The same keys as an array, to read a page by position; dropped on a removal, rebuilt when next read. */
  private order: string[] | undefined
  /** Name → global keys holding it, first holder first (a billing reference may repeat an API one), as collections.ts indexedName names them. */
  readonly names = new Map<string, string[]>()
  /** Global key → the keyed hash of its name, for a record whose name holds a card number (storable.ts keyedName). */
  readonly hashes = new Map<string, string>()
  /** `field value` → global keys. */
  readonly groups = new Map<string, Set<string>>()
  /** `field value` → the group's running total (SUMMED). */
  readonly sums = new Map<string, number>()

  added(key: string): void {
    this.order?.push(key)
  }

  removed(): void {
    this.order = undefined
  }

  inOrder(): readonly string[] {
    return (this.order ??= [...this.records.keys()])
  }

  /** The record under `key` is found by this keyed hash of its name, or by its name (undefined). */
  hashed(key: string, hash: string | undefined): void {
    if (hash === undefined) this.hashes.delete(key)
    else this.hashes.set(key, hash)
  }
}
