import type {Io} from './io.js'

/** Whole seconds from now to `endsAt`, never below 0: what a countdown shows. */
export function secondsLeft(endsAt: number, now: number): number {
  return Math.max(0, Math.ceil((endsAt - now) / 1000))
}

/**
 * A line at the foot of a terminal counting the seconds down to `endsAt`, redrawn each second, for
 * a wait a person is watching. Nothing where no progress line may be drawn (Io.progress): stderr no
 * terminal, CI, or stdout a pipe whose reader draws on the same terminal. The function returned
 * takes the line away.
 */
export function countdown(io: Io, line: (seconds: number) => string, endsAt: number, now: () => number = Date.now): () => void {
  if (!io.progress) return () => {}
  const draw = () => io.status(line(secondsLeft(endsAt, now())))
  draw()
  // Never what keeps gw running: the wait it shows does that.
  const timer = setInterval(draw, 1000).unref()
  return () => {
    clearInterval(timer)
    io.status(undefined)
  }
}
