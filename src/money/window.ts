/**
 * design.md §5: the gateway may take 30 s to process a request, and the libraries wait 50-60 s
 * for it (gateway-notes.md). Until the most any of them waits has passed since a purchase or refund
 * left, a 404 for its reference means "not yet", never "not sent": it is looked up again until then,
 * and only a 404 after it says the gateway never got it.
 */
export const PROCESSING_WINDOW_MS = 60_000

/** How often a reference the gateway does not have yet is looked up again while the window lasts. */
export const LOOK_AGAIN_MS = 5_000

/** Time as the wait needs it: the wall clock (a journal's times outlive the process), and a pause a stop may cut short. */
export interface Clock {
  now(): number
  /** Resolves after `ms`, or at once when `stop` is aborted. */
  sleep(ms: number, stop?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, stop) => pause(ms, stop),
}

/** The pauses each stop signal ends, woken by one listener on it: a batch's hundreds of rows waiting in doubt add one listener, not one each. */
const pausedBy = new WeakMap<AbortSignal, Set<() => void>>()

/** Resolves after `ms`, or at once when `stop` is (or is already) aborted. */
export function pause(ms: number, stop?: AbortSignal): Promise<void> {
  if (stop?.aborted) return Promise.resolve()
  return new Promise<void>((resolve) => {
    if (!stop) return void setTimeout(resolve, ms)
    let paused = pausedBy.get(stop)
    if (!paused) {
      const all = new Set<() => void>()
      stop.addEventListener('abort', () => all.forEach((wake) => wake()))
      pausedBy.set(stop, (paused = all))
    }
    const wake = () => {
      clearTimeout(timer)
      paused.delete(wake)
      resolve()
    }
    const timer = setTimeout(wake, ms)
    paused.add(wake)
  })
}

/**
 * How much of the window is left, in ms, for a request that left at `sentAt` (epoch ms): 0 once it
 * is over. A time that cannot be read (NaN), or ahead of the clock (the clock was set back), waits
 * one whole window, never longer.
 */
export function windowLeft(sentAt: number, now: number, windowMs: number = PROCESSING_WINDOW_MS): number {
  if (Number.isNaN(sentAt)) return windowMs
  return Math.min(windowMs, Math.max(0, sentAt + windowMs - now))
}

/** A wait for the gateway to finish: when it began and when the window ends (epoch ms). */
export interface Waiting {
  since: number
  endsAt: number
}

/** The window in ms, or how to learn it from the gateway (design.md §5: the window is the gateway's), asked only once a wait may begin. */
export type WindowMs = number | (() => Promise<number>)

/** The window, learnt if it must be. */
export const windowOf = async (windowMs: WindowMs): Promise<number> => (typeof windowMs === 'number' ? windowMs : windowMs())

export interface LookThroughWindow<T> {
  /** One look-up of the reference: what the gateway holds under it, or undefined for its 404. */
  look(): Promise<T | undefined>
  /** When the request left (epoch ms); NaN where its time cannot be read. */
  sentAt: number
  windowMs?: WindowMs
  clock: Clock
  /** Ends the wait early, with no look-up more: what was sent is then still in doubt. */
  stop?: AbortSignal
  /** Told when a wait begins (what was looked up was not there yet), and with undefined when it ends. */
  onWait?: (waiting: Waiting | undefined) => void
}

/** The wait was stopped before the window was over: neither found nor known to be absent. */
export const STOPPED_WAITING = Symbol('stopped waiting')

/**
 * Looks the reference up, and while the window lasts looks again every LOOK_AGAIN_MS until the
 * gateway has it: what was found, or undefined when the last look-up, made once the window was
 * over, found nothing (the request never reached the gateway). What `look` throws ends the wait.
 */
export function lookThroughWindow<T>(options: LookThroughWindow<T> & {stop: AbortSignal}): Promise<T | undefined | typeof STOPPED_WAITING>
export function lookThroughWindow<T>(options: Omit<LookThroughWindow<T>, 'stop'>): Promise<T | undefined>
export async function lookThroughWindow<T>({look, sentAt, windowMs = PROCESSING_WINDOW_MS, clock, stop, onWait}: LookThroughWindow<T>): Promise<T | undefined | typeof STOPPED_WAITING> {
  let found = await look()
  if (found !== undefined) return found
  const window = await windowOf(windowMs)
  const since = clock.now()
  const left = windowLeft(sentAt, since, window)
  if (left === 0) return undefined
  onWait?.({since, endsAt: since + left})
  try {
    // Counted in pauses, not by the clock: a clock set back meanwhile cannot stretch the wait.
    for (let waited = 0; found === undefined && waited < left; ) {
      const pause = Math.min(LOOK_AGAIN_MS, left - waited)
      await clock.sleep(pause, stop)
      if (stop?.aborted) return STOPPED_WAITING
      waited += pause
      found = await look()
    }
    return found
  } finally {
    onWait?.(undefined)
  }
}
