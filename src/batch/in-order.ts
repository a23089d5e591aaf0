export type Outcome<T> = {ok: true; value: T} | {ok: false; error: unknown}

/**
 * Runs `work` over the items, `concurrency` at a time, and hands each outcome to `emit` in the
 * items' order, as soon as it and every one before it are done: a slow first id holds the output
 * back, never the work. An error thrown by `emit` stops the run and is thrown.
 */
export async function inOrder<Item, T>(items: Item[], concurrency: number, work: (item: Item) => Promise<T>, emit: (item: Item, outcome: Outcome<T>) => Promise<void> | void): Promise<void> {
  const outcomes: (Outcome<T> | undefined)[] = new Array(items.length)
  let started = 0
  let emitted = 0
  let stopped: {error: unknown} | undefined
  let emitting = Promise.resolve()
  const flush = () => {
    emitting = emitting.then(async () => {
      while (!stopped && emitted < items.length && outcomes[emitted]) {
        const index = emitted++
        try {
          await emit(items[index]!, outcomes[index]!)
        } catch (error) {
          stopped = {error}
        }
        outcomes[index] = undefined
      }
    })
    return emitting
  }
  const worker = async () => {
    while (!stopped && started < items.length) {
      const index = started++
      outcomes[index] = await work(items[index]!).then(
        (value): Outcome<T> => ({ok: true, value}),
        (error: unknown): Outcome<T> => ({ok: false, error}),
      )
      await flush()
    }
  }
  await Promise.all(Array.from({length: Math.min(concurrency, items.length)}, worker))
  await flush()
  if (stopped) throw stopped.error
}
