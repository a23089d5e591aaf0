/**
 * `work` for each item, up to `ahead` at once, the results handed over in the items' order. A
 * failure is handed over in its place, after everything before it; what is in flight past it is
 * left to settle unheard. The window counts results not yet handed over, not only work in flight
 * (what p-limit bounds): a slow reader stops the reading of items, so memory stays at `ahead`.
 */
export async function* inOrder<I, R>(items: Iterator<I>, ahead: number, work: (item: I) => Promise<R>): AsyncGenerator<R> {
  const pending: Promise<R>[] = []
  const start = () => {
    const next = items.next()
    if (next.done) return false
    const promise = work(next.value)
    // Heard when its turn comes: until then a failure must not count as unhandled.
    promise.catch(() => {})
    pending.push(promise)
    return true
  }
  while (pending.length < ahead && start());
  while (pending.length > 0) {
    const result = await pending.shift()!
    start()
    yield result
  }
}
