import type {HttpMethod} from './endpoints.js'

export const MAX_RETRIES = 3

/** What a transport failure means for whether the gateway may have acted on the request. */
export type FailureClass = 'not_sent' | 'maybe_processed'

// The connection never opened: the gateway cannot have seen the request. (A failure with no code is in neither set.)
const NOT_SENT_CODES = new Set<string | undefined>([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
])

// TLS refused the peer before a byte of the request was written: not sent either.
const CERTIFICATE_CODES = new Set<string | undefined>([
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  // An https proxy whose own certificate does not match its name.
  'UND_ERR_PRX_TLS',
])

/** The certificate of the gateway (or of the proxy) is not trusted here. */
export function isCertificateFailure(err: unknown): boolean {
  return CERTIFICATE_CODES.has(errorCode(err))
}

/** The code of a failure: undici and node nest the useful one in `cause`, followed to its end (a chain that loops back ends too). */
export function errorCode(err: unknown): string | undefined {
  const seen = new Set<unknown>()
  for (let current = err; typeof current === 'object' && current !== null && !seen.has(current); current = (current as {cause?: unknown}).cause) {
    seen.add(current)
    const code = (current as {code?: unknown}).code
    if (typeof code === 'string') return code
  }
  return undefined
}

/**
 * The status a proxy refused the request with, before anything went on to the gateway: a CONNECT
 * answered with anything but 200, or a 407 to a plain-http request (undici's wording of each).
 */
export function proxyRefusal(err: unknown): number | undefined {
  const message = err instanceof Error ? err.message : String(err)
  const match = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(message) ?? /^Proxy Authentication Required \((407)\)$/.exec(message)
  return match ? Number(match[1]) : undefined
}

export function classifyFailure(err: unknown): FailureClass {
  const code = errorCode(err)
  // Anything after the connection opened (reset, headers or body timeout, socket closed) may
  // have reached the gateway, which processes a purchase even if we never read the answer.
  return proxyRefusal(err) !== undefined || NOT_SENT_CODES.has(code) || CERTIFICATE_CODES.has(code) ? 'not_sent' : 'maybe_processed'
}

/** 502/503/504 come from proxies and overloaded front ends, 408 from a server that read too little too late: worth another try for a read. */
const RETRYABLE_STATUSES = new Set([408, 502, 503, 504])

export interface RetryInput {
  method: HttpMethod
  attempt: number
  status?: number
  failure?: FailureClass
}

export function shouldRetry({method, attempt, status, failure}: RetryInput): boolean {
  // Never repeat anything but a read: a repeated POST could charge a card twice (design.md §5).
  if (method !== 'GET') return false
  // Bounded, so a gateway that is down fails in seconds rather than hanging a script.
  if (attempt >= MAX_RETRIES) return false
  if (status !== undefined) return RETRYABLE_STATUSES.has(status)
  return failure !== undefined
}

/** Exponential backoff with equal jitter (half fixed, half random), so many clients retrying do not arrive in step. */
export function backoffMs(attempt: number, baseMs = 200, capMs = 2000, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/**
 * How long gw waits, in all, for a gateway that keeps one request rate limited, from its first
 * 429: the live gateway counts requests a second, so a limit still held after a minute is a quota
 * or an outage, which a script should hear of (exit 9) rather than hang on; and a minute is what
 * a caller of the gateway already allows one request (its libraries wait 50-60 s for an answer).
 */
export const RATE_LIMIT_BOUND_MS = 60_000

/** The least wait for a rate limit: a Retry-After of 0, negative or in the past never makes a busy loop. */
export const RATE_LIMIT_FLOOR_MS = 100

/** What an answer says of the gateway's rate limit: wait, for `retryAfterMs` when it says how long. */
export interface RateLimit {
  status: number
  retryAfterMs?: number
}

/**
 * Whether an answer is the gateway asking to wait (design.md §5), never a refusal: a 429, said how
 * long or not; a 503 only with Retry-After, as a gateway sends it while it sheds load (without one
 * a 503 is a front end's failure, retried as one). `date`: the answer's Date header, which a
 * Retry-After date is read against, so that the two machines' clocks need not agree.
 */
export function rateLimitOf(status: number, {retryAfter, date}: {retryAfter?: string; date?: string}, now: number): RateLimit | undefined {
  if (status !== 429 && !(status === 503 && retryAfter !== undefined)) return undefined
  const said = Date.parse(date ?? '')
  const retryAfterMs = retryAfter === undefined ? undefined : parseRetryAfter(retryAfter, Number.isFinite(said) ? said : now)
  return retryAfterMs === undefined ? {status} : {status, retryAfterMs}
}

/**
 * Retry-After in ms from `now`: seconds (`12`), or an HTTP date. A negative or past value is 0
 * (no wait asked); anything else unreadable is undefined, and gw's own backoff stands for it.
 */
export function parseRetryAfter(value: string, now: number): number | undefined {
  const text = value.trim()
  if (/^[+-]?\d+(\.\d+)?$/.test(text)) return Math.max(0, Math.round(Number(text) * 1000))
  // A date names its month or day in words (RFC 9110's three forms); Date.parse alone takes `-5` for a year.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined
}

/**
 * Whether a request the gateway rate limited is sent again: a 429 says it was not processed,
 * whatever the method, so a purchase goes again under its reference; a 503 says nothing of that,
 * so only a read is repeated (a purchase answered so is looked up by its reference, recovery.ts).
 */
export function resendsWhenLimited(method: HttpMethod, status: number): boolean {
  return status === 429 || method === 'GET'
}

/**
 * The wait before a rate-limited request goes again: Retry-After, at least the floor; gw's own
 * backoff when the gateway says none (1 s doubling to 16 s, jittered). Undefined when that wait
 * would take the request past the bound (`limitedForMs`: since its first 429): gw gives up at
 * once, rather than wait out part of what the gateway asked and be refused again.
 */
export function rateLimitWait({retryAfterMs, tries, limitedForMs}: {retryAfterMs?: number; tries: number; limitedForMs: number}, random: () => number = Math.random): number | undefined {
  const waitMs = retryAfterMs === undefined ? backoffMs(tries, 1000, 16_000, random) : Math.max(RATE_LIMIT_FLOOR_MS, retryAfterMs)
  return limitedForMs + waitMs > RATE_LIMIT_BOUND_MS ? undefined : waitMs
}

/** A wait as a person reads it: `45 s`, `3 min`, `2 h`; a day or more is `more than a day`. */
export function spanOf(ms: number): string {
  const seconds = Math.ceil(ms / 1000)
  if (seconds < 120) return `${seconds} s`
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`
  return seconds < 86_400 ? `${Math.round(seconds / 3600)} h` : 'more than a day'
}
