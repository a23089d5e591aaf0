// What a list walk remembers of the records it has met (page-reader.ts): their keys, a window of pages at a time.

/** Pages whose records are remembered to tell a page that adds nothing new (and a record met twice as the list shifts). */
export const RECENT_PAGES = 8

/** The fields keyOf reads. */
export const KEY_FIELDS = ['id', 'token'] as const

/** What tells a record from another: its id, or a card's token. None: it cannot be told, and is always new. */
export function keyOf(record: Record<string, unknown>): unknown {
  const key = record.id ?? record.token
  return typeof key === 'string' || typeof key === 'number' ? key : undefined
}

/**
 * The keys of the records of the first page and of the last RECENT_PAGES pages (up to twice as
 * many: forgotten a window at a time, so that remembering costs one insert a record).
 */
export class RecentKeys {
  private current = new Set<unknown>()
  private older = new Set<unknown>()
  private pages = 0

  constructor(private readonly first: Set<unknown>) {}

  has(key: unknown): boolean {
    return this.current.has(key) || this.older.has(key) || this.first.has(key)
  }

  add(keys: unknown[]): void {
    if (++this.pages % RECENT_PAGES === 0) [this.older, this.current] = [this.current, new Set()]
    for (const key of keys) if (key !== undefined) this.current.add(key)
  }
}
