import type {GatewayClient, RateLimitWait, Retry} from '../api/client.js'
import type {WalkState} from '../api/paging.js'
import type {Io} from './io.js'
import type {RenderOptions} from './render.js'
import {sanitizeLine} from '../safety/sanitize.js'
import {secondsLeft} from './countdown.js'
import {rateLimitStatus} from './hints.js'

/** What a list or report that pages tells a person at a terminal (design.md §3): where it stands, and each retry. */
export interface PagingProgress {
  /** How the walk of the list `label` (purchases) stands. */
  state(label: string, state: WalkState): void
  retried(retry: Retry): void
  /** The gateway's rate limit holds the walk until `endsAt`: counted down in the line. */
  rateLimited(wait: RateLimitWait): void
  /** Takes the line away, before the table prints, and stops its clock. */
  done(): void
}

/** A list that pages longer than this shows its progress. */
const QUIET_MS = 1000
/** A page waited for longer than this is said to be waited for. */
const WAIT_SHOWN_MS = 2000

const silent: PagingProgress = {state() {}, retried() {}, rateLimited() {}, done() {}}

/**
 * A line at the foot of the terminal, on stderr (Io.status), once paging has taken a second:
 * pages read and records so far, of how many when known, the page waited for, and each retry or
 * wait for the gateway's rate limit as it happens; redrawn at most ten times a second, and each second while nothing comes. Nothing
 * when `shown` is false (stderr not a terminal, CI, stdout a pipe, --json).
 */
export function pagingProgress(io: Io, {shown}: {shown: boolean}): PagingProgress {
  if (!shown) return silent
  const walks = new Map<string, WalkState>()
  const started = performance.now()
  let lastPage = started
  let retry: {text: string; pages: number} | undefined
  let limitedUntil = 0
  let drawn = 0
  let visible = false
  const draw = () => {
    const now = performance.now()
    drawn = now
    visible = true
    const pages = [...walks.values()].reduce((sum, walk) => sum + walk.pages, 0)
    if (retry && retry.pages < pages) retry = undefined
    const limited = limitedUntil > Date.now() ? rateLimitStatus(secondsLeft(limitedUntil, Date.now()), {within: true}) : undefined
    io.status(fitted(progressText([...walks], {waitedMs: now - lastPage, retry: limited ?? retry?.text}), io.columns))
  }
  const clock = setInterval(() => {
    if (performance.now() - started >= QUIET_MS) draw()
  }, QUIET_MS / 2)
  clock.unref()
  return {
    state(label, state) {
      const before = walks.get(label)
      if (!before || before.pages !== state.pages) lastPage = performance.now()
      walks.set(label, state)
      const now = performance.now()
      if (now - started >= QUIET_MS && now - drawn >= 100) draw()
    },
    retried(event) {
      const pages = [...walks.values()].reduce((sum, walk) => sum + walk.pages, 0)
      const size = walks.size === 1 ? [...walks.values()][0]!.size : undefined
      retry = {text: retryText(event, size), pages}
      draw()
    },
    rateLimited(wait) {
      limitedUntil = Math.max(limitedUntil, wait.endsAt)
      draw()
    },
    done() {
      clearInterval(clock)
      if (visible) io.status(undefined)
      visible = false
    },
  }
}

/**
 * Runs a walk (a list, a report, the refunds of a purchase) with its progress and the client's
 * retries shown while it runs (pagingProgress): at a terminal, never in a pipe (whose reader draws
 * there too: Io.progress) or with --json. The line is taken away when the walk ends, however it ends.
 */
export async function showingProgress<T>({io, render}: {io: Io; render: Pick<RenderOptions, 'json'>}, client: Pick<GatewayClient, 'watchRetries' | 'watchRateLimits'>, walk: (progress: PagingProgress) => Promise<T>): Promise<T> {
  const progress = pagingProgress(io, {shown: io.progress && !render.json})
  const forget = client.watchRetries(progress.retried)
  // The line says the gateway's waits, in place of a line of their own.
  const forgetLimits = client.watchRateLimits(progress.rateLimited)
  try {
    return await walk(progress)
  } finally {
    progress.done()
    forget()
    forgetLimits()
  }
}

/**
 * `Reading purchases: page 12 of 400, 600 of 20,000 records`, each list a walk of its own
 * (`· refunds: ...`), then the page waited for and the last retry.
 */
export function progressText(walks: [label: string, state: WalkState][], {waitedMs, retry}: {waitedMs: number; retry?: string}): string {
  const count = (n: number) => n.toLocaleString('en-US')
  const parts = walks.map(([label, {pages, records, size, total}]) => {
    const pageCount = total === undefined ? undefined : Math.max(1, Math.ceil(total / size))
    const ofPages = pageCount !== undefined && pages <= pageCount ? ` of ${count(pageCount)}` : ''
    return `${label}: page ${count(pages)}${ofPages}, ${count(records)}${total === undefined ? '' : ` of ${count(total)}`} records`
  })
  let text = `Reading ${parts.join(' · ')}`
  const waiting = walks.map(([, state]) => state.waitingFor).find((page) => page !== undefined)
  if (waiting !== undefined && waitedMs >= WAIT_SHOWN_MS) text += `; waiting ${Math.floor(waitedMs / 1000)} s for page ${count(waiting)}`
  if (retry) text += `; ${retry}`
  return text
}

/** `page 13: HTTP 503, trying again (2 of 4)`: the page by its offset when the path gives it, else the path. */
export function retryText(retry: Retry, size: number | undefined): string {
  const offset = /[?&]offset=(\d+)/.exec(retry.path)?.[1]
  const what = offset !== undefined && size ? `page ${Number(offset) / size + 1}` : `${retry.method} ${retry.path.split('?')[0]}`
  return `${what}: ${sanitizeLine(retry.why)}, trying again (${retry.next} of ${retry.tries})`
}

/** One line no wider than the terminal: a line that wrapped would not be cleared. */
function fitted(text: string, columns: number): string {
  return text.length < columns ? text : text.slice(0, Math.max(0, columns - 2)) + '…'
}
