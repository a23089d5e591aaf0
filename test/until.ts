/**
 * How long a test waits for an event, or a run for its exit, before it fails saying what it saw:
 * generous enough for a loaded machine, under vitest.config.ts's 120 s a test.
 */
export const RUN_BOUND_MS = 90_000

/**
 * Resolves with what `check` finds once it finds something (`undefined` or `false` is nothing yet).
 * It polls, so it waits for the event however loaded the machine, up to a bound. `what` names the
 * event in the error, a function where the error should show the state last seen. `everyMs` is
 * shorter where the state looked for may be brief.
 */
export async function until<T>(what: string | (() => string), check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = RUN_BOUND_MS, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
