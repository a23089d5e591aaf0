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
 * The heap counts the memory its objects hold outside it (Buffers: a page's chunks, what stdout
 * was given): a walk that adds little to the heap itself, 100,000 records handed over from memory,
 * piled up 18 MiB of them uncollected (bench/README.md: a list read newest first from a page sent oldest first).
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

function usedHeap(): number {
  const heap = process.getBuiltinModule('node:v8').getHeapStatistics()
  return heap.used_heap_size + (heap.external_memory ?? 0)
}

/**
 * V8's optimising compiler (TurboFan) off until `resume`. While gw reads a whole list's answer to
 * hold it (api/paging.ts: 100,000 records in one page, to be handed over the other way round),
 * TurboFan compiling the reading's hot code kept ~6-9 MiB of compile memory for the rest of the
 * run (a thread's malloc arena, never given back), for no CPU saved (0.25 against 0.32 s of CPU:
 * the reading is over before optimised code would pay). Set back as V8 had it: V8 takes a code
 * cache only under the flags it was written with (bin/start.js), and a flag set back to its
 * default counts as never set (test/unit/lib/memory.test.ts).
 */
export function pauseOptimising(): {resume(): void} {
  const v8 = process.getBuiltinModule('node:v8')
  v8.setFlagsFromString('--no-turbofan')
  let paused = true
  return {
    resume() {
      if (paused) v8.setFlagsFromString('--turbofan')
      paused = false
    },
  }
}
