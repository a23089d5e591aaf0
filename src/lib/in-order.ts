/**
 * `work` for each item, up to `ahead` at once, the results handed over in the items' order. A
 * failure is handed over in its place, after everything before it; what is in flight past it is
 * left to settle unheard. The window counts results not yet handed over, not only work in flight
 * (what p-limit bounds): a slow reader stops the reading of items, so memory stays at `ahead`.
 * `items` is asked again each time a result is handed over, so an iterator may say it is done for
 * now and have more once a result has changed what it knows (a list whose end moved).
 */
export async function* inOrder<I, R>(items: Iterator<I>, ahead: number, work: (item: I) => Promise<R>): AsyncGenerator<R> {
  const pending: Promise<R>[] = []
  const fill = () => {
    while (pending.length < ahead) {
      const next = items.next()
      if (next.done) return
      const promise = work(next.value)
      // Heard when its turn comes: until then a failure must not count as unhandled.
      promise.catch(() => {})
      pending.push(promise)
    }
  }
  for (;;) {
    fill()
    if (pending.length === 0) return
    const result = await pending.shift()!
    fill()
    yield result
  }
}
