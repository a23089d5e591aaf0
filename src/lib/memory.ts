type Collect = (options?: {type: 'major'; execution: 'sync' | 'async'}) => void

let gc: Collect | undefined

/**
 * A full garbage collection: now (`sync`), or begun now and done alongside the work that follows
 * (`async`, V8's concurrent marking). V8 lets garbage that outlives a young collection pile up in
 * the old generation far past what is kept before it collects it; the two below are where that
 * was measured. gc() is made the first time it is needed.
 */
export function collectGarbage(execution: 'sync' | 'async' = 'sync'): void {
  if (!gc) {
    const v8 = process.getBuiltinModule('node:v8')
    v8.setFlagsFromString('--expose-gc')
    gc = process.getBuiltinModule('node:vm').runInNewContext('gc') as Collect
    // Set back at once (gc() stays): V8 takes a code cache only under the flags it was written with (bin/start.js).
    v8.setFlagsFromString('--no-expose-gc')
  }
  gc({type: 'major', execution})
}

/**
 * Rows between collections while a large file is checked. Reading a file of a million rows
 * (checked, then sent or shown) makes a dozen short-lived objects a row, and the check keeps every
 * reference, to find one used twice (measured: 220 MiB of heap after the check, 75 MiB kept; a dry
 * run peaked at 427 MiB). Collecting every 65,536 rows holds a million-row dry run at 219 MiB, for
 * under a second in 17.
 */
export const ROWS_PER_COLLECTION = 65_536

/** How far a walk's heap grows past its least before it is collected. */
const WALK_GROWTH = 16 * 1024 * 1024

/**
 * Told after each page a walk prints. The pages read ahead outlive a young collection, so each
 * page's records end as garbage in the old generation (measured: 43 MiB promoted over a walk of
 * 400 pages of 100 KB, one full collection, at 48 MiB of heap with 18 MiB kept; 140-167 MiB at the
 * peak). A full collection, concurrent, each time the heap has grown WALK_GROWTH past the least it
 * was since the last: 106-123 MiB on Node 22.19, 24 and 26, for no CPU seen (bench/README.md).
 */
export function walkCollector({heapUsed = usedHeap, collect = () => collectGarbage('async')}: {heapUsed?: () => number; collect?: () => void} = {}): () => void {
  let least = Infinity
  return () => {
    const used = heapUsed()
    least = Math.min(least, used)
    if (used - least < WALK_GROWTH) return
    least = Infinity
    collect()
  }
}

const usedHeap = () => process.getBuiltinModule('node:v8').getHeapStatistics().used_heap_size
